// The entry point of the bundled CLI: one run of rt (run.ts) with the process's own streams.

import { processSinks } from '../io/output.js';
import { runCli } from './run.js';

export { runCli };

const isMain = process.argv[1] !== undefined && !process.env.VITEST;
if (isMain) {
  const streams = processSinks();
  void runCli(process.argv.slice(2), process.cwd(), process.env, streams).then((status) => {
    streams.stdout.flush();
    process.exitCode = status;
  });
}
