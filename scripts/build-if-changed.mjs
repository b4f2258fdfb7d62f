// Builds the app (electron-vite: main, preload, renderer into out/) only when its inputs changed since the last
// build: `npm start` and `npm run serve` then start in well under a second on an unchanged tree instead of
// rebuilding every time. The inputs are hashed (contents, not times, so a checkout or a copy does not fool it),
// and the hash is kept in out/.build-inputs next to what it built.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const repoRoot = join(import.meta.dirname, '..');
/** Where the hash of the last build's inputs is kept, under out/. */
const STAMP = join('out', '.build-inputs');
/** What the build reads: the three layers, what they import, the build's own configuration. */
const INPUTS = [
  'src-main',
  'src-preload',
  'src-renderer',
  'resources',
  'electron.vite.config.ts',
  'tsconfig.json',
  'package-lock.json',
];
/** The outputs that must exist for a skipped build to be usable (out/main/cli.js: npm run cli and serve, scripts/cli.mjs). */
export const OUTPUTS = ['out/main/index.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html'];

function files(root, path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && e.name !== 'node_modules')
    .flatMap((e) => files(root, relative(root, join(full, e.name))));
}

/** One hash of every input's path and contents. */
export function inputsHash(root = repoRoot) {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => files(root, input)).sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** electron-vite's build, with the terminal attached; its exit code. */
function electronViteBuild(root) {
  const bin = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const result = spawnSync(process.execPath, [bin, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  return result.status ?? 1;
}

/** Whether out/ was built from these very inputs (the hash stored with the last build) and holds what starts. */
function builtFrom(root, hash) {
  const stamp = join(root, STAMP);
  const built = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
  return built === hash && OUTPUTS.every((f) => existsSync(join(root, f)));
}

/** Whether out/ is up to date with the sources: what was built is what the sources say, so it may run instead. */
export function isUpToDate(root = repoRoot) {
  return builtFrom(root, inputsHash(root));
}

/**
 * Builds unless out/ was built from these very inputs and holds what the app starts from; returns the build's exit
 * code (0 when skipped). A failed build leaves the stamp alone, so the next start builds again.
 */
export function buildIfChanged({ force = false, quiet = false, root = repoRoot, build = electronViteBuild } = {}) {
  const hash = inputsHash(root);
  if (!force && builtFrom(root, hash)) {
    if (!quiet) console.error('build: nothing changed since the last build; using out/');
    return 0;
  }
  const code = build(root);
  if (code !== 0) return code;
  writeFileSync(join(root, STAMP), `${hash}\n`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(buildIfChanged({ force: process.argv.includes('--force'), quiet: process.argv.includes('--quiet') }));
}
