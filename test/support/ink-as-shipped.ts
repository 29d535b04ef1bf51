/**
 * The screen tier's set-up: Ink is loaded here, before any test file, the way tole's screen loads
 * it (src/tui/run-tui.tsx), with CI and CONTINUOUS_INTEGRATION hidden. Ink decides once, when it
 * loads, whether it runs "in CI", and then draws no frame until unmount. The screen tier shares
 * modules between the files of a worker, so without this whichever file loaded Ink first decided
 * for every later one: under CI=true a file that imports Ink through the harness before run-tui
 * left Ink drawing nothing for run-tui's tests, whose first frame then never came.
 */
import '../../src/tui/frame/ci-env-hide';
import 'ink';
import '../../src/tui/frame/ci-env-restore';
