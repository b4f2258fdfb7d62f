#!/usr/bin/env node
// Makes README's quick-start commands work on a fresh clone. In this order:
//   1. the Debian packages that `npm ci` builds against (better-sqlite3 needs python3, make and g++; keytar, the
//      OS keychain, needs libsecret-1-dev), and with --for-tests those the tests need: checked (and installed as
//      root, or with a sudo that needs no password) BEFORE anything is built against them;
//   2. npm dependencies, when they are missing or older than package-lock.json (npm ci).
// Without --for-tests (npm start, npm run serve, npm run cli) the packages are looked at only when npm ci is due,
// and a missing libsecret-1-dev does not stop anything: keytar is optional, Loket then runs in training mode only.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SYSTEM_DEPS = join(root, 'scripts', 'install-system-deps.sh');

/** The groups of scripts/install-system-deps.sh, and what is lost without each. */
export const GROUPS = {
  build: 'npm ci builds better-sqlite3 (the order log) from source with them',
  keychain: 'npm ci builds keytar, the OS keychain module, against it',
  tests: 'the tests need them (the browser they drive, a private keyring, a throwaway PostgreSQL)',
};

/**
 * What to do about missing Debian packages. `missing` maps each group to its missing packages; `required` names
 * the groups that cannot be done without; `privilege` is how they could be installed here ('root', 'sudo': a sudo
 * that asks no password) or null. Returns the groups to install and how, or what to say and whether to stop.
 */
export function systemPackagesPlan({ missing, required, privilege, command }) {
  const groups = Object.keys(missing).filter((g) => missing[g].length > 0);
  if (groups.length === 0) return { action: 'none' };
  if (privilege) return { action: 'install', groups, via: privilege };
  const blocking = groups.filter((g) => required.includes(g));
  const lines = groups.map((g) => `missing ${missing[g].join(' ')}: ${GROUPS[g]}`);
  if (blocking.length > 0)
    return {
      action: 'stop',
      lines: [...lines, 'install them as root, then run the same command again:', `  sudo ${command(groups)}`],
    };
  // Only the keychain's package is missing: npm ci leaves keytar out, and Loket runs in training mode.
  return {
    action: 'warn',
    lines: [
      ...lines,
      'Loket will run in training mode only (going live keeps the credentials in the OS keychain). For the keychain:',
      `  sudo ${command(groups)} && npm install && npm rebuild keytar`,
    ],
  };
}

/** The checks and installs above, as the command line asks (`--quiet`, `--for-tests`); exits when they fail. */
export function ensureDeps(argv = process.argv.slice(2)) {
  const args = new Set(argv);
  const forTests = args.has('--for-tests');
  const say = (line) => console.error(`[loket] ${line}`);
  const info = (line) => args.has('--quiet') || say(line);

  const npmDue = !upToDate();
  if (forTests || npmDue) {
    const groups = forTests ? ['build', 'keychain', 'tests'] : ['build', 'keychain'];
    if (!ensureSystemPackages(groups, forTests ? groups : ['build'], say, info)) process.exit(1);
  }

  if (npmDue) {
    say('installing npm dependencies (npm ci) ...');
    // The Electron binary comes from a download site our CI cannot reach; `npm start` explains how to get it.
    const code = run('npm', ['ci', '--no-audit', '--no-fund'], {
      ELECTRON_SKIP_BINARY_DOWNLOAD: process.env.ELECTRON_SKIP_BINARY_DOWNLOAD ?? '1',
    });
    if (code !== 0) process.exit(code);
  }
  if (!existsSync(join(root, 'node_modules', 'keytar', 'package.json'))) {
    // npm leaves an optional dependency out when its build fails, and `npm rebuild` then finds nothing to build.
    const fix = 'For the keychain, install libsecret-1-dev, then run: npm install && npm rebuild keytar';
    if (forTests) {
      say(`keytar (the OS keychain module) is not installed, and the keychain's tests need it. ${fix}`);
      process.exit(1);
    }
    if (npmDue) say(`keytar (the OS keychain module) could not be built, so Loket runs in training mode only. ${fix}`);
  }
  info('dependencies are in place');
}

function run(command, commandArgs, env = {}) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

/**
 * Does node_modules hold what package-lock.json names? Compared by content (each package's version), not by file
 * times: a checkout or a `git restore` of an unchanged lock file must not wipe node_modules under running tests.
 * Optional packages npm did not install (other platforms' builds; keytar where it cannot be built) do not count.
 */
function upToDate() {
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return false;
  try {
    const want = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
    const have = JSON.parse(readFileSync(installed, 'utf8')).packages ?? {};
    return Object.entries(want).every(
      ([path, pkg]) => path === '' || pkg.link || have[path]?.version === pkg.version || (pkg.optional && !have[path]),
    );
  } catch {
    return false;
  }
}

/** Each group's missing packages; null when this is not a Debian/Ubuntu system (nothing can be checked). */
function missingPackages(groups) {
  const missing = {};
  for (const group of groups) {
    const check = spawnSync('bash', [SYSTEM_DEPS, '--check', group], { cwd: root, encoding: 'utf8' });
    if (check.status === 3) return null;
    if (check.status !== 0 && check.status !== 1) throw new Error(`${SYSTEM_DEPS} --check ${group}: ${check.stderr}`);
    missing[group] = check.stdout.split('\n').filter(Boolean);
  }
  return missing;
}

/** 'root', 'sudo' when sudo works without asking for a password, else null. */
function installPrivilege() {
  if (process.getuid?.() === 0) return 'root';
  const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  return sudo.status === 0 ? 'sudo' : null;
}

/** The packages of `groups` in place (installed now if need be and possible); false when a required one is not. */
function ensureSystemPackages(groups, required, say, info) {
  let missing = missingPackages(groups);
  if (missing === null) {
    info(
      'not a Debian/Ubuntu system: the packages of scripts/install-system-deps.sh are not checked. npm ci needs ' +
        "python3, make and a C++ compiler (better-sqlite3), and libsecret's development files for the keychain (keytar).",
    );
    return true;
  }
  const where = relative(process.env.INIT_CWD ?? process.cwd(), SYSTEM_DEPS) || SYSTEM_DEPS;
  const command = (g) => `bash ${where.includes(' ') ? JSON.stringify(where) : where} ${g.join(' ')}`;
  let plan = systemPackagesPlan({ missing, required, privilege: installPrivilege(), command });
  if (plan.action === 'install') {
    say(`installing Debian packages first: ${plan.groups.flatMap((g) => missing[g]).join(' ')} ...`);
    const [bin, binArgs] = plan.via === 'root' ? ['bash', []] : ['sudo', ['-n', 'bash']];
    const code = run(bin, [...binArgs, SYSTEM_DEPS, ...plan.groups]);
    if (code !== 0) say(`installing them failed (exit ${code})`);
    missing = missingPackages(groups) ?? {};
    plan = systemPackagesPlan({ missing, required, privilege: null, command });
  }
  if (plan.action === 'none' || plan.action === 'install') return true;
  for (const line of plan.lines) say(line);
  return plan.action === 'warn';
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(fileURLToPath(import.meta.url))) ensureDeps();
