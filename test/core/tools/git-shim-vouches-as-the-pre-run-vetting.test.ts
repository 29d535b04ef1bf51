/**
 * tole's git at run time (git-shim-script.ts) vouches from the same data as the vetting before the
 * run (git-inert-keys.ts, git-program-keys.ts, trustedGitKeys): for a config holding a key of every
 * form tole knows, the inert values it gives git are the ones vetEntries gives, and the keys it
 * refuses are the ones vetEntries cannot vouch for.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryOf } from '../../../src/core/git-config-listing';
import { GIT_GUARD_CONFIG } from '../../../src/core/git-guard-env';
import { INERT_PATTERNS, NAMED_ONLY } from '../../../src/core/git-inert-keys';
import { PROGRAM_KEYS } from '../../../src/core/git-program-keys';
import { vetEntries } from '../../../src/core/git-repo-drivers';
import { installGitShim, pathWithShim } from '../../../src/core/tools/git-shim';
import { tempDirForTest } from '../../support/after-the-test';
import { tempWorkspace } from './temp-workspace';

/** A git config section line and its variable for `key` (section.sub.variable or section.variable). */
function configText(key: string, value: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  const section = key.slice(0, first);
  const variable = key.slice(last + 1);
  const head =
    first === last
      ? `[${section}]`
      : `[${section} "${key
          .slice(first + 1, last)
          .replaceAll('\\', '\\\\')
          .replaceAll('"', '\\"')}"]`;
  return `${head}\n\t${variable} = "${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"\n`;
}

/** One key of each form: every inert pattern, every named-only key, every program key with awkward names. */
function everyForm(): [string, string][] {
  const keys: [string, string][] = [];
  // core.* and extensions.* are left out: git reads them as it starts, and 'x' is no value of theirs.
  for (const pattern of INERT_PATTERNS)
    if (!/^(core|extensions)\./.test(pattern))
      keys.push([pattern.replace('<>', 'Sub.Name').replace(/\*$/, 'anything'), 'x']);
  for (const pattern of NAMED_ONLY) keys.push([pattern.replace('<>', 'origin'), 'plain']);
  const names = ["it's", 'a$&b', 'Q"$(x)`', '@NAME@', 'dots.in.it'];
  for (const program of PROGRAM_KEYS) {
    const form = program.key
      .slice(1, -1)
      .replaceAll('\\.', '.')
      .replace(/\(([a-z0-9]+)(\|[a-z0-9|]+)?\)/, '$1')
      .replace('(.+.)?', 'NAME.')
      .replace('(.+)', 'NAME')
      .replace('.+', 'NAME');
    expect(form, program.key).not.toMatch(/[()|+?\\]/);
    // A name where the variable goes (alias.NAME, pager.NAME) can hold only letters, digits and -.
    for (const name of form.endsWith('NAME') ? ['st-1'] : names)
      keys.push([form.replace('NAME', () => name), 'run-me']);
  }
  return keys;
}

async function shimIn(root: string, home: string, trusted: readonly string[] = []) {
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home };
  const shim = await installGitShim(root, env, trusted);
  if (shim === null) throw new Error('no git');
  return { ...env, PATH: pathWithShim(shim, env) };
}

/** The repository config's local entries as git lists them, read as the pre-run vetting reads them. */
function localEntries(root: string): ReturnType<typeof entryOf>[] {
  const listing = execFileSync('git', ['config', '--list', '--show-scope', '--show-origin', '-z'], {
    cwd: root,
    encoding: 'utf8',
  }).split('\0');
  const local = [];
  for (let i = 0; i + 2 < listing.length; i += 3)
    if (listing[i] === 'local') local.push(entryOf(listing[i + 1]!, listing[i + 2]!));
  return local;
}

describe('tole’s git vouches as the vetting before the run does', () => {
  it('gives every key that names a program the inert value vetEntries gives, and passes every inert key', async () => {
    const ws = await tempWorkspace();
    execFileSync('git', ['init', '-q'], { cwd: ws.root });
    const keys = everyForm();
    expect(keys.length).toBeGreaterThan(300);
    appendFileSync(path.join(ws.root, '.git', 'config'), keys.map(([key, value]) => configText(key, value)).join(''));
    const local = localEntries(ws.root);
    const expected = vetEntries(local, ws.root);
    expect(expected.unvouched).toEqual([]);
    expect(expected.settings.length).toBeGreaterThan(100);
    const env = await shimIn(ws.root, ws.outside);
    // An external command git starts after the check sees the settings git was given.
    const bin = tempDirForTest('tole-shim-dump-');
    writeFileSync(
      path.join(bin, 'git-dump'),
      '#!/bin/bash\nfor ((i = 0; i < GIT_CONFIG_COUNT; i++)); do k=GIT_CONFIG_KEY_$i v=GIT_CONFIG_VALUE_$i; printf "%s\\0%s\\0" "${!k}" "${!v}"; done\n',
      { mode: 0o755 },
    );
    const dump = spawnSync('git', ['dump'], {
      cwd: ws.root,
      env: { ...env, PATH: `${env.PATH}:${bin}` },
      encoding: 'utf8',
    });
    expect(dump.stderr).toBe('');
    const items = dump.stdout.split('\0');
    const given: [string, string][] = [];
    for (let i = 0; i + 1 < items.length; i += 2) given.push([items[i]!, items[i + 1]!]);
    const guard = GIT_GUARD_CONFIG.length + 1; // and core.sshCommand
    expect(given.slice(0, guard).map(([key]) => key)).toEqual([
      ...GIT_GUARD_CONFIG.map(([key]) => key),
      'core.sshCommand',
    ]);
    expect(given.slice(guard)).toEqual(expected.settings.map(([key, value]) => [key, value]));
  });

  it('refuses the keys vetEntries cannot vouch for, and passes the ones the user trusts', async () => {
    const ws = await tempWorkspace();
    execFileSync('git', ['init', '-q'], { cwd: ws.root });
    const keys: [string, string][] = [
      ['some.unknown', 'x'],
      ['diff.tool', '../../run-me'],
      ['remote.origin.vcs', 'x/../run-me'],
      ['gitflow.path.hooks', 'h'],
      ['Mixed.Sub.Key', 'x'],
    ];
    appendFileSync(path.join(ws.root, '.git', 'config'), keys.map(([key, value]) => configText(key, value)).join(''));
    const local = localEntries(ws.root);
    const expected = vetEntries(local, ws.root).unvouched.map((line) => line.replace(/ \(in .*\)$/, ''));
    expect(expected).toEqual(['some.unknown', 'diff.tool', 'remote.origin.vcs', 'gitflow.path.hooks', 'mixed.Sub.key']);
    const env = await shimIn(ws.root, ws.outside);
    const refused = spawnSync('git', ['status'], { cwd: ws.root, env, encoding: 'utf8' });
    expect(refused.status).toBe(128);
    for (const key of expected) expect(refused.stderr).toContain(`${key} (in .git/config)`);
    const trusting = await shimIn(ws.root, ws.outside, [
      'some.unknown',
      'gitflow.*',
      'diff.tool',
      'remote.origin.vcs',
      'mixed.Sub.KEY',
    ]);
    const passed = spawnSync('git', ['status', '--short'], { cwd: ws.root, env: trusting, encoding: 'utf8' });
    expect(passed.stderr).toBe('');
    expect(passed.status).toBe(0);
  });

  it('refuses when git cannot list the config, and runs when it can, every time', async () => {
    const ws = await tempWorkspace();
    execFileSync('git', ['init', '-q'], { cwd: ws.root });
    const env = await shimIn(ws.root, ws.outside);
    // Many runs in a row: whether the listing is whole is read from the listing itself, never lost.
    for (let i = 0; i < 40; i++) {
      const ran = spawnSync('git', ['rev-parse', '--git-dir'], { cwd: ws.root, env, encoding: 'utf8' });
      expect(ran.stderr, `run ${i}`).toBe('');
      expect(ran.stdout).toBe('.git\n');
    }
    appendFileSync(path.join(ws.root, '.git', 'config'), '[core\n');
    const refused = spawnSync('git', ['status'], { cwd: ws.root, env, encoding: 'utf8' });
    expect(refused.status).toBe(128);
    expect(refused.stderr).toContain('bad config line');
    expect(refused.stderr).toContain('tole could not read the config git would read (git config --list failed, above)');
  });

  it('refuses a listing git cut short, whatever the command or the repository says of tole’s own end mark', async () => {
    const ws = await tempWorkspace();
    execFileSync('git', ['init', '-q'], { cwd: ws.root });
    const env = await shimIn(ws.root, ws.outside);
    // The repository ends its config with the mark, then includes a file git cannot parse.
    appendFileSync(
      path.join(ws.root, '.git', 'config'),
      '[tole]\n\tlisted = whole\n[include]\n\tpath = ../broken.cfg\n',
    );
    writeFileSync(path.join(ws.root, 'broken.cfg'), '[x\n');
    const runs = [
      spawnSync('git', ['status'], { cwd: ws.root, env, encoding: 'utf8' }),
      spawnSync('git', ['-c', 'tole.listed=whole', 'status'], { cwd: ws.root, env, encoding: 'utf8' }),
      spawnSync('git', ['status'], {
        cwd: ws.root,
        env: { ...env, GIT_CONFIG_PARAMETERS: "'tole.listed=whole'" },
        encoding: 'utf8',
      }),
    ];
    for (const refused of runs) {
      expect(refused.status).toBe(128);
      expect(refused.stderr).toContain('bad config line 1 in file');
      expect(refused.stderr).toContain('tole could not read the config git would read');
    }
    // A bogus GIT_CONFIG_PARAMETERS, which git cannot read either.
    writeFileSync(path.join(ws.root, 'broken.cfg'), '');
    const bogus = spawnSync('git', ['status'], {
      cwd: ws.root,
      env: { ...env, GIT_CONFIG_PARAMETERS: "'unterminated" },
      encoding: 'utf8',
    });
    expect(bogus.status).toBe(128);
    expect(bogus.stderr).toContain('tole could not read the config git would read');
    // With the include readable, the repository's own tole.listed is a key tole cannot vouch for.
    const unvouched = spawnSync('git', ['status'], { cwd: ws.root, env, encoding: 'utf8' });
    expect(unvouched.status).toBe(128);
    expect(unvouched.stderr).toContain('tole.listed (in .git/config)');
  });
});
