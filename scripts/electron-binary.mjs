// Finds the Electron executable without loading the 'electron' package: electron's index.js tries to download
// the binary when it is missing, which cannot work on machines that cannot reach the download site.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The absolute path of the Electron executable if it is actually on disk, else null.
 * Follows electron's own index.js: node_modules/electron/dist/<path.txt>, or <ELECTRON_OVERRIDE_DIST_PATH>/<path.txt>
 * (path.txt defaulting to 'electron') when that variable is set.
 * @returns {string | null}
 */
export function electronBinaryPath() {
  let packageDir;
  try {
    // Resolving package.json only locates the package; it runs none of its code.
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    packageDir = null;
  }
  const pathFile = packageDir && join(packageDir, 'path.txt');
  const executable = pathFile && existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : null;

  const overrideDist = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const candidate = overrideDist
    ? join(overrideDist, executable || 'electron')
    : packageDir && executable
      ? join(packageDir, 'dist', executable)
      : null;
  return candidate && existsSync(candidate) ? candidate : null;
}
