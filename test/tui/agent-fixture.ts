/** A real Agent over a real store, with a scripted provider and the built-in tools in a temp workspace. */
import { Checkpoints } from '../../src/core/checkpoints/checkpoint-store';
import type { StartTimer } from '../../src/core/checkpoints/git-stop';
import { ApprovalPolicy } from '../../src/core/approval/approval-policy';
import { Agent } from '../../src/core/session/agent';
import { DEFAULT_LIMITS } from '../../src/core/session/limits';
import type { SessionStore } from '../../src/core/storage/session-store';
import { builtinTools } from '../../src/core/tools/builtin/index';
import { ToolRegistry } from '../../src/core/tools/registry';
import type { AnyTool } from '../../src/core/tools/tool';
import { createTuiApprover, type ApprovalQueue } from '../../src/tui/approval/approval-queue';
import { ScriptedProvider, type ScriptedTurn } from './scripted-provider';
import { tempDirForTest } from '../support/after-the-test';

export interface AgentFixture {
  readonly agent: Agent;
  readonly approvals: ApprovalQueue;
  readonly policy: ApprovalPolicy;
  readonly provider: ScriptedProvider;
  readonly workspace: string;
  /** The agent's checkpoints, when the test asked for them (`checkpointHome`). */
  readonly checkpoints: Checkpoints | undefined;
}

export function realAgent(
  store: SessionStore,
  turns: readonly ScriptedTurn[],
  options: {
    yes?: boolean;
    checkpointHome?: string;
    /** The git the checkpoints run (a test's wrapper), and the timer of their time limit. */
    git?: { readonly binary: string; readonly timer?: StartTimer };
    extraTools?: readonly AnyTool[];
  } = {},
): AgentFixture {
  const workspace = tempDirForTest('tole-tui-ws-');
  const approvals = createTuiApprover({ armMs: 0 });
  const policy = new ApprovalPolicy({ rules: [], yes: options.yes ?? false, interactive: true });
  const tools = ToolRegistry.create({ interactiveApprover: true });
  for (const tool of builtinTools({ workspaceRoot: workspace, interactiveApprover: true })) tools.register(tool);
  for (const tool of options.extraTools ?? []) tools.register(tool);
  const provider = new ScriptedProvider(turns);
  const checkpoints = options.checkpointHome
    ? Checkpoints.create({
        home: options.checkpointHome,
        workspaceRoot: workspace,
        ...(options.git ? { gitBinary: options.git.binary } : {}),
        ...(options.git?.timer ? { timer: options.git.timer } : {}),
      })
    : undefined;
  const agent = new Agent(
    {
      store,
      provider,
      tools,
      policy,
      approver: approvals,
      workspaceRoot: workspace,
      systemPrompt: 'You are tole, in a test.',
      limits: DEFAULT_LIMITS,
      price: () => ({ costUsdMicros: 1500, priced: true }),
      ...(checkpoints ? { checkpoints } : {}),
    },
    'scripted-model',
  );
  return { agent, approvals, policy, provider, workspace, checkpoints };
}
