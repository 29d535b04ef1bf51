import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { costEstimator, readFileCosts, sizeUnder } from './test/support/file-costs';
import { LEAVES_MEMORY_BEHIND, lastInTheirProject, longestFirstInTheirProject } from './test/support/file-order';
import {
  REACT_AS_SHIPPED,
  SHIPPED_RENDERER_SETUP,
  shippedRendererPlugins,
  TRANSFORMED,
} from './test/support/shipped-renderer';
import { filesByTier } from './test/support/tiers';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const tiers = filesByTier(ROOT);
// Each file's measured cost (test/support/file-costs.json), or an estimate from its size.
const costOf = costEstimator(readFileCosts(ROOT), tiers, sizeUnder(ROOT));
// Builds dist/tole.js when stale and bundles the child scripts, once before any file of a tier.
const PROCESS_SETUP = ['test/support/build-test-children.ts'];
// The unit and isolated tiers' own directory, which each file's TMPDIR is made in (test/support/run-tmpdir.ts).
const RUN_TMPDIR = ['test/support/run-tmpdir.ts'];

// No test reaches the user's watchman (checkpoints ask the one WATCHMAN_SOCK names): a test
// that wants one starts its own (test/support/own-watchman.ts) and names its socket.
const ENV = { WATCHMAN_SOCK: '/nonexistent/tole-tests-reach-no-watchman' };

/**
 * vitest's order of projects; in each, the longest files first by the measured table, the fault
 * simulator's shards last (test/support/file-order.ts says why).
 */
class ToleSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const longestFirst = longestFirstInTheirProject(await super.sort(files), (file) =>
      costOf(relative(ROOT, file.moduleId)),
    );
    return lastInTheirProject(longestFirst, LEAVES_MEMORY_BEHIND);
  }
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    sequence: { sequencer: ToleSequencer },
    hookTimeout: 30_000,
    // fast-check's run count for properties that name none: TOLE_FC_RUNS (test/support/fc-runs.ts);
    // the git shims a file's bash calls wrote, removed after it (a worker thread ends with no exit);
    // with TOLE_FILE_CPU_LOG set, each file's CPU and its children's (test/support/file-cpu-log.ts).
    setupFiles: ['test/support/fc-setup.ts', 'test/support/git-shims-removed.ts', 'test/support/file-cpu-log.ts'],
    env: ENV,
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine. Files spend part
    // of their time waiting (on children, fsync, local servers, tole's own timers), so one worker
    // more than the cores keeps them busy: on this 2-core machine three workers took the whole run
    // from 186-188 s to 155 s (two files at once 155 s of the run before; three at once 116 s after).
    maxWorkers: availableParallelism() + 1,
    // The tiers (test/support/tiers.ts says which file goes where): `npm run test:unit` runs the
    // first, `npm test` all of them.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: tiers.unit,
          // Forks, not threads: the code under test starts children (git, bash), and Node starts each
          // with fork(), whose cost grows with the resident memory of the process that calls it. In
          // threads that was vitest's own process, with every worker's heap (1.2-1.8 GB); a fork of
          // the pool holds only its own. On this 2-core machine, alternating, `--project unit`: threads
          // 42.8 s (73.3 s of CPU, 24.1 s of it system), forks 25.9 s (47.4 s, 11.3 s system).
          pool: 'forks',
          isolate: false,
          // TMPDIR is a directory of each file's own in every tier but the screen's (tmpdir-per-file.ts),
          // made in the tier's directory (run-tmpdir.ts): what the files make is spread over the disk.
          setupFiles: ['test/support/tmpdir-per-file.ts'],
          globalSetup: RUN_TMPDIR,
        },
      },
      {
        extends: true,
        // The screen tests mount the renderer that ships (test/support/shipped-renderer.ts): the
        // build's patches of Ink, Yoga and string-width, and its Intl.Segmenter; Ink is loaded as
        // tole's screen loads it, before any file of a worker (ink-as-shipped.ts).
        plugins: shippedRendererPlugins(),
        oxc: REACT_AS_SHIPPED.oxc,
        test: {
          name: 'screen',
          env: { ...ENV, ...REACT_AS_SHIPPED.env },
          include: tiers.screen,
          // Forks for the reason the unit tier gives: `--project screen` threads 40.0 s (60.8 s of
          // CPU), forks 34.7 s (50.8 s).
          pool: 'forks',
          isolate: false,
          // TMPDIR stays tmpdir() here: the frames show temp paths, and a longer one no longer fits
          // the line a test reads (session-picker-filters-and-opens).
          setupFiles: SHIPPED_RENDERER_SETUP,
          server: { deps: { inline: [TRANSFORMED] } },
        },
      },
      {
        extends: true,
        // Files that mock modules, each in a fresh module graph; those that draw see the renderer that ships too.
        plugins: shippedRendererPlugins(),
        oxc: REACT_AS_SHIPPED.oxc,
        test: {
          name: 'isolated',
          env: { ...ENV, ...REACT_AS_SHIPPED.env },
          include: tiers.isolated,
          pool: 'threads',
          setupFiles: ['test/support/tmpdir-per-file.ts', ...SHIPPED_RENDERER_SETUP],
          globalSetup: RUN_TMPDIR,
          server: { deps: { inline: [TRANSFORMED] } },
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: tiers.process,
          pool: 'forks',
          // A fork runs file after file on the modules it imported once, instead of a new process
          // importing them again for each file (60 s of imports in a tier run went down to 16 s);
          // a file that leaves the process changed fails (process-state-kept.ts).
          isolate: false,
          // TMPDIR is a directory of the file's own, removed when it ends (tmpdir-per-file.ts);
          // first, so that the state checked after the file still holds it.
          setupFiles: ['test/support/tmpdir-per-file.ts', 'test/support/process-state-kept.ts'],
          globalSetup: PROCESS_SETUP,
        },
      },
      {
        extends: true,
        // The process files that also mount the screen: forks as above, on the renderer that ships
        // (the screen tier's patches and set-up), so that no file mounts stock Ink.
        plugins: shippedRendererPlugins(),
        oxc: REACT_AS_SHIPPED.oxc,
        test: {
          name: 'process-screen',
          env: { ...ENV, ...REACT_AS_SHIPPED.env },
          include: tiers['process-screen'],
          pool: 'forks',
          isolate: false,
          setupFiles: [
            'test/support/tmpdir-per-file.ts',
            'test/support/process-state-kept.ts',
            ...SHIPPED_RENDERER_SETUP,
          ],
          globalSetup: PROCESS_SETUP,
          server: { deps: { inline: [TRANSFORMED] } },
        },
      },
      {
        extends: true,
        // The process files that would leave state behind in a shared fork (tiers.ts): one fork each.
        test: {
          name: 'process-isolated',
          include: tiers['process-isolated'],
          pool: 'forks',
          setupFiles: ['test/support/tmpdir-per-file.ts'],
          globalSetup: PROCESS_SETUP,
        },
      },
    ],
  },
});
