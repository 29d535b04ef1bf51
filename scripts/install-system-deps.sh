#!/usr/bin/env bash
# The system packages some tests drive for real, installed when missing and this machine allows
# it (root with apt-get; one `apt-get update` at most). `npm test` runs this first, so the README's
# test command sets up a fresh machine too. Where a package cannot be had, it says so and the
# tests that need it skip with a printed reason.
#   git             checkpoints keep the workspace's states in a git directory of tole's own
#   bubblewrap      the sandbox shell commands run in without a keypress
#   postgresql-15   the team-sync tests start a real server (and the sandbox tests, to reach its socket)
#   tmux            the sandbox tests start a real server that a confined command must not reach
#   watchman        the change journal a bash call's checkpoint asks (tests start one of their own)
#   strace          a test watches a checkpoint's fsyncs, links and renames to show it is durable when taken
set -euo pipefail

missing=()
command -v git >/dev/null 2>&1 || missing+=(git)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql-15)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
command -v watchman >/dev/null 2>&1 || missing+=(watchman)
command -v strace >/dev/null 2>&1 || missing+=(strace)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "tole tests: not installed: ${missing[*]} (installing needs root and apt-get); the tests that need them skip" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
if ! { apt-get update -qq && apt-get install -y -qq "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "tole tests: could not install ${missing[*]}; the tests that need them skip" >&2
fi
rm -f "$log"
