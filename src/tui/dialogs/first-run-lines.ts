import { cellWidth, fit } from '../text/cell-width';
import { fitPath } from '../text/path-fit';
import { keyFor, type Binding } from '../input/keymap';
import type { LocalServer, ProviderSetup } from './provider-setup';
import { seg, truncateLine, wrapLine, type Line } from '../style/styled-line';
import { answering, type FirstRunState } from './use-first-run';

const WHAT_COLUMN = 30;
const NAME_COLUMN = 11;
const ADDRESS_COLUMN = 17;

/** `llama3.1, qwen2.5-coder +3` in the room there is. */
function modelList(models: readonly string[], width: number): string {
  let text = '';
  for (let i = 0; i < models.length; i++) {
    const more = models.length - i - 1;
    const next = `${text}${i > 0 ? ', ' : ''}${models[i]}`;
    if (next.length + (more > 0 ? ` +${more}`.length : 0) > width && i > 0) return `${text} +${models.length - i}`;
    text = next;
  }
  return text;
}

function serverLine(server: LocalServer, selected: boolean, useKey: string, width: number): Line {
  const address = server.baseUrl.replace(/^https?:\/\//, '').replace(/\/v1$/, '');
  const head = [
    seg(selected ? '▸ ' : '  ', 'accentBold'),
    seg(fit(server.name, NAME_COLUMN), selected ? 'strong' : 'text'),
    seg(fit(address, ADDRESS_COLUMN), 'muted'),
  ];
  const room = Math.max(8, width - 2 - NAME_COLUMN - ADDRESS_COLUMN - (selected ? useKey.length + 8 : 0));
  if (server.models === null) return truncateLine([...head, seg('nothing there', 'faint')], width);
  if (server.models.length === 0) return truncateLine([...head, seg('answers, lists no model', 'warn')], width);
  const tail = selected ? [seg(`   ${useKey}`, 'accentBold'), seg(' use it')] : [];
  return truncateLine([...head, seg(modelList(server.models, room), 'ok'), ...tail], width);
}

function serverLines(setup: ProviderSetup, state: FirstRunState, keymap: readonly Binding[], width: number): Line[] {
  const rescan = keyFor('rescan', keymap, 'setup');
  const found = answering(state.servers);
  const none = state.servers !== null && found.length === 0 ? 'none answered' : '';
  const status = state.scanning
    ? 'looking…'
    : [none, rescan ? `${rescan} looks again` : ''].filter((s) => s !== '').join(' · ');
  const lines: Line[] = [
    truncateLine([seg(`Local servers on ${setup.probeHost}`, 'heading'), seg(`   ${status}`, 'faint')], width),
  ];
  if (state.servers === null)
    return [...lines, [seg('  asking Ollama, llama.cpp and LM Studio on their usual ports…', 'muted')]];
  const useKey = keyFor('use-server', keymap, 'setup') ?? '⏎';
  for (const server of state.servers) lines.push(serverLine(server, found[state.index] === server, useKey, width));
  return lines;
}

/**
 * The width of the "looked for" column: the longest place named (config files are paths), with
 * room left for what was found there; at least the usual column, a path cut only past that.
 */
function whatColumn(setup: ProviderSetup, width: number): number {
  const longest = Math.max(0, ...setup.lookedFor.map((l) => cellWidth(l.what)));
  const found = Math.max(0, ...setup.lookedFor.map((l) => cellWidth(l.found)));
  return Math.max(WHAT_COLUMN - 1, Math.min(longest, width - 5 - found));
}

/** The first-run panel: what tole looked for, the local servers it found, and how to set a provider up. */
export function firstRunLines(
  setup: ProviderSetup,
  state: FirstRunState,
  keymap: readonly Binding[],
  width: number,
): Line[] {
  const lines: Line[] = [];
  if (state.missing) {
    lines.push(
      ...wrapLine(
        [seg('tole found no model to talk to. ', 'strong'), seg('Sessions can still be browsed.', 'muted')],
        width,
      ),
    );
    lines.push([], [seg('Looked for', 'heading')]);
    const column = whatColumn(setup, width);
    for (const { what, found } of setup.lookedFor)
      lines.push(
        truncateLine(
          [seg('  ✗ ', 'error'), seg(`${fit(fitPath(what, column), column)} `, 'text'), seg(found, 'muted')],
          width,
        ),
      );
    lines.push([]);
  }
  lines.push(...serverLines(setup, state, keymap, width));
  if (setup.howTo.length > 0) {
    lines.push(
      [],
      [seg(state.missing ? 'Or set one up, and start tole again' : 'Or start tole with another provider', 'heading')],
    );
    // The command is what matters: a note that does not fit is cut, so each way stays one line.
    for (const hint of setup.howTo)
      lines.push(truncateLine([seg('  '), seg(hint.text, 'code'), seg(`   ${hint.note}`, 'faint')], width));
  }
  return lines;
}
