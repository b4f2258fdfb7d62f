#!/usr/bin/env node
// Makes README's quick-start commands work on a fresh clone: installs npm dependencies when they are
// missing or older than package-lock.json, and (with --for-tests) the Debian packages the tests need.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const say = (line) => args.has('--quiet') || console.error(`[loket] ${line}`);

function run(command, commandArgs, env = {}) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

const installed = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');

/**
 * Does node_modules hold what package-lock.json names? Compared by content (each package's version), not by file
 * times: a checkout or a `git restore` of an unchanged lock file must not wipe node_modules under running tests.
 * Optional packages for other platforms are in the lock but never installed; they do not count.
 */
function upToDate() {
  if (!existsSync(installed)) return false;
  try {
    const want = JSON.parse(readFileSync(lock, 'utf8')).packages ?? {};
    const have = JSON.parse(readFileSync(installed, 'utf8')).packages ?? {};
    return Object.entries(want).every(
      ([path, pkg]) => path === '' || pkg.link || have[path]?.version === pkg.version || (pkg.optional && !have[path]),
    );
  } catch {
    return false;
  }
}

if (!upToDate()) {
  console.error('[loket] installing npm dependencies (npm ci) ...');
  // The Electron binary comes from a download site our CI cannot reach; `npm start` explains how to get it.
  const code = run('npm', ['ci', '--no-audit', '--no-fund'], {
    ELECTRON_SKIP_BINARY_DOWNLOAD: process.env.ELECTRON_SKIP_BINARY_DOWNLOAD ?? '1',
  });
  if (code !== 0) process.exit(code);
}

if (args.has('--for-tests')) {
  const missing = spawnSync('bash', [join(root, 'scripts/install-system-deps.sh'), '--check'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (missing.status !== 0) {
    const canInstall = process.getuid?.() === 0;
    if (!canInstall) {
      console.error(
        `[loket] the tests need Debian packages that are missing:\n${missing.stdout}\n[loket] install them with: sudo scripts/install-system-deps.sh`,
      );
      process.exit(1);
    }
    say('installing the Debian packages the tests need ...');
    const code = run('bash', [join(root, 'scripts/install-system-deps.sh')]);
    if (code !== 0) process.exit(code);
  }
}
say('dependencies are in place');
