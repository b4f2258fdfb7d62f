// README's quick start (npm start, npm run serve, npm run cli, npm test) on a fresh machine: the Debian packages
// that npm ci builds against come first (scripts/ensure-deps.mjs). Run against stand-ins for dpkg-query, apt-get,
// sudo and npm on PATH that write down what they were asked, in a copy of the two scripts: nothing is installed.
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { systemPackagesPlan, type SystemPackagesPlan } from '../../scripts/ensure-deps.mjs';
import { tempDir } from './helpers/loket';

const ROOT = join(import.meta.dirname, '..', '..');
const BUILD = ['python3', 'make', 'g++'];
const KEYCHAIN = ['libsecret-1-dev'];
const TESTS = ['chromium', 'gnome-keyring', 'dbus-daemon', 'dbus-bin', 'dbus-x11', 'libsecret-tools', 'postgresql'];
const command = (groups: string[]) => `bash scripts/install-system-deps.sh ${groups.join(' ')}`;
const linesOf = (plan: SystemPackagesPlan): string[] => ('lines' in plan ? plan.lines : []);

describe('what to do about missing Debian packages', () => {
  const none = { build: [], keychain: [], tests: [] };

  it('nothing missing: nothing to do', () => {
    expect(systemPackagesPlan({ missing: none, required: ['build'], privilege: null, command })).toEqual({
      action: 'none',
    });
  });

  it('as root, or with a sudo that asks no password: installs every group with something missing', () => {
    const missing = { ...none, build: ['g++'], keychain: KEYCHAIN };
    for (const privilege of ['root', 'sudo'] as const)
      expect(systemPackagesPlan({ missing, required: ['build'], privilege, command })).toEqual({
        action: 'install',
        groups: ['build', 'keychain'],
        via: privilege,
      });
  });

  it('npm test without a way to install them: stops and names the exact command', () => {
    const plan = systemPackagesPlan({
      missing: { ...none, tests: ['chromium'] },
      required: ['build', 'keychain', 'tests'],
      privilege: null,
      command,
    });
    expect(plan.action).toBe('stop');
    expect(linesOf(plan)).toContain('  sudo bash scripts/install-system-deps.sh tests');
    expect(linesOf(plan).join('\n')).toContain('missing chromium: the tests need them');
  });

  it('npm start, serve or cli with only libsecret-1-dev missing: goes on (training mode) and says how to get the keychain', () => {
    const plan = systemPackagesPlan({
      missing: { build: [], keychain: KEYCHAIN },
      required: ['build'],
      privilege: null,
      command,
    });
    expect(plan.action).toBe('warn');
    const text = linesOf(plan).join('\n');
    expect(text).toContain('missing libsecret-1-dev: npm ci builds keytar, the OS keychain module, against it');
    expect(text).toContain('training mode only');
    expect(text).toContain('sudo bash scripts/install-system-deps.sh keychain && npm install && npm rebuild keytar');
  });

  it('npm start, serve or cli with a compiler missing: stops (better-sqlite3 cannot be built)', () => {
    const plan = systemPackagesPlan({
      missing: { build: ['g++'], keychain: KEYCHAIN },
      required: ['build'],
      privilege: null,
      command,
    });
    expect(plan.action).toBe('stop');
    expect(linesOf(plan)).toContain('  sudo bash scripts/install-system-deps.sh build keychain');
  });
});

/** A copy of the two scripts and a lock file, with stand-ins for the system's tools first on PATH. */
function fakeMachine(installed: string[], options: { aptFails?: boolean } = {}) {
  const dir = tempDir('loket-ensure-deps-');
  const repo = join(dir.path, 'repo');
  const bin = join(dir.path, 'bin');
  const journal = join(dir.path, 'journal');
  const dpkgDb = join(dir.path, 'dpkg-db');
  mkdirSync(join(repo, 'scripts'), { recursive: true });
  mkdirSync(bin);
  for (const f of ['ensure-deps.mjs', 'install-system-deps.sh'])
    copyFileSync(join(ROOT, 'scripts', f), join(repo, 'scripts', f));
  const lock = { lockfileVersion: 3, packages: { '': {}, 'node_modules/some-lib': { version: '1.0.0' } } };
  writeFileSync(join(repo, 'package-lock.json'), JSON.stringify(lock));
  writeFileSync(dpkgDb, installed.map((p) => `${p}\n`).join(''));
  writeFileSync(journal, '');
  const tool = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  // dpkg-query -W -f='${Status}' PACKAGE
  tool('dpkg-query', `grep -qx "$3" "${dpkgDb}" && printf 'install ok installed' || exit 1`);
  tool(
    'apt-get',
    `echo "apt-get $*" >> "${journal}"
[ "$1" = install ] || exit 0
${options.aptFails ? 'exit 100' : ''}
for a in "$@"; do case "$a" in -*|install) ;; *) echo "$a" >> "${dpkgDb}" ;; esac; done`,
  );
  tool('sudo', `echo "sudo $*" >> "${journal}"\n[ "$1" = -n ] && shift\nexec "$@"`);
  // npm ci: "installs" what the lock names, keytar with it (the packages it builds against are in place).
  tool(
    'npm',
    `echo "npm $*" >> "${journal}"
mkdir -p node_modules/keytar && cp package-lock.json node_modules/.package-lock.json && echo '{}' > node_modules/keytar/package.json`,
  );
  return {
    repo,
    remove: dir.remove,
    journal: () => readFileSync(journal, 'utf8').trim().split('\n').filter(Boolean),
    run: (...args: string[]) =>
      promisify(execFile)(process.execPath, ['scripts/ensure-deps.mjs', ...args], {
        cwd: repo,
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, INIT_CWD: repo },
        encoding: 'utf8',
      }).then(
        (r) => ({ code: 0, stderr: r.stderr }),
        (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
      ),
  };
}

describe('on a fresh machine (stand-ins for apt and npm)', () => {
  let machine: ReturnType<typeof fakeMachine> | undefined;
  afterEach(() => machine?.remove());

  it('npm test installs the Debian packages before npm ci builds against them', async () => {
    machine = fakeMachine(['python3']);
    const result = await machine.run('--for-tests');
    expect(result.code, result.stderr).toBe(0);
    const journal = machine.journal().filter((line) => !line.startsWith('sudo '));
    const install = journal.findIndex((line) => line.startsWith('apt-get install'));
    const npmCi = journal.findIndex((line) => line.startsWith('npm ci'));
    expect(install).toBeGreaterThanOrEqual(0);
    expect(npmCi).toBeGreaterThan(install);
    for (const p of [...BUILD.slice(1), ...KEYCHAIN, ...TESTS]) expect(journal[install]).toContain(` ${p}`);
    expect(journal[install]).not.toContain('python3');
  });

  it('npm start, serve and cli install what npm ci builds against first, not the tests’ packages', async () => {
    machine = fakeMachine([]);
    const result = await machine.run('--quiet');
    expect(result.code, result.stderr).toBe(0);
    const journal = machine.journal().filter((line) => !line.startsWith('sudo '));
    const install = journal.find((line) => line.startsWith('apt-get install'));
    expect(install).toMatch(/ python3 make g\+\+ libsecret-1-dev$/);
    expect(journal.at(-1)).toMatch(/^npm ci/);
  });

  it('npm test stops before npm ci when the packages could not be installed, and names the command', async () => {
    machine = fakeMachine([...BUILD, ...KEYCHAIN], { aptFails: true });
    const result = await machine.run('--for-tests');
    expect(result.code).toBe(1);
    expect(machine.journal().some((line) => line.startsWith('npm '))).toBe(false);
    expect(result.stderr).toContain(`missing ${TESTS.join(' ')}: the tests need them`);
    expect(result.stderr).toContain('sudo bash scripts/install-system-deps.sh tests');
    expect(existsSync(join(machine.repo, 'node_modules'))).toBe(false);
  });

  it('npm start goes on without libsecret-1-dev (keytar is optional) and says how to get the keychain', async () => {
    machine = fakeMachine(BUILD, { aptFails: true });
    const result = await machine.run('--quiet');
    expect(result.code, result.stderr).toBe(0);
    expect(machine.journal().at(-1)).toMatch(/^npm ci/);
    expect(result.stderr).toContain('missing libsecret-1-dev:');
    expect(result.stderr).toContain('training mode only');
  });

  it('with npm dependencies in place, npm start looks at no system package', async () => {
    machine = fakeMachine([]);
    mkdirSync(join(machine.repo, 'node_modules', 'keytar'), { recursive: true });
    copyFileSync(join(machine.repo, 'package-lock.json'), join(machine.repo, 'node_modules', '.package-lock.json'));
    const result = await machine.run('--quiet');
    expect(result.code, result.stderr).toBe(0);
    expect(machine.journal()).toEqual([]);
  });
});
