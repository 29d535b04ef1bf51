import { ABORTED, raceAbort } from '../abort';
import type { DiscoveredWindow } from '../provider/context-window';
import type { AgentDeps } from './agent-deps';
import { discoverContextWindow } from './compaction';

type WindowDeps = Pick<AgentDeps, 'compaction' | 'contextWindowTokens' | 'provider'>;

/**
 * The context windows of a session's models: the config's, else what the provider's server
 * reported (asked once per model, one question at a time), with listeners told when one is learned.
 */
export class ContextWindows {
  /** Windows the server reported, per model, for this session (null: it did not say). */
  private readonly windows = new Map<string, DiscoveredWindow | null>();
  /** Servers being asked for a model's window now, and under which signal: one question at a time per model. */
  private readonly asking = new Map<
    string,
    { readonly found: Promise<DiscoveredWindow | null>; readonly signal: AbortSignal }
  >();
  /** Told when a window is learned from the server (a screen shows it). */
  private readonly listeners = new Set<() => void>();

  /** The window as far as it is known now, without asking: undefined until the server was asked for this model. */
  known(deps: WindowDeps, model: string): DiscoveredWindow | null | undefined {
    const fixed = configured(deps);
    if (fixed !== undefined) return { tokens: fixed, source: 'the config' };
    if (!deps.compaction) return null;
    return this.windows.get(model);
  }

  /** The model's window and where it came from: the config, else the server (null: unknown). */
  async of(deps: WindowDeps, model: string, signal: AbortSignal): Promise<DiscoveredWindow | null> {
    const known = this.known(deps, model);
    if (known !== undefined) return known;
    return this.ask(deps, model, signal);
  }

  /** Whether the window would be asked of the server (it is neither configured nor learned yet). */
  unasked(deps: WindowDeps, model: string): boolean {
    if (configured(deps) !== undefined || !deps.compaction) return false;
    return !this.windows.has(model);
  }

  /** Calls `listener` whenever the server has been asked for a model's window. Returns the unsubscribe. */
  onLearned(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Asks the server for the model's window, or joins the question already under way (unless it was stopped). */
  async ask(deps: WindowDeps, model: string, signal: AbortSignal): Promise<DiscoveredWindow | null> {
    let asked = this.asking.get(model);
    if (asked === undefined) {
      const found = discoverContextWindow(deps.provider, model, signal).then((window) => {
        if (!signal.aborted) {
          this.windows.set(model, window);
          for (const listener of this.listeners) listener();
        }
        if (this.asking.get(model)?.found === found) this.asking.delete(model);
        return window;
      });
      asked = { found, signal };
      this.asking.set(model, asked);
    }
    const window = await untilAborted(asked.found, signal);
    // A question stopped with an earlier turn says nothing: this caller asks again.
    if (asked.signal.aborted && !signal.aborted && asked.signal !== signal) return this.ask(deps, model, signal);
    return window;
  }
}

/** The window the config fixes: the compaction settings', else the host's. */
function configured(deps: WindowDeps): number | undefined {
  return deps.compaction?.contextWindowTokens ?? deps.contextWindowTokens;
}

/** Settles as `promise` does, or with null as soon as `signal` aborts (a question another caller started may run on). */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | null> {
  const settled = await raceAbort(promise, signal);
  return settled === ABORTED ? null : settled;
}
