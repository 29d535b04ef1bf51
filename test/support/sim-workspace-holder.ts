/** A child process that makes a simulator workspace under BASE, says its path and holds on until killed. Usage: sim-workspace-holder.ts BASE */
import { makeWorkspace } from '../sim/sim-workspaces';

process.stdout.write(`${makeWorkspace(process.argv[2]!)}\n`);
setInterval(() => {}, 1 << 30);
