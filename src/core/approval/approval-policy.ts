/**
 * What happens to a tool call before anyone is asked:
 * - ReadOnly runs (approved by 'policy');
 * - Write runs when an allow rule, `--yes` or a session allowance covers it, else the user is
 *   asked, or, headless, it is denied with the flag that would allow it;
 * - Destructive is always asked; headless denies it, and no flag or rule can allow it.
 * Only an interactive user's keypress approves a Destructive call: anything else is a bug.
 */
import { findAllowRule, MAX_RULE_CHARS, parseRule, type AllowRule } from './allowlist';
import type { ApprovalRequest, Approver, Decision } from './approver';

export interface ApprovalPolicyOptions {
  /** Parsed rules, or rule texts (parsed here; a bad one throws `AllowRuleError`). */
  readonly rules: readonly (AllowRule | string)[];
  /** `--yes`: approve every Write call. Never a Destructive one. */
  readonly yes: boolean;
  /** Whether a user can be asked (a TUI with a keyboard). */
  readonly interactive: boolean;
}

export type PreDecision = Decision | { readonly ask: true };

export class ApprovalPolicy {
  private readonly rules: readonly AllowRule[];
  private readonly sessionTools = new Set<string>();

  constructor(private readonly options: ApprovalPolicyOptions) {
    this.rules = options.rules.map((rule) => (typeof rule === 'string' ? parseRule(rule) : rule));
  }

  get interactive(): boolean {
    return this.options.interactive;
  }

  /** Decides what it can without asking; `{ ask: true }` means the interactive approver decides. */
  preDecide(request: ApprovalRequest): PreDecision {
    const pre = this.decideWithoutAsking(request);
    if (!('ask' in pre)) this.check(request, pre);
    return pre;
  }

  /** The TUI's "a" key: Write calls of this tool are approved for the rest of the session. */
  allowForSession(tool: string): void {
    this.sessionTools.add(tool);
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
      throw new Error(`assert: Destructive ${request.tool} call ${request.callId} was approved by '${decision.by}'${this.options.interactive ? '' : ' in a headless session'}; only an interactive user may approve it`);
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
    const rule = findAllowRule(this.rules, request);
    if (rule) return { approved: true, by: 'rule', rule: rule.source };
    if (this.options.yes) return { approved: true, by: 'yes' };
    if (this.sessionTools.has(request.tool)) return { approved: true, by: 'session' };
    if (this.options.interactive) return { ask: true };
    return {
      approved: false,
      by: 'headless',
      reason: `${describeCall(request)} needs approval (${request.reason}); to allow it, run again with --allow ${shellQuote(suggestRule(request))} or --yes`,
    };
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
