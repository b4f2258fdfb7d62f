// README's quick start on a machine where keytar (the OS keychain module) cannot be built: a clean clone of this
// repository's HEAD (committed work only), with a pkg-config first on PATH that refuses libsecret-1 as on a machine
// without libsecret-1-dev, runs `npm run serve -- --port 0` exactly as a newcomer would. That installs the npm
// dependencies (npm ci, from npm's cache: npm_config_offline, no network), builds and starts browser mode; the
// cashier page must be served, Loket must run in training mode, and the keychain must be reported unavailable with
// the fix, by the CLI and the manager's view. It builds better-sqlite3 from source like a real first install: a few
// minutes (README: Scripts). CI has run npm ci before the tests, so npm's cache holds every package.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/loket';

const ROOT = join(import.meta.dirname, '..', '..');
/** npm ci (better-sqlite3 compiled from source), the build, the start: about 2 minutes alone on 2 cores. */
const BUDGET_MS = 15 * 60_000;
/** The clone before, the clean-up after. */
const HOOK_MS = 5 * 60_000;

/** Why this cannot run here, or undefined: it needs git and a git checkout to clone. */
function cannotRun(): string | undefined {
  const git = spawnSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
  if (git.error) return 'git is not installed';
  if (git.status !== 0) return `${ROOT} is not a git checkout`;
  return undefined;
}
const why = cannotRun();

interface Served {
  child: ChildProcess;
  cashierUrl: string;
  stdout: string;
  stderr: string;
}

/** `npm run serve -- --port 0` in `cwd`; resolves once it prints the cashier URL. */
function serve(cwd: string, env: NodeJS.ProcessEnv): Promise<Served> {
  // Its own process group: npm, the shell and Node under it are stopped together, and nothing else.
  const child = spawn('npm', ['run', 'serve', '--', '--port', '0'], { cwd, env, detached: true });
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const m = /^cashier: (\S+)$/m.exec(stdout);
      // What it prints after the cashier's URL may come in a later chunk: stdout and stderr are read as they grow.
      if (m)
        resolve({
          child,
          cashierUrl: m[1]!,
          get stdout() {
            return stdout;
          },
          get stderr() {
            return stderr;
          },
        });
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      reject(new Error(`npm run serve ended (${signal ?? `exit ${code}`}) before serving:\n${stdout}\n${stderr}`)),
    );
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

describe.skipIf(why !== undefined)(
  `a clean clone where keytar cannot be built${why ? ` (cannot run: ${why})` : ''}`,
  () => {
    const dir = tempDir('loket-fresh-clone-');
    const repo = join(dir.path, 'repo');
    const data = join(dir.path, 'data');
    let env: NodeJS.ProcessEnv;
    let served: Served | undefined;

    beforeAll(() => {
      // The worktree's HEAD, whether on a branch or detached (CI): fetched by name, then checked out.
      const git = (...args: string[]) => {
        const r = spawnSync('git', args, { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
      };
      git('init', '-q', repo);
      git('-C', repo, 'fetch', '-q', '--depth=1', `file://${ROOT}`, 'HEAD');
      git('-C', repo, 'checkout', '-q', 'FETCH_HEAD');

      const bin = join(dir.path, 'bin');
      mkdirSync(bin);
      const realPkgConfig = spawnSync('sh', ['-c', 'command -v pkg-config'], { encoding: 'utf8' }).stdout.trim();
      writeFileSync(
        join(bin, 'pkg-config'),
        [
          '#!/bin/sh',
          "# As on a machine without libsecret-1-dev: keytar's binding.gyp asks pkg-config for libsecret-1.",
          'for a in "$@"; do case "$a" in libsecret-1*)',
          '  echo "Package libsecret-1 was not found in the pkg-config search path." >&2; exit 1;; esac; done',
          realPkgConfig ? `exec ${realPkgConfig} "$@"` : 'exit 1',
          '',
        ].join('\n'),
      );
      chmodSync(join(bin, 'pkg-config'), 0o755);

      env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('LOKET_')));
      Object.assign(env, {
        PATH: `${bin}:${process.env.PATH}`,
        // npm ci from npm's cache only: tests never need the internet.
        npm_config_offline: 'true',
        // Nor do the native modules' prebuilt downloads (prebuild-install does not heed npm's offline mode; where
        // they are reachable, keytar's would skip the build this test is about): build both from source.
        npm_config_build_from_source: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
        LOKET_DATA_DIR: data,
      });
      // Whatever the vitest run put there for its own npm script must not steer the clone's.
      for (const name of Object.keys(env))
        if (/^npm_(lifecycle_|package_|command$|config_local_prefix$)/.test(name)) delete env[name];
    }, HOOK_MS);

    // A whole node_modules to remove: longer than a hook's usual 20 s on a busy machine.
    afterAll(async () => {
      if (served) await stop(served.child);
      await rm(dir.path, { recursive: true, force: true });
    }, HOOK_MS);

    it(
      '`npm run serve` installs (keytar left out), builds and serves the cashier page in training mode',
      async () => {
        served = await serve(repo, env);
        expect(existsSync(join(repo, 'node_modules', 'better-sqlite3', 'package.json'))).toBe(true);
        expect(existsSync(join(repo, 'node_modules', 'keytar'))).toBe(false);
        expect(served.stderr).toContain('keytar (the OS keychain module) could not be built');
        expect(served.stdout).toContain('SANDBOX (training mode');

        const url = new URL(served.cashierUrl);
        const page = await fetch(served.cashierUrl);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="app">');
        const token = new URLSearchParams(url.hash.split('?')[1]).get('token')!;
        const call = async (method: string, args: unknown[]) => {
          const r = await fetch(`${url.origin}/api/call/${method}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ args }),
          });
          return (await r.json()) as { ok: boolean; result: Record<string, unknown> };
        };
        expect((await call('appInfo', [])).result).toMatchObject({ mode: 'sandbox' });
        // The manager's view says the keychain cannot be used, and how to fix it.
        const session = (await call('setupManager', [{ name: 'Bu Sri', pin: '97531864' }])).result.token as string;
        const view = (await call('managerView', [session])).result as {
          keychain: { available: boolean; message: string };
        };
        expect(view.keychain.available).toBe(false);
        expect(view.keychain.message).toContain('keytar');
        expect(view.keychain.message).toContain('libsecret-1-dev');
        // Browser mode keeps its log in the data folder, and says where at start.
        const running = served;
        await expect.poll(() => running.stdout).toContain(`log:     ${join(data, 'loket.log')}`);
        expect(readFileSync(join(data, 'loket.log'), 'utf8')).toContain('[loket] web: serving');
      },
      BUDGET_MS,
    );

    it(
      '`npm run cli -- config show` says the keychain is unavailable, and how to fix it',
      async () => {
        // The previous test installed; on its own, this one installs first, as npm run cli does on a fresh clone.
        const { stdout } = await promisify(execFile)(
          'npm',
          ['run', '--silent', 'cli', '--', 'config', 'show', '--json'],
          {
            cwd: repo,
            env,
            encoding: 'utf8',
            maxBuffer: 16 * 1024 * 1024,
          },
        );
        const shown = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
          keychain: { available: boolean; message: string };
          mode: { gateway: string };
        };
        expect(shown.keychain.available).toBe(false);
        expect(shown.keychain.message).toContain('could not load its keychain module (keytar)');
        expect(shown.keychain.message).toContain(
          'sudo apt install libsecret-1-dev && npm install && npm rebuild keytar',
        );
      },
      BUDGET_MS,
    );
  },
);
