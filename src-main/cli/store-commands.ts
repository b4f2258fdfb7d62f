import { parseArgs } from 'node:util';
import { KeychainStoreSecrets } from '../adapters/store-book-keychain';
import { formatGatewayDate } from '../common/gateway-time';
import { TERMINAL_ID_PATTERN } from '../core/payments/order-id';
import { SecretStoreUnavailableError, systemClock, type Clock } from '../core/ports';
import { NotEnrolledError, storeConnection, STORE_URL_VARIABLE, type StoreSecrets } from '../store-book/credentials';
import { enrolTerminal, EnrolRefusedError } from '../store-book/enrol';
import { LocalBook } from '../store-book/local-book';
import { classifyPgError, closeQuietly, connectStore, describePgError, type PgClient } from '../store-book/pg-connect';
import { initStoreBook, StoreInitError, storeOf } from '../store-book/pg-schema';
import { formatStoreUrl, parseStoreUrl, StoreUrlError, type StoreUrl } from '../store-book/pg-url';
import { SyncWorker, type SyncStatus } from '../store-book/sync-worker';
import { openStoreBooks, type StoreBooks } from '../runtime';
import { defaultIo, type Io } from './cli-support';
import { EXIT, UsageError } from './exit-codes';
export { STORE_USAGE } from './store-usage';
import { ask, onTerminal, readSecret } from './secret-input';

export interface StoreCommandOptions {
  env?: NodeJS.ProcessEnv;
  dataDir?: string;
  clock?: Clock;
  /** Where the terminals' passwords are kept; the OS keychain by default. */
  storeSecrets?: StoreSecrets;
}

/** The store book could not be reached: exit 4. */
class StoreUnreachableError extends Error {}

export async function runStoreCommand(
  argv: string[],
  options: StoreCommandOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'init':
      return init(rest, options, io);
    case 'enrol':
    case 'enroll':
      return enrol(rest, options, io);
    case 'sync':
      return sync(rest, options, io);
    case 'status':
      return status(rest, options, io);
    default:
      throw new UsageError(
        sub === undefined
          ? 'store: init, enrol, sync or status (npm run cli -- store --help)'
          : `store: no command ${JSON.stringify(sub)} (init, enrol, sync, status)`,
      );
  }
}

// ---------------------------------------------------------------- helpers

function envOf(options: StoreCommandOptions): NodeJS.ProcessEnv {
  return options.env ?? process.env;
}

function secretsOf(options: StoreCommandOptions): StoreSecrets {
  return options.storeSecrets ?? new KeychainStoreSecrets();
}

/** What stops the admin's password being seen, said when it comes inside the URL (the password itself never). */
const URL_PASSWORD_WARNING =
  "loket: warning: --url holds the admin's password, where other accounts on this machine can read it (ps shows a " +
  "command's arguments) and the shell's history keeps it. Leave it out of the URL: type it at the prompt, pipe it " +
  'with --password-stdin, or set PGPASSWORD.\n';

/** How the admin's password may be given, said when the store book asked for one and none came. */
const PASSWORD_WAYS =
  "the admin's password: type it at the prompt (on a terminal), pipe it with --password-stdin, or set PGPASSWORD";

/**
 * The admin's password, from the first of: the URL (still works, with a warning on stderr), standard input with
 * `--password-stdin`, PGPASSWORD, a hidden prompt on a terminal; none of them: undefined (a server that trusts the
 * account, over a unix socket, needs none). Never from an argument of its own, which `ps` and the history would show.
 */
async function adminPassword(
  url: StoreUrl,
  env: NodeJS.ProcessEnv,
  fromStdin: boolean,
  io: Io,
): Promise<string | undefined> {
  if (url.password !== undefined) {
    if (fromStdin)
      throw new UsageError(
        "--password-stdin: --url holds a password already; give the admin's password one way (nothing was changed)",
      );
    io.err(URL_PASSWORD_WARNING);
    return url.password;
  }
  if (fromStdin) return readSecret("admin's password", true, '--password-stdin');
  if (env.PGPASSWORD) return env.PGPASSWORD;
  if (onTerminal()) return ask(`Password of ${url.user} at ${url.host} (typing is not shown): `, { hidden: true });
  return undefined;
}

/** The admin's connection from --url (never repeating its password), and the password from where adminPassword says. */
async function adminConnection(
  text: string | undefined,
  env: NodeJS.ProcessEnv,
  fromStdin: boolean,
  io: Io,
): Promise<{ url: StoreUrl; client: PgClient }> {
  if (!text)
    throw new UsageError("--url: is required (the store book's admin URL, postgres://USER@HOST:PORT/DATABASE)");
  let url: StoreUrl;
  try {
    url = parseStoreUrl(text, '--url');
  } catch (err) {
    if (err instanceof StoreUrlError) throw new UsageError(err.message);
    throw err;
  }
  const password = await adminPassword(url, env, fromStdin, io);
  if (password !== undefined) url = { ...url, password };
  return { url, client: await reach(url) };
}

async function reach(url: StoreUrl): Promise<PgClient> {
  try {
    return await connectStore(url);
  } catch (err) {
    const words = `cannot connect to the store book at ${formatStoreUrl(url)}: ${describePgError(err)}`;
    // node-postgres says "client password must be a string" when the server asks for a password and none was given.
    if (url.password === undefined && /password/i.test(describePgError(err)))
      throw new UsageError(`${words}\nno password was given: ${PASSWORD_WAYS} (nothing was changed)`);
    if (classifyPgError(err) === 'auth') throw new UsageError(words);
    throw new StoreUnreachableError(words);
  }
}

/** A failure of the store book's server or link, as the exit code says it. */
function failure(io: Io, err: unknown): number {
  if (err instanceof StoreUnreachableError) {
    io.err(`loket: ${err.message}\n`);
    return EXIT.NOT_SENT_OR_UNKNOWN;
  }
  if (err instanceof StoreInitError || err instanceof EnrolRefusedError) {
    io.err(`loket: ${err.message}\n`);
    return EXIT.INVALID_INPUT;
  }
  const kind = classifyPgError(err);
  if (kind === 'link') {
    io.err(`loket: the link to the store book broke: ${describePgError(err)}\n`);
    return EXIT.NOT_SENT_OR_UNKNOWN;
  }
  if (kind === 'auth' || kind === 'refused') {
    io.err(`loket: the store book refused: ${describePgError(err)}\n`);
    return EXIT.INVALID_INPUT;
  }
  throw err;
}

/**
 * The till's books and its link to the store book. `readOnly`: for what only reads (status, the defaults of init),
 * which works beside a running Loket; enrol and sync change the books and take the data folder's lock.
 */
async function withLocal<T>(
  options: StoreCommandOptions,
  fn: (books: StoreBooks, local: LocalBook) => Promise<T>,
  readOnly = false,
): Promise<T> {
  const books = openStoreBooks({
    readOnly,
    env: envOf(options),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  let local: LocalBook | undefined;
  try {
    local = LocalBook.open(books.dataDir);
    return await fn(books, local);
  } finally {
    local?.close();
    books.close();
  }
}

function time(iso: string | null | undefined, timeZone: string): string {
  return iso ? formatGatewayDate(new Date(iso), timeZone).slice(0, 16) : 'never';
}

// ---------------------------------------------------------------- init

async function init(argv: string[], options: StoreCommandOptions, io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      'store-code': { type: 'string' },
      name: { type: 'string' },
      'time-zone': { type: 'string' },
      'head-office': { type: 'boolean' },
      'password-stdin': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const code = values['store-code'];
  if (code !== undefined && !/^[A-Z0-9]{1,3}$/.test(code))
    throw new UsageError(`--store-code: 1 to 3 capital letters or digits (got ${JSON.stringify(code)})`);
  if (values['head-office'] && (code || values.name || values['time-zone']))
    throw new UsageError(
      '--head-office: a head office book has no store of its own (no --store-code, --name, --time-zone)',
    );
  const zone = values['time-zone'];
  if (zone !== undefined) checkZone(zone);
  const env = envOf(options);
  // The till's own settings give the defaults of the store's name and zone.
  const settings = await withLocal(options, async (books) => books.settings.load(), true).catch(() => undefined);
  let admin;
  try {
    admin = await adminConnection(values.url, env, values['password-stdin'] === true, io);
  } catch (err) {
    return failure(io, err);
  }
  const { url, client } = admin;
  try {
    let store: { code: string; name: string; timeZone: string } | undefined;
    if (!values['head-office']) {
      const existing = await storeOf(client);
      const storeCode = code ?? existing?.code;
      if (!storeCode)
        throw new UsageError('--store-code: is required the first time (1 to 3 capital letters or digits, e.g. JK1)');
      store = {
        code: storeCode,
        name: values.name ?? existing?.name ?? settings?.storeName ?? storeCode,
        timeZone: zone ?? existing?.timeZone ?? settings?.timeZone ?? 'Asia/Jakarta',
      };
    }
    const result = await initStoreBook(client, store ? { store } : {});
    if (values.json) io.out(JSON.stringify({ url: formatStoreUrl(url), ...result }, null, 2) + '\n');
    else {
      const what = result.store
        ? `store ${result.store.code} (${result.store.name}, ${result.store.timeZone})`
        : 'a head office book (no store of its own)';
      io.out(
        `the store book at ${formatStoreUrl(url)} is ${what}: schema version ${result.to}` +
          (result.applied.length ? ` (applied now: ${result.applied.join(', ')})` : ' (up to date, nothing changed)') +
          '\n',
      );
    }
    return EXIT.OK;
  } catch (err) {
    return failure(io, err);
  } finally {
    await closeQuietly(client);
  }
}

function checkZone(zone: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    throw new UsageError(`--time-zone: an IANA time zone such as Asia/Jakarta (got ${JSON.stringify(zone)})`);
  }
}

// ---------------------------------------------------------------- enrol

async function enrol(argv: string[], options: StoreCommandOptions, io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      terminal: { type: 'string' },
      'no-keychain': { type: 'boolean' },
      'password-stdin': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const terminalId = values.terminal;
  if (!terminalId || !TERMINAL_ID_PATTERN.test(terminalId))
    throw new UsageError(
      `--terminal: this till's terminal id, 1 to 8 capital letters or digits (got ${JSON.stringify(terminalId ?? '')})`,
    );
  const env = envOf(options);
  const clock = options.clock ?? systemClock;
  return withLocal(options, async (books, local) => {
    const own = env.LOKET_TERMINAL_ID ?? books.settings.load().terminalId;
    if (own !== terminalId)
      throw new UsageError(
        `--terminal: this till is terminal ${own}${env.LOKET_TERMINAL_ID ? ' (LOKET_TERMINAL_ID)' : ''}, not ${terminalId}: ` +
          `its orders carry its own id. Enrol it as ${own}, or change its id first (npm run cli -- config set-store --terminal-id ${terminalId})`,
      );
    const secrets = values['no-keychain'] ? undefined : secretsOf(options);
    if (secrets?.probe) {
      const probe = await secrets.probe();
      if (!probe.available) {
        io.err(
          `loket: ${probe.message}\nNothing was changed. Without a keychain, enrol with --no-keychain and keep the ` +
            `printed URL in ${STORE_URL_VARIABLE}.\n`,
        );
        return EXIT.KEYCHAIN;
      }
    }
    let admin;
    try {
      admin = await adminConnection(values.url, env, values['password-stdin'] === true, io);
    } catch (err) {
      return failure(io, err);
    }
    const { url: adminUrl, client } = admin;
    try {
      const e = await enrolTerminal(client, adminUrl, { terminalId, instanceId: local.instanceId(), clock });
      if (secrets) await secrets.set(e.link.credential, e.url.password!);
      local.saveLink(e.link);
      const summary = {
        store: { code: e.store.code, name: e.store.name },
        terminalId,
        role: e.role,
        url: e.link.url,
        again: e.again,
        password: secrets ? { in: secrets.description, account: e.link.credential } : { in: STORE_URL_VARIABLE },
      };
      if (values.json) io.out(JSON.stringify(summary, null, 2) + '\n');
      else
        io.out(
          `${e.again ? 'enrolled again (a new password)' : 'enrolled'}: terminal ${terminalId} of store ${e.store.code} ` +
            `(${e.store.name}) as ${e.role} at ${e.link.url}\n` +
            (secrets ? `its password is in ${secrets.description} (${e.link.credential})\n` : ''),
        );
      if (!secrets) {
        io.err(
          `No keychain: keep this terminal's URL (it holds its password) in ${STORE_URL_VARIABLE}, readable by this ` +
            'account only; it is shown once, here:\n',
        );
        io.out(`${STORE_URL_VARIABLE}=${formatStoreUrl(e.url, { withPassword: true })}\n`);
      }
      return EXIT.OK;
    } catch (err) {
      return failure(io, err);
    } finally {
      await closeQuietly(client);
    }
  });
}

// ---------------------------------------------------------------- sync

const STATE_EXIT: Partial<Record<SyncStatus['state'], number>> = {
  synced: EXIT.OK,
  conflict: EXIT.REJECTED,
  offline: EXIT.NOT_SENT_OR_UNKNOWN,
  waiting: EXIT.NOT_SENT_OR_UNKNOWN,
  keychain: EXIT.KEYCHAIN,
  refused: EXIT.INVALID_INPUT,
  not_enrolled: EXIT.INVALID_INPUT,
};

async function sync(argv: string[], options: StoreCommandOptions, io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { json: { type: 'boolean' }, 'clear-conflict': { type: 'boolean' } },
  });
  const env = envOf(options);
  return withLocal(options, async (books, local) => {
    const worker = new SyncWorker({
      local,
      env,
      ...(env[STORE_URL_VARIABLE] ? {} : { secrets: secretsOf(options) }),
      clock: options.clock ?? systemClock,
    });
    const before = worker.status();
    let cleared = false;
    if (values['clear-conflict'] && before.terminalId) cleared = local.clearConflict(before.terminalId);
    const result = await worker.syncNow();
    const s = worker.status();
    await worker.stop();
    const zone = books.settings.load().timeZone;
    if (values.json) io.out(JSON.stringify({ ...s, sent: result?.sent ?? 0, cleared }, null, 2) + '\n');
    else io.out(syncLine(s, result?.sent ?? 0, zone) + '\n');
    if (s.state !== 'synced' && s.lastError && !values.json) io.err(`loket: ${s.lastError}\n`);
    return STATE_EXIT[s.state] ?? EXIT.UNEXPECTED;
  });
}

function syncLine(s: SyncStatus, sent: number, zone: string): string {
  const who = s.terminalId ? `terminal ${s.terminalId}: ` : '';
  switch (s.state) {
    case 'synced':
      return `${who}${sent} event(s) sent; everything is in the store book`;
    case 'conflict':
      return `${who}CONFLICT, nothing more is sent (the till keeps selling; ${s.waiting} event(s) wait): ${s.conflict?.detail ?? ''}`;
    case 'offline':
      return `${who}the store book cannot be reached; ${s.waiting} event(s) wait (sent this time: ${sent})`;
    case 'not_enrolled':
      return 'not enrolled in a store book';
    case 'keychain':
      return `${who}the OS keychain holding the store book's password cannot be used; ${s.waiting} event(s) wait`;
    case 'refused':
      return `${who}the store book refused this terminal; ${s.waiting} event(s) wait`;
    default:
      return `${who}${s.state}; ${s.waiting} event(s) wait; last sync ${time(s.lastSyncAt, zone)}`;
  }
}

// ---------------------------------------------------------------- status

interface ProgressRow {
  terminal_id: string;
  received_seq: string;
  last_received_at: Date | null;
  head_seq: string | null;
  oldest_unsent_at: Date | null;
  reported_at: Date | null;
  waiting: string;
  skew_flagged: boolean;
  clock_skew_seconds: number | null;
  conflicts: string;
}

interface ConflictRow {
  terminal_id: string;
  kind: string;
  seq: string | null;
  detail: string;
  reported_at: Date;
}

async function status(argv: string[], options: StoreCommandOptions, io: Io): Promise<number> {
  const { values } = parseArgs({ args: argv, strict: true, options: { json: { type: 'boolean' } } });
  const env = envOf(options);
  return withLocal(
    options,
    async (books, local) => {
      const zone = books.settings.load().timeZone;
      const link = local.link();
      const worker = new SyncWorker({ local, env, clock: options.clock ?? systemClock });
      const own = worker.status();
      const others = local
        .terminals()
        .filter((t) => t.terminalId !== own.terminalId)
        .map((t) => ({ terminalId: t.terminalId, events: t.head, acknowledged: local.cursor(t.terminalId).ackedSeq }));
      const report: Record<string, unknown> = {
        enrolled: link
          ? { store: link.storeCode, terminal: link.terminalId, url: link.url, since: link.enrolledAt }
          : null,
        passwordFrom: env[STORE_URL_VARIABLE] ? STORE_URL_VARIABLE : link ? 'keychain' : null,
        local: {
          terminalId: own.terminalId ?? null,
          waiting: own.waiting,
          lastSyncAt: own.lastSyncAt ?? null,
          conflict: own.conflict ?? null,
        },
        ...(others.length ? { otherTerminalIds: others } : {}),
      };
      let code: number = own.conflict ? EXIT.REJECTED : EXIT.OK;
      let client: PgClient | undefined;
      try {
        const connection = await storeConnection(env, link, env[STORE_URL_VARIABLE] ? undefined : secretsOf(options));
        client = await reach(connection.url);
        const tls = (await client.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()'))
          .rows[0]?.ssl;
        const terminals = (
          await client.query<ProgressRow>(
            `SELECT terminal_id, received_seq, last_received_at, head_seq, oldest_unsent_at, reported_at, waiting,
             skew_flagged, extract(epoch FROM clock_skew)::float8 AS clock_skew_seconds, conflicts
           FROM loket.terminal_progress WHERE store_code = loket.store_code() ORDER BY terminal_id`,
          )
        ).rows;
        const conflicts = (
          await client.query<ConflictRow>(
            `SELECT terminal_id, kind, seq, detail, reported_at FROM loket.conflicts
           WHERE store_code = loket.store_code() ORDER BY reported_at DESC LIMIT 20`,
          )
        ).rows;
        report.link = { reachable: true, tls: tls === true };
        report.terminals = terminals.map((t) => ({
          terminalId: t.terminal_id,
          received: Number(t.received_seq),
          lastReceivedAt: t.last_received_at?.toISOString() ?? null,
          reported: t.head_seq === null ? null : { events: Number(t.head_seq), at: t.reported_at!.toISOString() },
          waiting: t.head_seq === null ? null : Number(t.waiting),
          oldestWaitingAt: t.oldest_unsent_at?.toISOString() ?? null,
          clockSkewSeconds: t.clock_skew_seconds,
          clockSkewFlagged: t.skew_flagged,
          conflicts: Number(t.conflicts),
        }));
        report.conflicts = conflicts.map((c) => ({
          terminalId: c.terminal_id,
          kind: c.kind,
          seq: c.seq === null ? null : Number(c.seq),
          detail: c.detail,
          reportedAt: c.reported_at.toISOString(),
        }));
      } catch (err) {
        report.link = { reachable: false, error: err instanceof Error ? describePgError(err) : String(err) };
        if (code === EXIT.OK)
          code =
            err instanceof NotEnrolledError || err instanceof StoreUrlError || err instanceof UsageError
              ? EXIT.INVALID_INPUT
              : err instanceof SecretStoreUnavailableError
                ? EXIT.KEYCHAIN
                : EXIT.NOT_SENT_OR_UNKNOWN;
      } finally {
        await closeQuietly(client);
      }
      if (values.json) io.out(JSON.stringify(report, null, 2) + '\n');
      else io.out(statusLines(report, zone).join('\n') + '\n');
      return code;
    },
    true,
  );
}

function statusLines(r: Record<string, unknown>, zone: string): string[] {
  const enrolled = r.enrolled as { store: string; terminal: string; url: string } | null;
  const link = r.link as { reachable: boolean; tls?: boolean; error?: string };
  const own = r.local as {
    terminalId: string | null;
    waiting: number;
    lastSyncAt: string | null;
    conflict: { detail: string } | null;
  };
  const from = r.passwordFrom === 'keychain' ? 'the OS keychain' : STORE_URL_VARIABLE;
  const ownWaiting = own.waiting === 0 ? 'everything sent' : `${own.waiting} event(s) waiting`;
  const lines = [
    enrolled
      ? `Store book: store ${enrolled.store}, terminal ${enrolled.terminal}, ${enrolled.url} (password: ${from})`
      : r.passwordFrom
        ? `Store book: from ${STORE_URL_VARIABLE} (not enrolled here)`
        : 'Store book: this terminal is not enrolled (npm run cli -- store enrol --url ADMIN_URL --terminal ID)',
    link.reachable ? `Link: reachable${link.tls ? ', TLS' : ', not encrypted'}` : `Link: DOWN: ${link.error}`,
    own.terminalId
      ? `This terminal (${own.terminalId}): ${ownWaiting}; last sync ${time(own.lastSyncAt, zone)}`
      : 'This terminal: nothing to send',
  ];
  if (own.conflict) lines.push(`  CONFLICT: ${own.conflict.detail}`);
  for (const o of (r.otherTerminalIds as { terminalId: string; events: number; acknowledged: number }[] | undefined) ??
    [])
    lines.push(
      `  also ${o.events - o.acknowledged} event(s) under terminal id ${o.terminalId} (this till's earlier id): not sent by this enrolment`,
    );
  const terminals = r.terminals as
    | {
        terminalId: string;
        received: number;
        waiting: number | null;
        oldestWaitingAt: string | null;
        reported: { at: string } | null;
        clockSkewFlagged: boolean;
        clockSkewSeconds: number | null;
        conflicts: number;
      }[]
    | undefined;
  if (terminals) {
    lines.push('', 'Terminals, as the store book sees them:');
    for (const t of terminals) {
      const waiting =
        t.waiting === null
          ? 'never reported'
          : t.waiting === 0
            ? 'nothing waiting'
            : `${t.waiting} waiting (oldest ${time(t.oldestWaitingAt, zone)})`;
      const skew = t.clockSkewFlagged ? `; clock ${Math.round((t.clockSkewSeconds ?? 0) / 60)} min off` : '';
      const conflicts = t.conflicts ? `; ${t.conflicts} CONFLICT(S)` : '';
      lines.push(
        `  ${t.terminalId.padEnd(9)} received ${String(t.received).padStart(7)}; ${waiting}; last report ${time(t.reported?.at, zone)}${skew}${conflicts}`,
      );
    }
    const conflicts = r.conflicts as { terminalId: string; detail: string; reportedAt: string }[];
    lines.push('', conflicts.length ? 'Conflicts:' : 'No conflicts.');
    for (const c of conflicts) lines.push(`  ${time(c.reportedAt, zone)} ${c.terminalId}: ${c.detail}`);
  }
  return lines;
}
