import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import type { ApprovalPolicy } from '../core/approval/approval-policy';
import type { Random } from '../core/clock';
import { skippedServerNotices } from '../core/mcp/mcp-notices';
import type { McpHub } from '../core/mcp/mcp-hub';
import type { SwitchableProvider } from '../core/provider/switchable-provider';
import { ServerModels } from './server-models';
import type { Agent } from '../core/session/agent';
import type { SessionStore } from '../core/storage/session-store';
import type { Sandbox } from '../core/tools/sandbox';
import type { ScreenSession, SessionSwitcher } from '../tui/screen/SessionScreen';
import type { PickerList, SwitchRequest } from '../tui/picker/session-switch';
import type { CliArgs } from './args';
import { startBackgroundSync, type BackgroundSync } from './background-sync';
import type { Config, ProjectMcpServers } from './config';
import { openForTui } from './open-for-tui';
import type { GatedConfig } from './project-gate';
import { discardUnused, resolveSessionRef } from './session-files';
import { prepareSession } from './session-setup';
import { sessionsForListing } from './sessions-command';
import type { ProviderSettings } from './settings';
import { wireTui } from './tui-wiring';
import { exposedWorkspaceReason } from './exposed-workspace';
import { buildPolicy, clock } from './wiring';

/** What every session of one full-screen tole is opened with: fixed for the life of the process. */
interface ScreenSessionsInput {
  readonly args: CliArgs;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly config: Config;
  readonly files: readonly string[];
  /** The config as the workspace's trust left it: decided once, at start, for every session. */
  readonly gated: GatedConfig;
  readonly configFile: string;
  readonly settings: ProviderSettings;
  readonly random: Random;
  readonly projectMcp: ProjectMcpServers | null;
  readonly projectTrusted: boolean;
  readonly sandbox: Sandbox | null;
  /** Where sessions live. */
  readonly dir: string;
}

/** A session open in the screen, with what must be let go when the screen leaves it. */
interface OpenSession {
  readonly agent: Agent;
  readonly provider: SwitchableProvider;
  readonly mcp: McpHub | undefined;
  readonly sync: BackgroundSync | null;
  readonly created: boolean;
}

/**
 * The sessions one full-screen tole shows: the first, and those `/new` and `/resume` switch to.
 * Each is opened whole (store and lock, profile and prompt, Agent, MCP servers, background sync)
 * before the screen leaves the one it shows, and released when it is left or when tole ends.
 */
export class ScreenSessions implements SessionSwitcher {
  private readonly live = new Map<SessionStore, OpenSession>();
  /** Opens under way (a `/new` or `/resume` tole may end in the middle of). */
  private readonly opening = new Set<Promise<ScreenSession>>();
  /** `releaseAll` was called: tole is ending, and nothing more is opened. */
  private ending = false;

  constructor(private readonly input: ScreenSessionsInput) {}

  /** The session tole starts on (`args` as the command line and the picker made them). */
  first(args: CliArgs, notices: readonly string[], policy: ApprovalPolicy): Promise<ScreenSession> {
    return this.openWith(args, notices, null, policy);
  }

  list(): PickerList {
    const { dir, cwd, env } = this.input;
    // As `tole --resume` lists them: an empty session is nothing to go back to; a broken one is listed, to be told why.
    const sessions = sessionsForListing(dir, cwd, true).filter((s) => s.entries > 0 || s.problem !== null);
    return { sessions, cwd, home: env['HOME'] || homedir(), nowMs: clock.nowMs() };
  }

  async open(request: SwitchRequest, from: ScreenSession): Promise<ScreenSession> {
    const base: CliArgs = { ...this.input.args, continueLast: false };
    if (request.kind === 'new') {
      if (this.input.args.readOnly)
        throw new Error('this tole was started --read-only: a new session would be written; start tole without it');
      const current = this.live.get(from.store);
      // The same settings: the model and profile in use now (/model, /agent), on the same provider (/connect).
      const model = current?.agent.model ?? base.model;
      const agent = current?.agent.profile.name ?? undefined;
      const { resume: _resume, ...rest } = base;
      return this.openWith(
        { ...rest, ...(model ? { model } : {}), ...(agent ? { agent } : {}) },
        [],
        current?.provider ?? null,
      );
    }
    const path = resolveSessionRef(request.ref, this.input.dir, this.input.cwd);
    if (path === null) throw new Error(`no session "${request.ref}" (tole sessions lists them)`);
    if (path === from.store.path) throw new Error(`${from.store.header.id} is the session open here`);
    // --storage names the format of a new session only: an existing one opens in its own.
    const { storage: _storage, ...existing } = base;
    return this.openWith({ ...existing, resume: path }, [], null);
  }

  /** Lets go of a session the screen has left (or shows at the end): MCP servers, sync, store and lock. */
  release(session: ScreenSession): Promise<void> {
    return this.releaseStore(session.store);
  }

  /** Every session still open (tole is ending). */
  async releaseAll(): Promise<void> {
    this.ending = true;
    // An open under way ends first, and lets go of what it opened itself (see openWith).
    await Promise.allSettled([...this.opening]);
    // Every session is let go even when letting go of one fails.
    await allSteps([...this.live.keys()].map((store) => () => this.releaseStore(store)));
  }

  private async releaseStore(store: SessionStore): Promise<void> {
    const live = this.live.get(store);
    if (!live) return;
    this.live.delete(store);
    // Each step is taken even when one before it failed (the lock and the sync are not left behind); the first failure is thrown after.
    await allSteps([
      async () => live.mcp?.close(),
      () => store.close(),
      () => live.sync?.finish(),
      // A session shipped to a team server stays: the local file is its source of truth.
      () => (live.sync === null ? discardUnused(store, live.created) : undefined),
    ]);
  }

  /**
   * Opens a session, counted among the opens under way until it is done. One that finishes after
   * tole began to end is let go at once (store, lock, an empty file it made) and rejects.
   */
  private openWith(
    args: CliArgs,
    startNotices: readonly string[],
    provider: SwitchableProvider | null,
    checkedPolicy?: ApprovalPolicy,
  ): Promise<ScreenSession> {
    if (this.ending) return Promise.reject(new Error('tole is ending: no other session is opened'));
    const opening = this.openWhole(args, startNotices, provider, checkedPolicy).then(async (session) => {
      if (!this.ending) return session;
      await this.releaseStore(session.store);
      throw new Error('tole is ending: the session just opened is let go');
    });
    this.opening.add(opening);
    const done = (): void => void this.opening.delete(opening);
    opening.then(done, done);
    return opening;
  }

  private async openWhole(
    args: CliArgs,
    startNotices: readonly string[],
    provider: SwitchableProvider | null,
    checkedPolicy?: ApprovalPolicy,
  ): Promise<ScreenSession> {
    const { input } = this;
    const { store, notices, created } = openForTui(args, input.dir, input.cwd, input.random);
    let wired: ReturnType<typeof wireTui> | null = null;
    let sync: BackgroundSync | null = null;
    try {
      // Without a key the session opens all the same: the first-run panel offers local servers.
      const prepared = await prepareSession({
        args,
        gated: input.gated,
        configFile: input.configFile,
        store,
        settings: input.settings,
        env: input.env,
        workspaceRoot: realpathSync(input.cwd),
        nowIso: new Date(clock.nowMs()).toISOString(),
      });
      // Each session has its own policy: an allowance (the `a` key) is for the rest of that session.
      const policy =
        checkedPolicy ??
        buildPolicy(
          args,
          input.config,
          true,
          input.configFile,
          input.sandbox,
          exposedWorkspaceReason(input.cwd, input.env),
        );
      wired = wireTui({
        config: input.config,
        files: input.files,
        settings: input.settings,
        store,
        env: input.env,
        cwd: input.cwd,
        sessionsDir: input.dir,
        random: input.random,
        policy,
        projectMcp: input.projectMcp,
        projectTrusted: input.projectTrusted,
        prepared,
        args,
        sandbox: input.sandbox,
        ...(provider ? { provider } : {}),
      });
      sync = startBackgroundSync({
        config: input.config,
        env: input.env,
        cwd: input.cwd,
        store,
        ...(args.config ? { configFlag: args.config } : {}),
      });
      const { mcp, agent } = wired;
      this.live.set(store, { agent, provider: wired.provider, mcp, sync, created });
      const all = [
        ...startNotices,
        ...notices,
        ...prepared.notices,
        ...wired.notices,
        ...(mcp ? skippedServerNotices(mcp.statuses()) : []),
      ];
      return {
        store,
        agent,
        models: new ServerModels(wired.provider),
        approvals: wired.approvals,
        policy,
        readOnly: store.readOnly,
        notices: all,
        commands: wired.commands,
        setup: wired.setup,
        ...(wired.sessionStart ? { sessionStart: wired.sessionStart } : {}),
        ...(sync ? { sync: sync.loop } : {}),
        ...(mcp ? { mcp } : {}),
        ...(wired.subAgents ? { subAgents: wired.subAgents } : {}),
        opened: created
          ? `new session ${store.header.id}: the one before is kept whole (/resume goes back to it)`
          : `opened session ${store.header.id}${store.readOnly ? ' read-only' : ''}`,
      };
    } catch (error) {
      // Half opened: let go of what was started, and of the store (an empty one made here goes).
      try {
        await wired?.mcp?.close();
      } finally {
        store.close();
        sync?.finish();
        discardUnused(store, created);
      }
      throw error;
    }
  }
}

/** Runs every step in order, whatever fails; then throws the first failure, if any. */
async function allSteps(steps: readonly (() => unknown)[]): Promise<void> {
  let failure: { readonly error: unknown } | null = null;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure !== null) throw failure.error;
}
