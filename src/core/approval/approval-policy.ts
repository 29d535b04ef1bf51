/**
 * What happens to a tool call before anyone is asked:
 * - ReadOnly runs (approved by 'policy');
 * - Write runs when an allow rule, `--yes` or a session allowance covers it, else the user is
 *   asked, or, headless, it is denied with the flag that would allow it;
 * - Destructive is always asked; headless denies it, and no flag or rule can allow it.
 * Only an interactive user's keypress approves a Destructive call: anything else is a bug.
 * Where no sandbox confines the calls approved without a key, every Write shell command needs a
 * keypress or an allow rule naming that exact command: the classifier cannot enumerate what bash,
 * git and every build tool can be made to do, so only the sandbox makes `--yes`, wide rules and
 * session allowances safe for shell commands. A call that asks to run outside the sandbox always
 * needs a keypress.
 *
 * A command prefix the user allowed at the prompt (`p`, see command-prefix.ts) approves a later
 * shell call only where the sandbox confines what it approves, only when every command of the
 * line starts with the prefix word for word, and never a Destructive call or one that asks to run
 * outside the sandbox: a prefix is a narrow `--yes`, and like it never runs a command unconfined.
 */
import {
  findAllowRule,
  findExactRule,
  MAX_RULE_CHARS,
  parseRule,
  SHELL_SUBJECT_TOOLS,
  type AllowRule,
} from './allowlist';
import type { ApprovalRequest, Approver, Decision } from './approver';
import { prefixCovers, proposePrefix } from './command-prefix';

export interface ApprovalPolicyOptions {
  /** Parsed rules, or rule texts (parsed here; a bad one throws `AllowRuleError`). */
  readonly rules: readonly (AllowRule | string)[];
  /** `--yes`: approve every Write call (a shell command only when a sandbox confines it). Never a Destructive one. */
  readonly yes: boolean;
  /** Whether a user can be asked (a TUI with a keyboard). */
  readonly interactive: boolean;
  /** Whether an OS sandbox confines shell commands approved without a keypress. */
  readonly sandbox?: boolean;
  /** false: the TUI's "a" key approves only the call at hand (the workspace is the home directory, or holds it). */
  readonly sessionAllowance?: boolean;
}

type PreDecision = Decision | { readonly ask: true };

/** What `p` may keep for a request: the prefix to show and confirm, or why none can be kept. */
type PrefixOffer =
  | { readonly ok: true; readonly prefix: readonly string[] }
  | { readonly ok: false; readonly why: string };

type PrefixKept = { readonly ok: true } | { readonly ok: false; readonly why: string };

/** Bound on the prefixes one session keeps (each is a keypress, or a record of one read on resume). */
const MAX_KEPT_PREFIXES = 64;

export class ApprovalPolicy {
  private readonly rules: readonly AllowRule[];
  private readonly sessionTools = new Set<string>();
  /** Command prefixes allowed for the session (`p`), as words, each kept once. */
  private readonly prefixes: (readonly string[])[] = [];

  constructor(private readonly options: ApprovalPolicyOptions) {
    this.rules = options.rules.map((rule) => (typeof rule === 'string' ? parseRule(rule) : rule));
  }

  get interactive(): boolean {
    return this.options.interactive;
  }

  get sandboxed(): boolean {
    return this.options.sandbox === true;
  }

  /** Decides what it can without asking; `{ ask: true }` means the interactive approver decides. */
  preDecide(request: ApprovalRequest): PreDecision {
    const pre = this.decideWithoutAsking(request);
    if (!('ask' in pre)) this.check(request, pre);
    return pre;
  }

  /** Where a shell call approved at the prompt runs, said in the prompt; undefined for other tools. */
  describeRun(request: ApprovalRequest): string | undefined {
    if (!SHELL_SUBJECT_TOOLS.includes(request.tool)) return undefined;
    if (request.outsideSandbox)
      return 'outside the sandbox, with your full access: the model asks for that because the sandbox stopped it';
    if (this.sandboxed)
      return 'approved by a key, it runs unconfined, with your full access (calls run by --yes, a rule or a session allowance run in the sandbox)';
    const opaque = request.opaque ? 'it runs code tole cannot see into, and ' : '';
    return `${opaque}there is no sandbox on this machine: it runs with your full access`;
  }

  /**
   * Whether `a` would do what it says for this request: a later Write call of the tool is approved
   * by the allowance only where nothing before it asks for a key (a shell call needs the sandbox,
   * and a call leaving the sandbox always asks), and not where the workspace holds the home.
   */
  allowOffered(request: ApprovalRequest): boolean {
    if (request.risk !== 'Write' || request.outsideSandbox || this.options.sessionAllowance === false) return false;
    return !SHELL_SUBJECT_TOOLS.includes(request.tool) || this.sandboxed;
  }

  /** The TUI's "a" key: Write calls of this tool are approved for the rest of the session. */
  allowForSession(tool: string): void {
    if (this.options.sessionAllowance === false) return;
    this.sessionTools.add(tool);
  }

  /**
   * The prefix `p` would keep for this request, or why it keeps none: only a Write shell call
   * that stays in the sandbox, only where a sandbox confines what a prefix approves.
   */
  prefixOffer(request: ApprovalRequest): PrefixOffer {
    if (!SHELL_SUBJECT_TOOLS.includes(request.tool)) return { ok: false, why: 'a prefix is for shell commands' };
    if (request.risk === 'Destructive')
      return { ok: false, why: 'the command is Destructive: no prefix ever allows a Destructive command' };
    if (request.outsideSandbox)
      return { ok: false, why: 'it asks to run outside the sandbox, which only a key allows' };
    if (!this.sandboxed)
      return {
        ok: false,
        why: "there is no sandbox on this machine, and a prefix would run the model's later commands unconfined; approve each with y, or allow the exact command (--allow 'bash:COMMAND')",
      };
    if (this.options.sessionAllowance === false)
      return {
        ok: false,
        why: 'the workspace is your home directory (or holds it), so nothing is allowed for the session',
      };
    return proposePrefix(request.subject);
  }

  /** Keeps a prefix `prefixOffer` offered and the user confirmed; false when the policy refuses it. */
  allowPrefix(request: ApprovalRequest, prefix: readonly string[]): boolean {
    return this.keepPrefix(request, prefix).ok;
  }

  /**
   * Keeps `prefix` for the session only when the policy would offer exactly it for `request` now
   * (the same checks as `p`: a Write shell call in the sandbox, a sandbox here, a prefix of a plain
   * command); else says why. Resume keeps the session's prefixes through this, so a record the
   * policy would not have offered is refused, never trusted.
   */
  keepPrefix(request: ApprovalRequest, prefix: readonly string[]): PrefixKept {
    const offer = this.prefixOffer(request);
    if (!offer.ok) return offer;
    if (offer.prefix.join(' ') !== prefix.join(' '))
      return { ok: false, why: `the command's prefix is \`${offer.prefix.join(' ')}\`, not that` };
    if (this.prefixes.some((p) => p.join(' ') === prefix.join(' '))) return { ok: true };
    if (this.prefixes.length >= MAX_KEPT_PREFIXES)
      return { ok: false, why: `a session keeps at most ${MAX_KEPT_PREFIXES} prefixes` };
    this.prefixes.push([...prefix]);
    return { ok: true };
  }

  /** What approves calls without asking, for the status bar: `--yes`, the allow rules, the tools and prefixes allowed for the session. */
  inForce(): {
    readonly yes: boolean;
    readonly rules: readonly string[];
    readonly sessionTools: readonly string[];
    readonly prefixes: readonly string[];
  } {
    return {
      yes: this.options.yes,
      rules: this.rules.map((r) => r.source),
      sessionTools: [...this.sessionTools],
      prefixes: this.prefixes.map((p) => p.join(' ')),
    };
  }

  isAllowedForSession(tool: string): boolean {
    return this.sessionTools.has(tool);
  }

  /**
   * Asserts a decision is one the policy can accept: a Destructive call approved by anything but
   * an interactive user is a bug, so this throws. Returns the decision for chaining.
   */
  check(request: ApprovalRequest, decision: Decision): Decision {
    if (request.risk !== 'Destructive' || !decision.approved) return decision;
    if (decision.by !== 'user' || !this.options.interactive) {
      throw new Error(
        `assert: Destructive ${request.tool} call ${request.callId} was approved by '${decision.by}'${this.options.interactive ? '' : ' in a headless session'}; only an interactive user may approve it`,
      );
    }
    return decision;
  }

  /** preDecide, then the approver when the policy says ask; the result is checked. */
  async decide(request: ApprovalRequest, approver: Approver | undefined, signal: AbortSignal): Promise<Decision> {
    const pre = this.preDecide(request);
    if (!('ask' in pre)) return pre;
    if (!approver) throw new Error('assert: the policy asked, but no interactive approver is wired');
    return this.check(request, await approver.decide(request, signal));
  }

  private decideWithoutAsking(request: ApprovalRequest): PreDecision {
    switch (request.risk) {
      case 'ReadOnly':
        if (request.outsideSandbox) return this.keypressOnly(request, 'it asks to run outside the sandbox', false);
        return { approved: true, by: 'policy' };
      case 'Write':
        return this.decideWrite(request);
      case 'Destructive':
        if (this.options.interactive) return { ask: true };
        return {
          approved: false,
          by: 'headless',
          reason: `${describeCall(request)} is Destructive (${request.reason}); Destructive calls need an interactive keypress, and no flag or --allow rule allows them`,
        };
    }
  }

  private decideWrite(request: ApprovalRequest): PreDecision {
    if (request.outsideSandbox) return this.keypressOnly(request, 'it asks to run outside the sandbox', false);
    if (SHELL_SUBJECT_TOOLS.includes(request.tool) && !this.sandboxed) {
      const exact = findExactRule(this.rules, request);
      if (exact) return { approved: true, by: 'rule', rule: exact.source };
      const what = request.opaque ? 'it runs code tole cannot see into' : 'it is a Write shell command';
      return this.keypressOnly(request, `${what} (${request.reason}) and no sandbox confines it here`, true);
    }
    const rule = findAllowRule(this.rules, request);
    if (rule) return { approved: true, by: 'rule', rule: rule.source };
    if (this.options.yes) return { approved: true, by: 'yes' };
    const prefix = this.prefixFor(request);
    if (prefix) return { approved: true, by: 'prefix', rule: prefix.join(' ') };
    if (this.sessionTools.has(request.tool)) return { approved: true, by: 'session' };
    if (this.options.interactive) return { ask: true };
    return {
      approved: false,
      by: 'headless',
      reason: `${describeCall(request)} needs approval (${request.reason}); to allow it, run again with --allow ${shellQuote(suggestRule(request))} or --yes`,
    };
  }

  /** The allowed prefix covering a Write shell call that the sandbox confines; never one for any other call. */
  private prefixFor(request: ApprovalRequest): readonly string[] | undefined {
    if (!SHELL_SUBJECT_TOOLS.includes(request.tool) || !this.sandboxed) return undefined;
    if (request.risk !== 'Write' || request.outsideSandbox) return undefined;
    return this.prefixes.find((prefix) => prefixCovers(prefix, request.subject));
  }

  /** Asked when a user can be; headless, denied saying what would run it. --yes, wide rules and session allowances do not. */
  private keypressOnly(request: ApprovalRequest, why: string, exactRuleHelps: boolean): PreDecision {
    if (this.options.interactive) return { ask: true };
    const how = exactRuleHelps
      ? `--yes and wide --allow rules do not run it; to allow it, run again with --allow ${shellQuote(suggestRule(request))} (naming the exact command), approve it with a key in the interactive tole, or install bubblewrap so that a sandbox confines it`
      : 'approve it with a key in the interactive tole';
    return { approved: false, by: 'headless', reason: `${describeCall(request)} needs a keypress: ${why}; ${how}` };
  }
}

function describeCall(request: ApprovalRequest): string {
  return `${request.tool} \`${request.subject}\``;
}

/** The narrowest rule that allows this exact call. */
export function suggestRule(request: Pick<ApprovalRequest, 'tool' | 'subject'>): string {
  const rule = `${request.tool}:${request.subject}`;
  const usable = request.subject !== '' && rule.length <= MAX_RULE_CHARS && !/[\x00-\x1f\x7f]/.test(request.subject);
  return usable ? rule : request.tool;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
