// `npm run cli -- <command>` and `npm run serve`: Loket's command line, started from the built bundle
// (out/main/cli.js) with plain Node when it was built from the sources as they are now (the hash that
// scripts/build-if-changed.mjs keeps with the build), instead of transpiling the TypeScript at every start.
// - `serve` builds first when the sources changed (it serves the built screens anyway), then runs the bundle.
// - any other command runs the bundle when it is up to date, else the sources under tsx, as before: a command
//   after an edit costs tsx's start rather than a whole build.
// One process for the dependency check, the build check and the command (each was a Node start of its own). The
// command's arguments follow this script's name, as they followed src-main/cli.ts's: process.argv reads the same.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfChanged, isUpToDate } from './build-if-changed.mjs';
import { ensureDeps } from './ensure-deps.mjs';

const root = join(import.meta.dirname, '..');

ensureDeps(['--quiet']);
let built;
if (process.argv[2] === 'serve') {
  const code = buildIfChanged({ quiet: true });
  if (code !== 0) process.exit(code);
  built = true;
} else {
  built = isUpToDate();
}
if (built) {
  await import(pathToFileURL(join(root, 'out', 'main', 'cli.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src-main', 'cli.ts')).href);
}
