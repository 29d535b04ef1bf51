/**
 * `--allow` rules: `TOOL` (every call of that tool) or `TOOL:GLOB` (calls whose whole subject
 * matches GLOB; `*` is any run of characters, `?` one character). `*` as TOOL is any tool.
 *
 * A rule never approves a Destructive call, whatever it says (`bash:*`, `*`).
 * For shell tools a glob wildcard does not match shell syntax (`; & | < > ( ) $ \``, newline),
 * so `bash:git status*` allows `git status --short` but not `git status; npm publish`.
 * For other tools a rule never matches a subject with a `..` path segment.
 */
import type { ApprovalRequest } from './approver';

export interface AllowRule {
  /** The rule as the user wrote it, for messages and decisions. */
  readonly source: string;
  /** A tool name, or `*` for any tool. */
  readonly tool: string;
  /** Absent: every call of the tool. */
  readonly glob?: string;
}

export class AllowRuleError extends Error {
  readonly kind = 'bad-allow-rule';

  constructor(
    readonly rule: string,
    detail: string,
  ) {
    super(`bad allow rule ${JSON.stringify(rule)}: ${detail}`);
    this.name = 'AllowRuleError';
  }
}

/** Tools whose subject is a shell command line. */
export const SHELL_SUBJECT_TOOLS: readonly string[] = ['bash'];

const TOOL_NAME = /^(?:\*|[A-Za-z][A-Za-z0-9_.-]*)$/;
export const MAX_RULE_CHARS = 1_000;

/** Parses one rule; throws `AllowRuleError` saying what is wrong and how to write it. */
export function parseRule(text: string, knownTools?: readonly string[]): AllowRule {
  const fail = (detail: string): never => {
    throw new AllowRuleError(text, detail);
  };
  if (text.trim() === '') fail("it is empty; write TOOL or TOOL:GLOB, e.g. 'bash:npm test'");
  if (text.length > MAX_RULE_CHARS) fail(`it is longer than ${MAX_RULE_CHARS} characters`);
  if (/[\x00-\x1f\x7f]/.test(text)) fail('it contains a control character (a newline or a tab)');
  const colon = text.indexOf(':');
  const tool = colon < 0 ? text : text.slice(0, colon);
  if (tool === '') fail(`the tool name before ':' is missing; write TOOL:GLOB, e.g. 'bash:${text.slice(colon + 1)}'`);
  if (!TOOL_NAME.test(tool))
    fail(`${JSON.stringify(tool)} is not a tool name (letters, digits, '_', '-', '.'; or '*')`);
  if (knownTools && tool !== '*' && !knownTools.includes(tool))
    fail(`there is no tool named ${JSON.stringify(tool)}; known tools: ${knownTools.join(', ')}`);
  if (colon < 0) return { source: text, tool };
  const glob = text.slice(colon + 1);
  if (glob === '') fail(`nothing follows ':'; write '${tool}' to allow every ${tool} call, or '${tool}:GLOB'`);
  return { source: text, tool, glob };
}

/** Whether the rule covers the request's tool and subject; says nothing about its risk. */
export function ruleMatches(rule: AllowRule, request: Pick<ApprovalRequest, 'tool' | 'subject'>): boolean {
  if (rule.tool !== '*' && rule.tool !== request.tool) return false;
  if (rule.glob === undefined) return true;
  const shell = SHELL_SUBJECT_TOOLS.includes(request.tool);
  if (!shell && /(^|[/\\])\.\.([/\\]|$)/.test(request.subject)) return false;
  return globToRegExp(rule.glob, shell).test(request.subject);
}

/** The first rule that approves the request: none ever does for a Destructive one. */
export function findAllowRule(rules: readonly AllowRule[], request: ApprovalRequest): AllowRule | undefined {
  if (request.risk === 'Destructive') return undefined;
  return rules.find((rule) => ruleMatches(rule, request));
}

/** A rule that names this very call: its tool, and its whole subject written out with no wildcard. */
export function findExactRule(rules: readonly AllowRule[], request: ApprovalRequest): AllowRule | undefined {
  if (request.risk === 'Destructive') return undefined;
  return rules.find((rule) => rule.tool === request.tool && rule.glob === request.subject && !/[*?]/.test(rule.glob));
}

function globToRegExp(glob: string, shell: boolean): RegExp {
  const any = shell ? '[^;&|<>()$`\\n\\r]' : '[\\s\\S]';
  let source = '';
  for (const c of glob) {
    if (c === '*') source += `${any}*`;
    else if (c === '?') source += any;
    else source += c.replace(/[.+^${}()|[\]\\*?]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
