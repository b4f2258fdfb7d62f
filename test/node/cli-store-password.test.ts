// The store book admin's password for `store init` and `store enrol` (docs/store-book.md, docs/cli.md): from a hidden
// prompt on a terminal, from standard input with --password-stdin, or from PGPASSWORD — never needed in the URL, where
// `ps` and the shell's history see it. A password inside the URL still works, with a warning on stderr that names
// the risk (and not the password). The real CLI in a child process against a real PostgreSQL with scram-sha-256
// password authentication; the password is in no output, no file of the data folder and no line of the server's log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runCliOnTerminal } from './helpers/cli-child';
import { tempDir } from './helpers/loket';
import { PG_MISSING, startPgCluster, type PgCluster } from './helpers/pg-cluster';

const LONG = 90_000;

describe.skipIf(PG_MISSING !== undefined)(
  `the admin's password${PG_MISSING ? ` (skipped: ${PG_MISSING})` : ''}`,
  () => {
    let cluster: PgCluster;
    const transcript: string[] = [];
    const dataDirs: { path: string; remove(): void }[] = [];

    beforeAll(async () => {
      cluster = await startPgCluster({ settings: { log_statement: 'all' } });
      for (const db of ['by_stdin', 'by_prompt', 'in_url']) await cluster.createDatabase(db);
    }, LONG);
    afterAll(async () => {
      // Everything any run printed, every file it left, the server's log: no admin password anywhere.
      if (cluster) {
        expect(transcript.join('\n')).not.toContain(cluster.adminPassword);
        expect(readFileSync(join(cluster.dir, 'server.log'), 'utf8')).not.toContain(cluster.adminPassword);
      }
      for (const dir of dataDirs) {
        for (const file of readdirSync(dir.path, { recursive: true, withFileTypes: true }))
          if (file.isFile())
            expect(readFileSync(join(file.parentPath, file.name)).includes(cluster.adminPassword), file.name).toBe(
              false,
            );
        dir.remove();
      }
      await cluster?.stop();
    });

    /** The admin's URL without its password. */
    const bare = (database: string) =>
      cluster.url({ database }).replace(`:${encodeURIComponent(cluster.adminPassword)}@`, '@');

    /** A till's environment: its own data folder, terminal T01, no PGPASSWORD or LOKET_* of this process. */
    function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
      const dir = tempDir('loket-store-password-');
      dataDirs.push(dir);
      const base: NodeJS.ProcessEnv = {};
      for (const [name, value] of Object.entries(process.env))
        if (!name.startsWith('LOKET_') && !name.startsWith('PG')) base[name] = value;
      return { ...base, LOKET_DATA_DIR: dir.path, LOKET_TERMINAL_ID: 'T01', ...extra };
    }
    const cli = (args: string[], options: { input?: string; extra?: Record<string, string> } = {}) =>
      runCli(['store', ...args], {
        env: env(options.extra),
        transcript,
        ...(options.input ? { input: options.input } : {}),
      });

    it('--password-stdin: init and enrol take it from standard input; no warning', { timeout: LONG }, async () => {
      expect(bare('by_stdin')).not.toContain(cluster.adminPassword);
      const init = await cli(['init', '--url', bare('by_stdin'), '--store-code', 'MK1', '--password-stdin'], {
        input: `${cluster.adminPassword}\n`,
      });
      expect(init.stderr).toBe('');
      expect(init.code).toBe(0);
      expect(init.stdout).toMatch(/is store MK1 .*schema version 1/);
      const enrol = await cli(
        ['enrol', '--url', bare('by_stdin'), '--terminal', 'T01', '--no-keychain', '--password-stdin'],
        {
          input: cluster.adminPassword,
        },
      );
      expect(enrol.code, enrol.stderr).toBe(0);
      expect(enrol.stdout).toMatch(
        /^LOKET_STORE_URL=postgres:\/\/loket_mk1_t01:[A-Za-z0-9_-]{43}@127\.0\.0\.1:\d+\/by_stdin$/m,
      );
      expect(enrol.stderr).not.toMatch(/warning/);

      const wrong = await cli(['init', '--url', bare('by_stdin'), '--password-stdin'], { input: 'not-the-password\n' });
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(/password authentication failed for user "loket_admin"/);
      expect(wrong.stderr).not.toContain('not-the-password');
      const twice = await cli(['init', '--url', cluster.url({ database: 'by_stdin' }), '--password-stdin'], {
        input: cluster.adminPassword,
      });
      expect(twice.code).toBe(2);
      expect(twice.stderr).toMatch(
        /--password-stdin: --url holds a password already; give the admin's password one way/,
      );
    });

    it(
      'PGPASSWORD: used when the URL has none; nothing given at all: exit 2 saying the three ways',
      { timeout: LONG },
      async () => {
        const init = await cli(['init', '--url', bare('by_stdin')], { extra: { PGPASSWORD: cluster.adminPassword } });
        expect(init.stderr).toBe('');
        expect(init.code).toBe(0);
        expect(init.stdout).toMatch(/up to date, nothing changed/);
        const none = await cli(['init', '--url', bare('by_stdin')]);
        expect(none.code).toBe(2);
        expect(none.stderr).toMatch(
          /no password was given: the admin's password: type it at the prompt \(on a terminal\), pipe it with --password-stdin, or set PGPASSWORD/,
        );
      },
    );

    it('on a terminal: a hidden prompt, the password typed is not echoed', { timeout: LONG }, async () => {
      const r = await runCliOnTerminal(['store', 'init', '--url', bare('by_prompt'), '--store-code', 'MK2'], {
        env: env(),
        answers: [
          { prompt: /Password of loket_admin at 127\.0\.0\.1 \(typing is not shown\): /, type: cluster.adminPassword },
        ],
        transcript,
      });
      expect(r.code, r.output).toBe(0);
      expect(r.output).toMatch(/is store MK2 .*schema version 1/);
      expect(r.output).not.toContain(cluster.adminPassword);
      expect(r.output).not.toMatch(/warning/);
    });

    it(
      'inside the URL: still works, with a warning naming the risk and the ways to avoid it, never the password',
      { timeout: LONG },
      async () => {
        const url = cluster.url({ database: 'in_url' });
        expect(url).toContain(cluster.adminPassword);
        for (const args of [
          ['init', '--url', url, '--store-code', 'MK3'],
          ['enrol', '--url', url, '--terminal', 'T01', '--no-keychain'],
        ]) {
          const r = await cli(args);
          expect(r.code, r.stderr).toBe(0);
          expect(r.stderr).toContain(
            "loket: warning: --url holds the admin's password, where other accounts on this machine can read it (ps shows a " +
              "command's arguments) and the shell's history keeps it. Leave it out of the URL: type it at the prompt, pipe " +
              'it with --password-stdin, or set PGPASSWORD.',
          );
          expect(r.stdout + r.stderr).not.toContain(cluster.adminPassword);
        }
      },
    );
  },
);
