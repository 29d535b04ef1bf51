/**
 * The command prefixes a session kept (`p`) are in force again when it is opened again, as they
 * were before the exit: those on the path to the checked-out head, each checked as `p` would check
 * it now. A damaged, forged or no-longer-offered record is refused, saying why, never trusted.
 */
import { describe, expect, it } from 'vitest';
import { ApprovalPolicy } from '../../../src/core/approval/approval-policy';
import type { Decision } from '../../../src/core/approval/approver';
import { seededRandom } from '../../../src/core/clock';
import { checkout, currentHead } from '../../../src/core/session/cursor';
import { prefixRecordsTo, restoreKeptPrefixes } from '../../../src/core/session/kept-prefixes';
import { SessionStore } from '../../../src/core/storage/session-store';
import { builtinTools } from '../../../src/core/tools/builtin/index';
import { wholeList } from '../../../src/core/tree/lazy-list';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { keptPrefixNotices } from '../../../src/cli/wiring';
import type { FileOps } from '../../../src/core/storage/file-ops';
import { append, fastOps, fixedClock } from '../../tui/session-fixture';
import { tempDirForTest } from '../../support/after-the-test';

function newStore(ops?: FileOps): SessionStore {
  const dir = tempDirForTest('tole-kept-');
  return SessionStore.create(dir, { clock: fixedClock(), random: seededRandom(3), cwd: dir, ...(ops ? { ops } : {}) });
}

/** The session as a later `tole -c` opens it: the file read back. */
function reopened(store: SessionStore): SessionStore {
  const path = store.path;
  store.close();
  // Read as a large session's first open reads it: into columns, each entry built when read.
  return SessionStore.open(path, {
    clock: fixedClock(2_000_000_000_000),
    random: seededRandom(4),
    readOnly: true,
    asideMinBytes: 0,
    asideWorker: false,
  });
}

const tools = (() => {
  const registry = ToolRegistry.create({ interactiveApprover: true });
  for (const tool of builtinTools({ workspaceRoot: '/work/ws', interactiveApprover: true })) registry.register(tool);
  return registry;
})();

const keptBy = (prefix: readonly string[]): Decision => ({
  approved: true,
  by: 'user',
  reason: `approved at the prompt, and commands starting with \`${prefix.join(' ')}\` allowed for this session`,
  allowsPrefix: prefix,
});

/** One bash call the user answered: its intent, the approval record, its result. Returns the result's id. */
function answered(
  store: SessionStore,
  callId: string,
  command: string,
  decision: unknown,
  options: { tool?: string; input?: unknown; approvalCallId?: string } = {},
): string {
  append(store, 'tool_intent', {
    callId,
    tool: options.tool ?? 'bash',
    input: options.input ?? { command },
    subject: command,
    risk: 'Write',
    reason: 'runs a command',
    replay: 'never',
    approval: null,
  });
  append(store, 'approval', { callId: options.approvalCallId ?? callId, decision: decision as Decision });
  return append(store, 'tool_result', {
    callId,
    tool: options.tool ?? 'bash',
    outcome: 'ok',
    content: '',
    tier: 'hot',
  });
}

function policy(sandbox = true): ApprovalPolicy {
  return new ApprovalPolicy({ rules: [], yes: false, interactive: true, sandbox });
}

/**
 * What the start restores (the records picked from the path by type), checked against a walk of
 * the whole path, as the start read it before: the same prefixes in force, the same refusals.
 */
function restore(store: SessionStore, into: ApprovalPolicy, sandbox = true) {
  const head = currentHead(store).entryId;
  const kept = restoreKeptPrefixes(prefixRecordsTo(store.tree, head), tools, into);
  const whole = policy(sandbox);
  expect(restoreKeptPrefixes(store.tree.pathTo(head), tools, whole)).toEqual(kept);
  expect(into.inForce()).toEqual(whole.inForce());
  return kept;
}

const laterCall = (subject: string) => ({
  callId: 'later',
  tool: 'bash',
  subject,
  input: { command: subject },
  risk: 'Write' as const,
  reason: 'runs a command',
});

describe('kept prefixes on resume', () => {
  it('are in force again, as before the exit, and the start says so', () => {
    const store = newStore();
    append(store, 'user', { text: 'run the tests' });
    answered(store, 'c1', 'npm test', keptBy(['npm', 'test']));
    answered(store, 'c2', 'cargo build --release', keptBy(['cargo', 'build']));
    answered(store, 'c3', 'npm test -- --watch', keptBy(['npm', 'test']));
    const again = reopened(store);
    // Its entries are built when read (a lazy path), as a large session's are.
    const path = again.tree.pathTo(currentHead(again).entryId);
    expect(wholeList(path)).not.toBe(path);
    const resumed = policy();
    const kept = restore(again, resumed);
    expect(kept).toEqual({ restored: ['npm test', 'cargo build'], refused: [] });
    expect(resumed.inForce().prefixes).toEqual(['npm test', 'cargo build']);
    expect(resumed.preDecide(laterCall('npm test --silent'))).toEqual({
      approved: true,
      by: 'prefix',
      rule: 'npm test',
    });
    expect(resumed.preDecide(laterCall('npm test; touch x'))).toEqual({ ask: true });
    expect(keptPrefixNotices(kept)).toEqual([
      'the command prefixes this session kept are in force again (matching commands run in the sandbox without asking): npm test, cargo build',
    ]);
    again.close();
  });

  it('count only on the path to the checked-out head: a prefix kept on a branch left behind is not in force', () => {
    const store = newStore();
    const ask = append(store, 'user', { text: 'run the tests' });
    const npmLeaf = answered(store, 'c1', 'npm test', keptBy(['npm', 'test']));
    checkout(store, ask);
    append(store, 'user', { text: 'build it instead' });
    append(store, 'assistant', { text: 'ok', toolCalls: [], model: 'm', finishReason: 'stop' });
    const path = store.path;
    const onBranch = reopened(store);
    expect(restore(onBranch, policy())).toEqual({ restored: [], refused: [] });
    onBranch.close();

    // Checked out on the branch that kept it, the prefix is in force again.
    const back = SessionStore.open(path, { clock: fixedClock(3e12), random: seededRandom(5) });
    checkout(back, npmLeaf);
    expect(restore(back, policy()).restored).toEqual(['npm test']);
    back.close();
  });

  it('are refused, each saying why, when the resumed session has no sandbox', () => {
    const store = newStore();
    answered(store, 'c1', 'npm test', keptBy(['npm', 'test']));
    const again = reopened(store);
    const resumed = policy(false);
    const kept = restore(again, resumed, false);
    expect(kept.restored).toEqual([]);
    expect(kept.refused).toEqual([expect.stringMatching(/^`npm test`: there is no sandbox on this machine/)]);
    expect(resumed.inForce().prefixes).toEqual([]);
    expect(resumed.preDecide(laterCall('npm test'))).toEqual({ ask: true });
    expect(keptPrefixNotices(kept)[0]).toMatch(
      /^a command prefix this session kept is not in force: `npm test`: there is no sandbox/,
    );
    again.close();
  });

  it('refuses a damaged or forged record, never trusting it', () => {
    const store = newStore();
    const cases: [string, string, unknown, Parameters<typeof answered>[4]?][] = [
      ['f1', 'python3 -m pytest', keptBy(['python3'])],
      ['f2', 'rm -rf src', keptBy(['rm'])],
      ['f3', 'npm run build', keptBy(['npm', 'test'])],
      ['f4', 'npm test', { ...keptBy(['npm', 'test']), by: 'yes' }],
      ['f5', 'npm test', { ...keptBy(['npm', 'test']), approved: false }],
      ['f6', 'npm test', { ...keptBy(['npm', 'test']), allowsPrefix: 'npm test' }],
      ['f7', 'npm test', { ...keptBy(['npm', 'test']), allowsPrefix: ['npm', 'test', 'x'] }],
      ['f8', 'npm test', { ...keptBy(['npm', 'test']), allowsPrefix: [] }],
      ['f9', 'npm test', { ...keptBy(['npm', 'test']), allowsPrefix: ['npm', 7] }],
      ['f10', 'npm test', keptBy(['npm', 'test']), { approvalCallId: 'not-on-this-path' }],
      ['f11', 'notes.txt', keptBy(['notes.txt']), { tool: 'write_file', input: { path: 'notes.txt', content: 'x' } }],
      ['f12', 'npm test', keptBy(['npm', 'test']), { tool: 'no_such_tool' }],
      ['f13', 'npm test', keptBy(['npm', 'test']), { input: { command: 7 } }],
      [
        'f14',
        'npm test',
        { ...keptBy(['npm', 'test']), edited: { subject: 'rm -rf /', input: { command: 'rm -rf /' } } },
      ],
      ['f15', 'env npm test', keptBy(['env', 'npm'])],
      ['f16', 'npm\u001b[2Jtest', keptBy(['npm\u001b[2Jtest'])],
      ['f17', 'FOO=1 npm test', keptBy(['npm', 'test'])],
      ['f18', './build.sh all', keptBy(['./build.sh', 'all'])],
      ['f19', 'git checkout -- src', keptBy(['git', 'checkout'])],
      ['f20', 'npm test', { ...keptBy(['npm', 'test']), allowsPrefix: ['x'.repeat(65)] }],
    ];
    for (const [callId, command, decision, options] of cases) answered(store, callId, command, decision, options);
    const again = reopened(store);
    const resumed = policy();
    const kept = restore(again, resumed);
    expect(kept.restored).toEqual([]);
    expect(resumed.inForce().prefixes).toEqual([]);
    expect(kept.refused).toHaveLength(cases.length);
    const joined = kept.refused.join('\n');
    expect(joined).toContain('`python3`: `python3` runs whatever it is given');
    expect(joined).toContain('`env npm`: `env` runs whatever it is given');
    expect(joined).toContain('`git checkout`: the command is Destructive');
    expect(joined).toContain('`rm`: the command is Destructive');
    expect(joined).toContain("`npm test`: the command's prefix is `npm run`, not that");
    expect(joined).toContain('`npm test`: the record is not a user approval at the prompt');
    expect(joined).toContain('a prefix record: it is damaged');
    expect(joined).toContain('`npm test`: the call it was kept for is not on this path');
    expect(joined).toContain('`notes.txt`: a prefix is for shell commands');
    expect(joined).toContain('`npm test`: the tool no_such_tool is not here');
    expect(joined).toContain('`npm test`: the call it was kept for is not a valid call');
    // The refusal shows an escape as text, never as one the terminal would act on.
    expect(joined).not.toContain('\u001b');
    again.close();
  });

  it('are bounded: at most 64 kept, and past 256 records the rest are not read', () => {
    // fsync skipped: what is checked is the bound, not durability.
    const store = newStore(fastOps);
    for (let i = 0; i < 300; i++) answered(store, `b${i}`, `tool${i} build`, keptBy([`tool${i}`, 'build']));
    const again = reopened(store);
    const resumed = policy();
    const kept = restore(again, resumed);
    expect(kept.restored).toHaveLength(64);
    expect(resumed.inForce().prefixes).toHaveLength(64);
    expect(kept.refused.filter((why) => why.endsWith('a session keeps at most 64 prefixes'))).toHaveLength(256 - 64);
    expect(kept.refused.at(-1)).toBe('more than 256 prefix records on this path: the rest were not read');
    again.close();
  });
});
