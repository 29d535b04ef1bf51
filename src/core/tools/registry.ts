import type { z } from 'zod';
import { lazy } from '../lazy';
import { zodNow } from '../zod-on-use';
import type { ToolDefinition } from '../provider/provider';
import type { AnyTool } from './tool';

type ToolRegistrationErrorKind = 'destructive-without-approver' | 'duplicate-name';

/** A host wired its tools wrongly: thrown by `register`, at startup, never during a turn. */
export class ToolRegistrationError extends Error {
  override readonly name = 'ToolRegistrationError';
  constructor(
    readonly kind: ToolRegistrationErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** What `parseCall` makes of a model's tool call: the tool and its checked input, or words for the model. */
type ParsedCall =
  | { readonly ok: true; readonly tool: AnyTool; readonly input: unknown }
  | { readonly ok: false; readonly message: string };

interface ToolRegistryOptions {
  /** True when a person can approve calls with a keypress (the TUI); false headless. */
  readonly interactiveApprover: boolean;
}

interface Registered {
  readonly tool: AnyTool;
  /**
   * The tool as the model sees it, and `{"path": string, "offset"?: integer}` (how the arguments
   * should look, for error messages): derived from the tool's zod schema on first use (a request
   * built, a call parsed), not at registration, so that opening a session builds no schema.
   */
  readonly described: () => { readonly definition: ToolDefinition; readonly signature: string };
}

export class ToolRegistry {
  private constructor(
    private readonly options: ToolRegistryOptions,
    private readonly tools = new Map<string, Registered>(),
    /** Set on a view from `only`: the names it shows (null: every tool). */
    private readonly allowed: ReadonlySet<string> | null = null,
  ) {}

  static create(options: ToolRegistryOptions): ToolRegistry {
    return new ToolRegistry(options);
  }

  /** Adds a tool. Throws `ToolRegistrationError` for a duplicate name, or a Destructive tool nobody can approve. */
  register(tool: AnyTool): void {
    if (this.tools.has(tool.name)) {
      throw new ToolRegistrationError('duplicate-name', `A tool named "${tool.name}" is already registered.`);
    }
    if (tool.declaredRisk === 'Destructive' && !this.options.interactiveApprover) {
      throw new ToolRegistrationError(
        'destructive-without-approver',
        `Tool "${tool.name}" is Destructive and always needs an interactive approval, but no interactive approver ` +
          'is wired (headless mode). Leave it out of the registry, or run with an interactive approver.',
      );
    }
    this.tools.set(tool.name, {
      tool,
      described: lazy(() => {
        const parameters = argumentsSchema(tool);
        return {
          definition: { name: tool.name, description: tool.description, parameters },
          signature: argumentsSignature(parameters),
        };
      }),
    });
  }

  /** Takes a tool out (its MCP server went away): the model is no longer offered it. */
  unregister(name: string): boolean {
    return this.tools.delete(name);
  }

  /**
   * A view of only the tools named (an agent profile's subset): it offers and parses calls of
   * those alone, and follows this registry as tools come and go (MCP servers start late).
   */
  only(names: readonly string[]): ToolRegistry {
    return new ToolRegistry(this.options, this.tools, new Set(names));
  }

  private lookup(name: string): Registered | undefined {
    return this.allowed !== null && !this.allowed.has(name) ? undefined : this.tools.get(name);
  }

  get(name: string): AnyTool | undefined {
    return this.lookup(name)?.tool;
  }

  names(): string[] {
    return [...this.tools.keys()].filter((name) => this.allowed === null || this.allowed.has(name));
  }

  /** Every registered tool, each with whether this registry (an agent profile's view) offers it. */
  listing(): { readonly tool: AnyTool; readonly offered: boolean }[] {
    return [...this.tools.values()].map(({ tool }) => ({
      tool,
      offered: this.allowed === null || this.allowed.has(tool.name),
    }));
  }

  definitions(): ToolDefinition[] {
    return [...this.tools.values()]
      .filter((registered) => this.allowed === null || this.allowed.has(registered.tool.name))
      .map((registered) => registered.described().definition);
  }

  /** Checks a model's call against the tool's schema. Never throws: a bad call becomes a message for the model. */
  parseCall(name: string, rawArguments: string): ParsedCall {
    const registered = this.lookup(name);
    if (!registered) {
      const known = this.names().join(', ') || '(none)';
      return { ok: false, message: `Unknown tool "${name}". Available tools: ${known}.` };
    }
    const { tool } = registered;
    const { signature } = registered.described();
    const json = parseJson(rawArguments);
    if (!json.ok) {
      return {
        ok: false,
        message: `The arguments for ${name} are not valid JSON (${json.reason}). Send one JSON object: ${signature}.`,
      };
    }
    const checked = tool.inputSchema.safeParse(withoutNulls(json.value));
    if (!checked.success) {
      // "" stands for "no arguments": fine for a tool that needs none, never filled in for one that does.
      if (rawArguments.trim() === '')
        return {
          ok: false,
          message: `The call to ${name} came with no arguments. Send one JSON object: ${signature}.`,
        };
      const problems = checked.error.issues.map((issue) => `- ${describeIssue(issue)}`).join('\n');
      return { ok: false, message: `Invalid arguments for ${name}:\n${problems}\nExpected: ${signature}.` };
    }
    return { ok: true, tool, input: checked.data };
  }
}

/** The JSON Schema of a tool's arguments, as the model sees it. */
function argumentsSchema(tool: AnyTool): Record<string, unknown> {
  if (tool.parameters) return { ...tool.parameters };
  const schema = zodNow().toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  if (schema.type !== 'object') {
    throw new Error(`assert: tool ${tool.name} has an input schema that is not an object`);
  }
  return schema;
}

/** `{"path": string, "offset"?: integer}` from a JSON Schema object. */
function argumentsSignature(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields = Object.entries(properties).map(
    ([key, property]) => `"${key}"${required.has(key) ? '' : '?'}: ${typeName(property)}`,
  );
  return `{${fields.join(', ')}}`;
}

function typeName(property: Record<string, unknown>): string {
  if (typeof property.type === 'string') return property.type;
  if (Array.isArray(property.type)) return property.type.join(' | ');
  if (Array.isArray(property.enum)) return property.enum.map((value) => JSON.stringify(value)).join(' | ');
  const options = (property.anyOf ?? property.oneOf) as Record<string, unknown>[] | undefined;
  if (Array.isArray(options)) return options.map(typeName).join(' | ');
  return 'any';
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  // Models send "" for a call without arguments.
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}

/** Models often send `null` for an optional argument they mean to leave out. */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null));
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length === 0 ? 'arguments' : `"${issue.path.map(String).join('.')}"`;
  if (issue.code === 'unrecognized_keys') {
    return `unknown argument${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
  }
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) {
    return `${where}: missing (required, ${issue.expected})`;
  }
  return `${where}: ${issue.message}`;
}
