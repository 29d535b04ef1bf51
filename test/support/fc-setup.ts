/** Every test file's setup: a property that names no run count runs TOLE_FC_RUNS cases (fc-runs.ts). */
import fc from 'fast-check';
import { fcRuns } from './fc-runs';

fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: fcRuns() });
