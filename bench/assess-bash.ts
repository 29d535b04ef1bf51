/**
 * What assessing one bash call costs, and how much of it is parsing: the bash tool's `assess` reads
 * the line three times (the risk classification, the guard check's findings where there is no
 * sandbox, and the git signs the approval box shows), each with its own parse. Measured over the
 * attack corpus's bash commands, long lines made of eight of them each, and lines writing a
 * 2,000-line here-doc (one under the parser's 64 KiB cap, one over it): per command, the whole assess and each part, and the parse alone (what one
 * shared parse would save at most is two parses). CPU time on the main thread, the median of
 * rounds after a warm-up. Run alone with `node --import tsx bench/assess-bash.ts`.
 *
 * Measured (both CPU slots held, load ~4): one parse is 0.002 ms of a corpus command's 0.16 ms
 * assess, 0.014 of 0.23 ms for the long lines, 0.074 of 0.35 ms for the here-doc under the cap;
 * over the cap no parse runs (assess 83 ms, 56 of them the guard check's loose reading). One
 * parse shared by the three readings would save at most two parses, under 0.15 ms a call: it
 * does not pay for the coupling, and the readings keep their own parse.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { classifyCommand } from '../src/core/approval/command-risk';
import { parseShell } from '../src/core/approval/shell/parser';
import { guardDrops } from '../src/core/git-guard-drops';
import { gitReachSign } from '../src/core/git-reach-signs';
import { createBashTool } from '../src/core/tools/builtin/bash';
import { CORPUS } from '../test/adversarial/corpus/corpus';

const ROUNDS = 9;

function corpusCommands(): string[] {
  const fill = (text: string): string =>
    text
      .replaceAll('{OUT}', '/tmp/out')
      .replaceAll('{ID}', 'case')
      .replaceAll('{TOKEN}', 'tok')
      .replaceAll('{WS}', '/work/ws')
      .replaceAll('{HOME}', '/home/u')
      .replaceAll('{SOCK}', '/tmp/sock')
      .replaceAll('{HOSTTMP}', '/tmp/host')
      .replaceAll('{SECRET_DIR}', '/tmp/secret');
  return CORPUS.filter((each) => (each.tool ?? 'bash') === 'bash' && typeof each.args['command'] === 'string').map(
    (each) => fill(each.args['command'] as string),
  );
}

/** A line writing a file of `lines` lines through a here-doc, then adding it with git. */
function hereDoc(lines: number, line: (i: number) => string): string {
  const body = Array.from({ length: lines }, (_, i) => line(i));
  return `mkdir -p src && cat > src/big.ts <<'EOF'\n${body.join('\n')}\nEOF\ngit add src/big.ts && git diff --cached --stat`;
}

/** Median main-thread CPU milliseconds of running `work` over every command, per command. */
function perCommand(commands: readonly string[], work: (command: string) => unknown): number {
  for (const command of commands) work(command);
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.cpuUsage();
    for (const command of commands) work(command);
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000 / commands.length);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

function main(): void {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'tole-assess-bench-')));
  try {
    const bash = createBashTool({ workspaceRoot: root, env: { PATH: '/usr/bin:/bin' } });
    const exists = (): boolean => false;
    const corpus = corpusCommands();
    const long = Array.from({ length: 300 }, (_, i) =>
      Array.from({ length: 8 }, (_, j) => corpus[(i * 8 + j) % corpus.length]!).join('; '),
    );
    const sets: [string, string[]][] = [
      [`corpus (${corpus.length} commands)`, corpus],
      ['long (300 lines of 8 corpus commands)', long],
      // 2,000 lines of 27 characters: 57 KB, under the parser's 64 KiB cap.
      ['here-doc of 2,000 short lines', [hereDoc(2000, (i) => `- item ${String(i).padStart(4, '0')}: $HOME \`x\``)]],
      // 2,000 lines of code: 160 KB, over the cap, so every reading falls back to its loose one.
      [
        'here-doc of 2,000 lines of code',
        [hereDoc(2000, (i) => `export const value${i} = compute(${i}, "text $HOME \`x\` line ${i}") + other[${i}];`)],
      ],
    ];
    const fmt = (ms: number): string => `${ms.toFixed(3)} ms`;
    for (const [name, commands] of sets) {
      const chars = commands.reduce((sum, each) => sum + each.length, 0) / commands.length;
      const assess = perCommand(commands, (command) => bash.assess({ command }));
      const classify = perCommand(commands, (command) => classifyCommand(command, { exists }));
      const drops = perCommand(commands, guardDrops);
      const sign = perCommand(commands, gitReachSign);
      const parse = perCommand(commands, parseShell);
      const signParses = commands.filter((each) => /(^|[^\w.-])git($|[^\w.-])/.test(each)).length / commands.length;
      console.log(
        `${name}, ${Math.round(chars)} chars on average: assess ${fmt(assess)}; classify ${fmt(classify)}, ` +
          `guard findings ${fmt(drops)}, git sign ${fmt(sign)} (parses for ${(signParses * 100).toFixed(0)}% of lines); ` +
          `one parse ${fmt(parse)}`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main();
