/**
 * The render benchmark's body, bundled by bench/render.ts the way scripts/build.mjs bundles tole
 * (production React, the bundle's Ink output), so that it measures the screen that ships.
 * One run: a session with `earlierTurns` finished turns, the App drawn at 120x40 into a null
 * terminal, and one more turn whose reply streams in without delay; returns the CPU time of
 * that turn, from the prompt to the last frame.
 */
import '../src/tui/frame/ci-env-hide';
import { render } from 'ink';
import '../src/tui/frame/ci-env-restore';
import { EventEmitter } from 'node:events';
import { setTimeout as sleep, setImmediate as yieldToLoop } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ApprovalPolicy } from '../src/core/approval/approval-policy';
import { seededRandom, systemClock } from '../src/core/clock';
import type { CompletionEvent, CompletionRequest, CompletionResult, Provider } from '../src/core/provider/provider';
import { Agent } from '../src/core/session/agent';
import { DEFAULT_LIMITS } from '../src/core/session/limits';
import { SessionStore } from '../src/core/storage/session-store';
import { ToolRegistry } from '../src/core/tools/registry';
import { App } from '../src/tui/App';
import { createTuiApprover } from '../src/tui/approval/approval-queue';
import { FrameWriter } from '../src/tui/frame/frame-writer';
import { paced } from '../src/tui/frame/PacedFrames';
import { StreamedFrames } from '../src/tui/frame/frame-pacer';
import { loadTheme } from '../src/tui/style/theme';
import { TurnController } from '../src/tui/screen/turn-controller';

export const COLUMNS = 120;
export const ROWS = 40;
const MODEL = 'bench-model';

/** A markdown reply of `tokens` tokens (a word and its space each): paragraphs, a list, a code block. */
export function replyTokens(tokens: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < tokens; i++) {
    const block = i % 6;
    if (block === 2)
      out.push('\n\n- ', 'first ', 'item ', 'with `code` ', '\n- ', 'second ', '**bold** ', 'item', '\n\n');
    else if (block === 4) out.push('```ts\n', 'const ', `x${i} `, '= ', 'store.', 'commit(', 'records);', '\n```\n\n');
    else for (let w = 0; w < 40; w++) out.push(`word${(i * 40 + w) % 997}${w === 39 ? '.\n\n' : ' '}`);
  }
  return out.slice(0, tokens);
}

/** Streams the tokens of one scripted reply, yielding to the event loop between them (no delay). */
class StreamingProvider implements Provider {
  readonly name = 'bench';
  streamTokens = false;
  constructor(
    private readonly tokens: readonly string[],
    private readonly delayMs = 0,
  ) {}
  async complete(request: CompletionRequest, onEvent: (event: CompletionEvent) => void): Promise<CompletionResult> {
    let text = '';
    if (this.streamTokens) {
      for (const token of this.tokens) {
        await (this.delayMs > 0 ? sleep(this.delayMs) : yieldToLoop());
        text += token;
        onEvent({ type: 'text', delta: token });
      }
    } else {
      text = this.tokens.join('');
      onEvent({ type: 'text', delta: text });
    }
    const usage = { inputTokens: 1000, outputTokens: this.tokens.length, cachedInputTokens: 0, cacheWriteTokens: 0 };
    onEvent({ type: 'attempt', report: { model: request.model, attempt: 1, outcome: 'ok', usage, latencyMs: 1 } });
    return { model: request.model, text, reasoning: '', toolCalls: [], finishReason: 'stop', usage };
  }
}

/** A terminal that takes every byte and shows none. */
export class NullTerminal extends EventEmitter {
  readonly isTTY = true;
  readonly columns = COLUMNS;
  readonly rows = ROWS;
  bytes = 0;
  writes = 0;
  write = (data: string | Uint8Array, ...rest: unknown[]): boolean => {
    this.bytes += data.length;
    this.writes++;
    rest.find((r): r is () => void => typeof r === 'function')?.();
    return true;
  };
}

class NoKeys extends EventEmitter {
  readonly isTTY = false;
  setEncoding(): void {}
  setRawMode(): void {}
  ref(): void {}
  unref(): void {}
  read(): null {
    return null;
  }
}

export interface RenderRun {
  readonly cpuMs: number;
  /** Frames that reached the terminal, and their bytes. */
  readonly frames: number;
  readonly bytes: number;
  /** The bytes the same frames cost written a changed row at a time (tole's writer before cell diffs). */
  readonly rowBytes: number;
  /** The bytes the same frames cost as cell diffs alone, no row scrolled by the terminal. */
  readonly unscrolledBytes: number;
  /** Everything Ink handed the frame writer during the measured turn (for replaying it through a writer alone). */
  readonly writes: readonly string[];
}

/** The bytes `writes` (all Ink handed the writer) cost from `from` on through a writer that scrolls no rows. */
function unscrolledBytes(writes: readonly string[], from: number): number {
  const terminal = new NullTerminal();
  const frames = new FrameWriter(terminal as unknown as NodeJS.WriteStream);
  frames.scroll = false;
  let before = 0;
  writes.forEach((data, i) => {
    if (i === from) before = terminal.bytes;
    frames.stream.write(data);
  });
  return terminal.bytes - (from < writes.length ? before : terminal.bytes);
}

const ERASE_PREFIX = /^(?:\x1b\[2K(?:\x1b\[1A)?)+\x1b\[G/;

/**
 * The baseline writer: each changed row rewritten whole at its row (erase, then the row), in a
 * synchronized update. It counts bytes only; the frames it sees are the ones Ink hands tole.
 */
class RowWriter {
  private previous: string[] = [];
  bytes = 0;
  counting = false;
  see(data: string): void {
    const rest = data.replace(ERASE_PREFIX, '');
    // Only the frames: Ink's mode and cursor sequences alone pass through either writer alike.
    if (!rest.includes('\n') && rest.length < 16) return;
    const lines = rest.endsWith('\n') ? rest.slice(0, -1).split('\n') : rest.split('\n');
    let out = '';
    for (let i = 0; i < Math.max(lines.length, this.previous.length); i++) {
      if (lines[i] === this.previous[i]) continue;
      out += `\x1b[${i + 1};1H\x1b[0m\x1b[2K${lines[i] ?? ''}\x1b[0m`;
    }
    this.previous = lines;
    if (out !== '' && this.counting) this.bytes += Buffer.byteLength(`\x1b[?2026h${out}\x1b[?2026l`);
  }
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A full collection before each measured turn, so that garbage of the setup is not counted in it. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

export async function streamedReplyRun(
  dir: string,
  earlierTurns: number,
  tokens: number,
  delayMs = 0,
): Promise<RenderRun> {
  const store = SessionStore.create(dir, { clock: systemClock, random: seededRandom(earlierTurns + 1), cwd: dir });
  const provider = new StreamingProvider(replyTokens(tokens), delayMs);
  const approvals = createTuiApprover();
  const agent = new Agent(
    {
      store,
      provider,
      tools: ToolRegistry.create({ interactiveApprover: true }),
      policy: new ApprovalPolicy({ rules: [], yes: false, interactive: true }),
      approver: approvals,
      workspaceRoot: dir,
      systemPrompt: 'bench',
      limits: DEFAULT_LIMITS,
      price: () => ({ costUsdMicros: 1200, priced: true }),
    },
    MODEL,
  );
  const quiet = new AbortController().signal;
  for (let i = 0; i < earlierTurns; i++) {
    const result = await agent.runTurn(
      `earlier question ${i}: how does the store replay a torn tail?`,
      quiet,
      () => {},
    );
    if (result.outcome !== 'done') throw new Error(`bench: earlier turn ${i} ended ${result.outcome}`);
  }
  provider.streamTokens = true;
  const terminal = new NullTerminal();
  const frames = new FrameWriter(terminal as unknown as NodeJS.WriteStream);
  const rows = new RowWriter();
  // Every write, replayed after the measured turn through a writer that scrolls nothing.
  const writes: string[] = [];
  const tee = new Proxy(frames.stream, {
    get(target, property) {
      if (property !== 'write') return Reflect.get(target, property, target) as unknown;
      return (data: string, ...rest: unknown[]): boolean => {
        rows.see(String(data));
        writes.push(String(data));
        return target.write(data, ...(rest as []));
      };
    },
  });
  let crashed: unknown = null;
  const streamed = new StreamedFrames();
  const turns = new TurnController({
    agent,
    nowMs: () => store.now(),
    onCrash: (error) => (crashed = error),
    frames: streamed,
  });
  const instance = render(
    paced(
      <App
        store={store}
        agent={agent}
        approvals={approvals}
        policy={null}
        theme={loadTheme('dark')}
        noColor={false}
        turns={turns}
        size={{ columns: COLUMNS, rows: ROWS }}
        resumeOnOpen={false}
        onQuit={() => {}}
        onCrash={(error) => (crashed = error)}
      />,
      streamed,
    ),
    {
      stdout: tee,
      stdin: new NoKeys() as unknown as NodeJS.ReadStream,
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 30,
    },
  );
  try {
    await settle(200);
    const writesBefore = terminal.writes;
    const bytesBefore = terminal.bytes;
    rows.counting = true;
    const writesFrom = writes.length;
    const ended = new Promise<void>((resolve) => {
      const unsubscribe = turns.subscribe(() => {
        if (!turns.running) {
          unsubscribe();
          resolve();
        }
      });
    });
    collectGarbage();
    const started = process.cpuUsage();
    turns.start('now a long answer, please');
    await ended;
    // The last frame is drawn at once (PacedFrames); a margin for any frame still waiting its slot.
    await settle(80);
    const used = process.cpuUsage(started);
    if (crashed) throw crashed;
    const last = store.tree.get(store.registers.get<{ entryId: string }>('lane.head', 'head')!.entryId);
    if (last?.type !== 'assistant') throw new Error('bench: the streamed turn did not commit a reply');
    return {
      cpuMs: (used.user + used.system) / 1000,
      frames: terminal.writes - writesBefore,
      bytes: terminal.bytes - bytesBefore,
      rowBytes: rows.bytes,
      unscrolledBytes: unscrolledBytes(writes, writesFrom),
      writes: writes.slice(writesFrom),
    };
  } finally {
    turns.dispose();
    instance.unmount();
    store.close();
  }
}
