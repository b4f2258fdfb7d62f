/**
 * A throwaway PostgreSQL cluster for one test file: initdb in a temporary folder, a free port on 127.0.0.1, the
 * unix socket in that folder, real password authentication (scram-sha-256 for every connection, the superuser's
 * password given to initdb with --pwfile), no fsync (nothing here must survive a power cut), stopped and removed by
 * `stop()` — and, should the test process die first, by a small watchdog that sees its pipe close.
 *
 *   const pg = await startPgCluster();          // ~1–3 s, most of it initdb
 *   afterAll(() => pg.stop());
 *   pg.url({ database: 'store' })               // postgres://loket_admin:…@127.0.0.1:PORT/store
 *
 * initdb and the server refuse to run as root: when the tests run as root (CI does), both run as the `postgres`
 * user (`runuser -u postgres -- …`) in a folder that user owns. As any other user they run as that user.
 *
 * The binaries: LOKET_PG_BIN, else `pg_config --bindir`, else the newest /usr/lib/postgresql/<version>/bin (Debian's
 * layout). When none is found, `PG_MISSING` says why, and the suites that need PostgreSQL skip with that reason
 * (scripts/install-system-deps.sh installs Debian's `postgresql`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ADMIN_USER = 'loket_admin';

function findBinDir(): { dir?: string; missing?: string } {
  const has = (dir: string) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'));
  const fromEnv = process.env.LOKET_PG_BIN;
  if (fromEnv) return has(fromEnv) ? { dir: fromEnv } : { missing: `LOKET_PG_BIN=${fromEnv} has no initdb and pg_ctl` };
  try {
    const dir = execFileSync('pg_config', ['--bindir'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (has(dir)) return { dir };
  } catch {
    // no pg_config on the PATH: look where Debian puts the server
  }
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (has(join(root, v, 'bin'))) return { dir: join(root, v, 'bin') };
  }
  return {
    missing:
      'PostgreSQL server binaries not found (no LOKET_PG_BIN, no pg_config on the PATH, nothing in /usr/lib/postgresql): ' +
      'install Debian’s postgresql package (sudo scripts/install-system-deps.sh)',
  };
}

const found = findBinDir();
export const PG_BIN: string | undefined = found.dir;
/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export const PG_MISSING: string | undefined = found.missing;

const asRoot = process.getuid?.() === 0;

function postgresIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined)
    throw new Error('the tests run as root, and there is no postgres user to run PostgreSQL as (initdb refuses root)');
  return { uid: Number(uid), gid: Number(gid) };
}

export interface PgClusterOptions {
  /** Extra server settings (`-c name=value`), e.g. { wal_level: 'logical' }. */
  settings?: Record<string, string>;
  /** TLS: a self-signed certificate for 127.0.0.1 and localhost is made, and ssl=on. */
  ssl?: boolean;
}

export interface PgCluster {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** The folder of the cluster: data/, the socket, the log, the certificate. */
  readonly dir: string;
  readonly adminPassword: string;
  /** With `ssl`: the certificate (its own CA) a client verifies the server with. */
  readonly caFile?: string;
  /** How long initdb and the first start took, in ms (reported by the tests that care). */
  readonly timings: { initdbMs: number; startMs: number };
  /** A TCP URL; the admin's credentials unless `user` (and `password`) are given. */
  url(options?: { user?: string; password?: string; database?: string; params?: Record<string, string> }): string;
  /** CREATE DATABASE name (as the admin, over psql). */
  createDatabase(name: string): Promise<void>;
  /** One SQL script through psql as the admin; its output. */
  psql(database: string, sql: string): Promise<string>;
  /** Stops the server (immediate: like a cut cable from the clients' side) and keeps the data. */
  halt(): Promise<void>;
  /** Starts it again on the same port. */
  resume(): Promise<void>;
  readonly running: boolean;
  /** Stops the server and removes everything. */
  stop(): Promise<void>;
}

/** Kills the postmaster and removes the folder once the test process's pipe closes (it died, or stop() ran). */
const WATCHDOG = `
while IFS= read -r line; do :; done
if [ -f "$1/data/postmaster.pid" ]; then kill -QUIT "$(head -n 1 "$1/data/postmaster.pid")" 2>/dev/null; sleep 0.2; fi
rm -rf -- "$1"
`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function run(command: string, args: string[], options: { input?: string } = {}): Promise<string> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const child = spawn(file, argv, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}): ${out.trim()}`)),
    );
  });
}

export async function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  if (!PG_BIN) throw new Error(PG_MISSING);
  const bin = (name: string) => join(PG_BIN!, name);
  const dir = mkdtempSync(join(tmpdir(), 'loket-pg-'));
  const ids = asRoot ? postgresIds() : undefined;
  const own = (path: string) => ids && chownSync(path, ids.uid, ids.gid);
  own(dir);

  const watchdog = spawn('bash', ['-c', WATCHDOG, 'watchdog', dir], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  const watchdogExited = new Promise<void>((resolve) => watchdog.once('exit', () => resolve()));

  const adminPassword = `pw-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${adminPassword}\n`, { mode: 0o600 });
  own(pwfile);

  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  let caFile: string | undefined;
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dir,
    // No fsync (an OS crash is not tested), but commits still reach the OS before they are acknowledged: an
    // immediate stop (halt) then loses nothing that was acknowledged, as on a real server.
    fsync: 'off',
    full_page_writes: 'off',
    max_connections: '60',
    shared_buffers: '32MB',
    log_min_messages: 'warning',
    ...options.settings,
  };
  let port = 0;
  let running = false;
  let stopped: Promise<void> | undefined;

  const start = async () => {
    port ||= await freePort();
    const flags = Object.entries({ ...settings, port: String(port) })
      .map(([k, v]) => `-c ${k}=${v}`)
      .join(' ');
    await run(bin('pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '30', '-o', flags, 'start']);
    running = true;
  };
  const halt = async () => {
    if (!running) return;
    running = false;
    await run(bin('pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };

  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      try {
        await halt();
      } finally {
        watchdog.stdin?.end();
        let late: NodeJS.Timeout | undefined;
        await Promise.race([watchdogExited, new Promise((r) => (late = setTimeout(r, 5_000)))]);
        clearTimeout(late);
        rmSync(dir, { recursive: true, force: true });
      }
    })());

  const t0 = performance.now();
  let initdbMs = 0;
  try {
    await run(bin('initdb'), [
      '-D',
      data,
      '-U',
      ADMIN_USER,
      '--auth=scram-sha-256',
      `--pwfile=${pwfile}`,
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    initdbMs = performance.now() - t0;
    if (options.ssl) {
      const key = join(dir, 'server.key');
      caFile = join(dir, 'server.crt');
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          key,
          '-out',
          caFile,
          '-days',
          '2',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1,DNS:localhost',
        ],
        { stdio: 'ignore' },
      );
      own(key);
      own(caFile);
      Object.assign(settings, { ssl: 'on', ssl_cert_file: caFile, ssl_key_file: key });
    }
    await start();
  } catch (err) {
    await stop();
    throw err;
  }
  const startMs = performance.now() - t0 - initdbMs;

  const cluster: PgCluster = {
    host: '127.0.0.1',
    get port() {
      return port;
    },
    dir,
    adminPassword,
    ...(caFile ? { caFile } : {}),
    timings: { initdbMs, startMs },
    url({ user = ADMIN_USER, password, database = 'postgres', params } = {}) {
      const pass = password ?? (user === ADMIN_USER ? adminPassword : undefined);
      const auth =
        pass === undefined ? encodeURIComponent(user) : `${encodeURIComponent(user)}:${encodeURIComponent(pass)}`;
      const query = params ? `?${new URLSearchParams(params).toString()}` : '';
      return `postgres://${auth}@127.0.0.1:${port}/${encodeURIComponent(database)}${query}`;
    },
    async createDatabase(name) {
      await cluster.psql('postgres', `CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    },
    psql(database, sql) {
      return new Promise((resolve, reject) => {
        const child = spawn(
          bin('psql'),
          [
            '-X',
            '-q',
            '-v',
            'ON_ERROR_STOP=1',
            '-At',
            '-h',
            '127.0.0.1',
            '-p',
            String(port),
            '-U',
            ADMIN_USER,
            '-d',
            database,
          ],
          { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, PGPASSWORD: adminPassword } },
        );
        let out = '';
        let err = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
        child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`psql failed: ${err.trim()}`))));
        child.stdin.end(sql);
      });
    },
    halt,
    resume: start,
    get running() {
      return running;
    },
    stop,
  };
  return cluster;
}
