export const HELP_TEXT = `tole: a durable AI agent for the terminal

Usage
  tole                          new session, full screen
  tole -c                       continue the newest session in this directory
  tole --resume [ID|PATH]       open a session (no argument: pick one)
  tole -p PROMPT                headless: one turn, prints the answer
  tole sessions [--all]         list sessions (this directory, or all)
  tole check PATH               verify a session file (exit 0 sound, 1 with the first problem)
  tole export ID|PATH --format md|json [--branch LANE | --entry ID | --all] [-o FILE]
  tole convert PATH --to sqlite|jsonl
                                write the session in the other format next to it (never overwrites)
  tole sync [--to postgres://...] [--password-stdin]
                                ship every committed record of every local session to PostgreSQL, once
                                (the password: PGPASSWORD, ~/.pgpass or PGPASSFILE, or stdin; never in the URL, ps shows it)
  tole sessions --from [URL]    list the team's sessions on the server
  tole export ID --from [URL]   export a session the server holds (pulled into a local file first)
  tole --resume ID --from [URL] open a session the server holds (read-only while another machine has it)
  tole restore ID|PATH --entry ENTRY [--dry-run]
                                bring the workspace files back to how they were at an entry
                                (checkpointed first, so it can be undone; --dry-run only shows)
  tole unlock PATH [--force]    remove a session's lock left by a tole that is gone
                                (refuses while its holder runs, or, without --force, when
                                tole cannot check it: another host or container)
  tole trust [DIR]              trust the folder's tole.config.json as it is now (hooks, allow
                                rules, provider, base URL); an edit to it untrusts it again

Options
  -p, --prompt PROMPT           run one turn headless and print the answer
  -c, --continue                continue the newest session in this directory
  -r, --resume [ID|PATH]        open a session by id (a unique prefix will do) or by file
  -m, --model NAME              model to call
  --agent NAME                  run with the agent profile NAME (agents/NAME.json in the config dir)
  --base-url URL                any OpenAI-compatible server (OpenAI, OpenRouter, Ollama, vLLM, ...)
  -y, --yes                     approve every Write call (never a Destructive one; with no sandbox,
                                shell commands still ask)
  --allow RULE                  approve calls matching TOOL or TOOL:GLOB, e.g. --allow 'bash:git status*'
                                (repeatable; never approves a Destructive call)
  --output text|json            headless output: the answer, or one JSON event per line
  --read-only                   open a session without taking its lock or writing to it
  --storage jsonl|sqlite        format of a new session (sqlite needs: npm install better-sqlite3@12.11.1)
  --theme NAME|PATH             dark, light, high-contrast, or a theme file
  --config FILE                 config file to use in place of ./tole.config.json (trusted: you named it)
  --trust                       apply ./tole.config.json whole for this run, trusted or not
  --to URL, --from [URL]        the team's PostgreSQL (default: the config's sync.url)
  -h, --help                    this help
  -v, --version                 print the version

Environment
  OPENAI_API_KEY, OPENAI_BASE_URL, NO_COLOR, TOLE_SYNC_URL (the sync server), PGPASSWORD (its password),
  TOLE_HOME (sessions in $TOLE_HOME/sessions, checkpoints in $TOLE_HOME/checkpoints)
  TOLE_NO_SANDBOX=1 (run bash calls unconfined even where a sandbox exists)

Safety
  A project's tole.config.json applies only its harmless fields until you run tole trust.
  bash calls not approved with a key run in a sandbox: on Linux install bubblewrap
  (apt-get install bubblewrap, with user namespaces enabled); without one, every shell
  command that is not ReadOnly needs a key or an allow rule naming that exact command,
  whatever --yes or wildcard rules say.
  The commands tole runs never see variables named *KEY*, *TOKEN*, *SECRET*, *PASSWORD*.

Examples
  tole --base-url http://127.0.0.1:11434/v1 --model llama3.1
  tole -p "summarise README.md" --output json
  tole -p "run the tests" --allow 'bash:npm test'
  tole check ~/.tole/sessions/1764460000000000000-a1b2c3.jsonl

Exit codes: 0 ok; 1 runtime error (also a session, lane or entry that is not there); 2 usage or config error.
`;
