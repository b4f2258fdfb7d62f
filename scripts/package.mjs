// `npm run package [-- electron-builder options]`: the installers (Linux AppImage and deb, Windows NSIS; see
// docs/desktop.md). Needs a machine that can reach Electron's downloads (the Electron zip for electron-builder and
// Electron's headers for the native rebuild) and Node >= 22.12 (@electron/rebuild's and Electron 45's engines).
//
//   1. electron-vite build                      out/main, out/preload, out/renderer
//   2. @electron/rebuild better-sqlite3 keytar  native modules built against Electron's ABI, in node_modules
//   3. electron-builder --config scripts/electron-builder.config.mjs [your options]
//                                               asar, *.node unpacked, fuses flipped (scripts/electron-fuses.mjs)
//   4. npm rebuild better-sqlite3 keytar        the Node builds back, so the tests (plain Node) keep working
//
// Step 2 happens only here: never in postinstall, so an ordinary `npm ci` leaves the Node builds the tests need.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
export const NATIVE_MODULES = ['better-sqlite3', 'keytar'];

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/** The file a package's bin runs (package "exports" hide the bin folder from require.resolve). */
function packageBin(name, bin = name) {
  const manifestPath = require.resolve(`${name}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  return join(dirname(manifestPath), typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[bin]);
}

/**
 * The native modules that are not installed. keytar is an optional dependency, so that a machine without libsecret
 * still runs Loket from source in training mode; an installer without it could never keep the gateway's credentials
 * (no keychain), so packaging refuses to go on without it.
 */
export function missingNativeModules(isInstalled = (name) => Boolean(require.resolve(`${name}/package.json`))) {
  return NATIVE_MODULES.filter((name) => {
    try {
      return !isInstalled(name);
    } catch {
      return true;
    }
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();

async function main() {
  const missing = missingNativeModules();
  if (missing.length > 0) {
    console.error(
      `Cannot package: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed (npm leaves keytar out ` +
        "where it cannot be built). Install libsecret's development files and build it, then package again: " +
        'sudo apt install libsecret-1-dev && npm install && npm rebuild keytar',
    );
    process.exit(1);
  }
  const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
  const builderArgs = process.argv.slice(2);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

  console.log('== build');
  await run(process.execPath, [packageBin('electron-vite'), 'build']);

  let failure;
  try {
    console.log(`== native modules for Electron ${electronVersion}: ${NATIVE_MODULES.join(', ')}`);
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({ buildPath: root, electronVersion, onlyModules: NATIVE_MODULES, force: true, mode: 'sequential' });

    console.log('== electron-builder');
    await run(process.execPath, [
      packageBin('electron-builder'),
      '--config',
      'scripts/electron-builder.config.mjs',
      ...builderArgs,
    ]);
  } catch (err) {
    failure = err;
  } finally {
    console.log(`== native modules back for Node ${process.versions.node} (the tests run on Node)`);
    try {
      await run(npm, ['rebuild', ...NATIVE_MODULES], { shell: process.platform === 'win32' });
    } catch (err) {
      console.error(
        `Could not rebuild ${NATIVE_MODULES.join(', ')} for Node: run \`npm rebuild ${NATIVE_MODULES.join(' ')}\`.`,
      );
      failure ??= err;
    }
  }
  if (failure) {
    console.error(String(failure?.message ?? failure));
    process.exit(1);
  }
  console.log('== done: the installers are in release/');
}
