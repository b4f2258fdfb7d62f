// `npm start`: check dependencies, then build and launch the Electron app, or explain why it cannot.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildIfChanged } from './build-if-changed.mjs';
import { electronBinaryPath } from './electron-binary.mjs';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

/** Runs a Node script with the terminal attached; resolves with its exit code (1 if killed by a signal). */
function runNode(args, env = process.env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The file a package's same-named bin runs (its package.json "exports" hide the bin folder from resolve). */
function packageBin(name) {
  const manifestPath = require.resolve(`${name}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8'));
  return join(dirname(manifestPath), typeof bin === 'string' ? bin : bin[name]);
}

const depsCode = await runNode([join(root, 'scripts', 'ensure-deps.mjs')]);
if (depsCode !== 0) process.exit(depsCode);

const electron = electronBinaryPath();
if (electron === null) {
  console.error(
    [
      '',
      'Loket cannot start: the Electron binary is not installed on this machine',
      process.env.ELECTRON_OVERRIDE_DIST_PATH
        ? `(ELECTRON_OVERRIDE_DIST_PATH=${process.env.ELECTRON_OVERRIDE_DIST_PATH} holds no Electron executable).`
        : '(node_modules/electron/dist is missing: its download during npm install was blocked or failed).',
      '',
      'To get it, run this on a machine that can reach the Electron download site:',
      '  npx install-electron',
      '',
      'Meanwhile you can use Loket in a browser:',
      '  npm run serve',
      '',
    ].join('\n'),
  );
  process.exit(3);
}

// Build only what changed since the last build (nothing, usually), then `electron-vite preview --skipBuild`, run with
// this Node directly: no npx lookup, and no .cmd shim to go through on Windows. ELECTRON_EXEC_PATH makes
// electron-vite launch the binary found above.
const built = buildIfChanged();
if (built !== 0) process.exit(built);
const electronVite = packageBin('electron-vite');
process.exit(await runNode([electronVite, 'preview', '--skipBuild'], { ...process.env, ELECTRON_EXEC_PATH: electron }));
