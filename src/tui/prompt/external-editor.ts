import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the user's editor left: the prompt's new text, or why there is none. */
export type EditorResult = { readonly text: string } | { readonly error: string };

/**
 * Opens `text` in the user's editor (`$VISUAL`, else `$EDITOR`, else vi) on the terminal, and
 * waits for it: `around` takes the full screen down before and puts it back after. The editor
 * is run by the shell, so `EDITOR="code --wait"` works; the file is a private temporary one,
 * removed after. One newline the editor added at the end is taken off.
 */
export function editInEditor(
  text: string,
  env: NodeJS.ProcessEnv,
  around: { readonly before: () => void; readonly after: () => void },
): EditorResult {
  const editor = env['VISUAL'] || env['EDITOR'] || 'vi';
  const dir = mkdtempSync(join(tmpdir(), 'tole-prompt-'));
  const file = join(dir, 'prompt.md');
  try {
    writeFileSync(file, text, { mode: 0o600 });
    around.before();
    let run: ReturnType<typeof spawnSync>;
    try {
      run = spawnSync('sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit', env });
    } finally {
      around.after();
    }
    if (run.error) return { error: `${editor} could not be started (${run.error.message}): set $EDITOR` };
    if (run.status !== 0)
      return { error: `${editor} exited with ${run.status ?? run.signal}: the prompt is as it was` };
    return { text: readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
