import type { ApprovalRequest } from '../approval/approver';
import type { ChangePreview } from '../approval/change-preview';
import { assessCall, type AnyTool } from '../tools/tool';

/** The approval request for a parsed call; a tool whose assess or subject throws fails the call, not the turn. */
export function requestFor(
  tool: AnyTool,
  input: unknown,
  callId: string,
  resolvedSubject?: string,
): { ok: true; request: ApprovalRequest } | { ok: false; message: string } {
  try {
    const assessment = assessCall(tool, input);
    const flags = {
      ...(assessment.opaque ? { opaque: true } : {}),
      ...(assessment.outsideSandbox ? { outsideSandbox: true } : {}),
    };
    return {
      ok: true,
      request: {
        callId,
        tool: tool.name,
        subject: resolvedSubject ?? tool.subject(input),
        input,
        risk: assessment.risk,
        reason: assessment.reason,
        ...flags,
      },
    };
  } catch (error) {
    return {
      ok: false,
      message: `tool ${tool.name} could not assess the call: ${(error as Error)?.message ?? String(error)}`,
    };
  }
}

/** What a guarded tool records with its intent (`prepare`); a throw fails the call, not the turn. Others prepare nothing. */
export async function prepareCall(
  tool: AnyTool,
  input: unknown,
  context: { readonly workspaceRoot: string; readonly signal: AbortSignal; readonly callId: string },
): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  if (!tool.prepare) return { ok: true, value: undefined };
  try {
    return { ok: true, value: await tool.prepare(input, context) };
  } catch (error) {
    return { ok: false, message: (error as Error)?.message ?? String(error) };
  }
}

/** The subject with the call's path resolved (`Tool.resolvedSubject`), or undefined for a tool that names none. */
export async function resolvedSubjectOf(
  tool: AnyTool,
  input: unknown,
  workspaceRoot: string,
): Promise<{ ok: true; subject: string | undefined } | { ok: false; message: string }> {
  if (!tool.resolvedSubject) return { ok: true, subject: undefined };
  try {
    return { ok: true, subject: await tool.resolvedSubject(input, workspaceRoot) };
  } catch (error) {
    return {
      ok: false,
      message: `tool ${tool.name} could not resolve the call's path: ${(error as Error)?.message ?? String(error)}`,
    };
  }
}

/** What the call will change, for the approval box (`Tool.preview`); a preview that throws says why instead. */
export async function previewOf(
  tool: AnyTool,
  input: unknown,
  workspaceRoot: string,
): Promise<ChangePreview | undefined> {
  if (!tool.preview) return undefined;
  try {
    return await tool.preview(input, workspaceRoot);
  } catch (error) {
    return { kind: 'unreadable', why: `no preview: ${(error as Error)?.message ?? String(error)}` };
  }
}
