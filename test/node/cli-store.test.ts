// `npm run cli -- store …` (docs/cli.md, docs/store-book.md) against a real PostgreSQL: init (idempotent), enrol
// with the password into a real private keyring and nowhere else (not the data folder, not the server's log, not an
// output), sync and status with their exit codes, a conflict cleared; the admin's password never echoed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreSecrets } from '../../src-main/store-book/credentials';
import { runStoreCommand, type StoreCommandOptions } from '../../src-main/cli/store-commands';
import { openStoreBooks } from '../../src-main/runtime';
import { connectStore } from '../../src-main/store-book/pg-connect';
import { parseStoreUrl } from '../../src-main/store-book/pg-url';
import { initStoreBook } from '../../src-main/store-book/pg-schema';
import { SETTINGS_KEY } from '../../src-main/core/settings/settings-store';
import { keyringDataDir, keyringEnv, runCli } from './helpers/cli-child';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';
import { PG_MISSING, startPgCluster, type PgCluster } from './helpers/pg-cluster';
import { startPrivateKeyring, type PrivateKeyring } from './helpers/private-keyring';
import { openTill, query, storedEvents, outboxOf } from './helpers/store-book';

const LONG = 60_000;

class MemoryStoreSecrets implements StoreSecrets {
  readonly description = 'a test keychain';
  readonly values = new Map<string, string>();
  async get(account: string) {
    return this.values.get(account);
  }
  async set(account: string, value: string) {
    this.values.set(account, value);
  }
  async delete(account: string) {
    this.values.delete(account);
  }
}

describe.skipIf(PG_MISSING !== undefined)(`store commands${PG_MISSING ? ` (skipped: ${PG_MISSING})` : ''}`, () => {
  let cluster: PgCluster;
  const transcript: string[] = [];
  const cleanup: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    cluster = await startPgCluster({ settings: { log_statement: 'all' } });
    await cluster.createDatabase('toko');
    await cluster.createDatabase('fresh');
    const admin = await connectStore(parseStoreUrl(adminUrl()));
    await initStoreBook(admin, { store: { code: 'MK1', name: 'Toko Maju', timeZone: 'Asia/Makassar' } });
    await admin.end();
  }, LONG);
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
    await cluster?.stop();
  });

  const adminUrl = () => cluster.url({ database: 'toko' });

  async function run(
    args: string[],
    options: StoreCommandOptions,
  ): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runStoreCommand(args, options, { out: (t) => (out += t), err: (t) => (err += t) });
    transcript.push(out, err);
    return { code, out, err };
  }

  function folder(terminalId: string): StoreCommandOptions & { dir: string; secrets: MemoryStoreSecrets } {
    const dir = tempDir('loket-store-cli-');
    cleanup.push(dir.remove);
    const books = openStoreBooks({ dataDir: dir.path, env: {} });
    books.settings.set(SETTINGS_KEY, {
      ...books.settings.load(),
      terminalId,
      storeName: 'Toko Maju',
      timeZone: 'Asia/Makassar',
    });
    books.close();
    const secrets = new MemoryStoreSecrets();
    return {
      dir: dir.path,
      dataDir: dir.path,
      env: {},
      clock: new FakeClock('2026-11-23T02:00:00.000Z'),
      storeSecrets: secrets,
      secrets,
    };
  }

  it('init: --store-code the first time; the name and zone from the till; again: nothing changes', async () => {
    const t = folder('T01');
    const adminUrl = () => cluster.url({ database: 'fresh' });
    await expect(run(['init', '--url', adminUrl()], t)).rejects.toThrow(/--store-code: is required the first time/);
    const made = await run(['init', '--url', adminUrl(), '--store-code', 'MK1', '--json'], t);
    expect(made.code, made.err).toBe(0);
    expect(JSON.parse(made.out)).toMatchObject({
      from: 0,
      to: 1,
      applied: [1],
      store: { code: 'MK1', name: 'Toko Maju', timeZone: 'Asia/Makassar' },
    });
    expect(made.out).not.toContain(cluster.adminPassword);
    const again = await run(['init', '--url', adminUrl()], t);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(
      /is store MK1 \(Toko Maju, Asia\/Makassar\): schema version 1 \(up to date, nothing changed\)/,
    );
    await expect(run(['init', '--url', adminUrl(), '--store-code', 'mk1'], t)).rejects.toThrow(
      /--store-code: 1 to 3 capital letters or digits/,
    );
    const other = await run(['init', '--url', adminUrl(), '--store-code', 'MK2'], t);
    expect(other).toMatchObject({ code: 2, err: expect.stringMatching(/its code cannot change/) });
  });

  it('enrol, sync, status in-process: the terminal id must be this till’s; exit codes say what happened', async () => {
    const t = folder('T02');
    await expect(run(['enrol', '--url', adminUrl(), '--terminal', 'T09'], t)).rejects.toThrow(
      /--terminal: this till is terminal T02, not T09: .*config set-store --terminal-id T09/,
    );
    const enrolled = await run(['enrol', '--url', adminUrl(), '--terminal', 'T02', '--json'], t);
    expect(enrolled.code, enrolled.err).toBe(0);
    const summary = JSON.parse(enrolled.out);
    expect(summary).toMatchObject({ store: { code: 'MK1' }, terminalId: 'T02', role: 'loket_mk1_t02', again: false });
    const [account, password] = [...t.secrets.values][0]!;
    expect(account).toMatch(/^store-book:MK1:T02:[0-9a-f]{8}$/);
    expect(summary.password).toEqual({ in: 'a test keychain', account });
    expect(JSON.stringify(summary)).not.toContain(password!);

    // Nothing to send yet; then a sale's events.
    expect(await run(['sync'], t)).toMatchObject({
      code: 0,
      out: expect.stringMatching(/terminal T02: 0 event\(s\) sent/),
    });
    const till = openTill('T02', { dir: t.dir });
    cleanup.push(() => till.close());
    till.sell(3);
    const synced = await run(['sync', '--json'], t);
    expect(synced.code).toBe(0);
    expect(JSON.parse(synced.out)).toMatchObject({ state: 'synced', terminalId: 'T02', waiting: 0, sent: 8 });
    expect(await storedEvents(adminUrl(), 'T02')).toEqual(outboxOf(till));

    const status = await run(['status', '--json'], t);
    expect(status.code, status.err).toBe(0);
    const shown = JSON.parse(status.out);
    expect(shown).toMatchObject({
      enrolled: { store: 'MK1', terminal: 'T02' },
      passwordFrom: 'keychain',
      link: { reachable: true, tls: false },
      local: { terminalId: 'T02', waiting: 0, conflict: null },
    });
    expect(shown.terminals).toContainEqual(
      expect.objectContaining({
        terminalId: 'T02',
        received: 8,
        waiting: 0,
        conflicts: 0,
        reported: expect.objectContaining({ events: 8 }),
      }),
    );

    // The link down: sync exits 4 and the events wait; status says the link is down.
    await cluster.halt();
    try {
      till.sell(1);
      const offline = await run(['sync'], t);
      expect(offline).toMatchObject({ code: 4, out: expect.stringMatching(/cannot be reached; 3 event\(s\) wait/) });
      const down = await run(['status'], t);
      expect(down.code).toBe(4);
      expect(down.out).toMatch(/Link: DOWN: .*ECONNREFUSED/);
      expect(down.out).toMatch(/This terminal \(T02\): 3 event\(s\) waiting; last sync 2026-11-23 10:00/);
    } finally {
      await cluster.resume();
    }
    expect((await run(['sync'], t)).code).toBe(0);
  });

  it('enrol --no-keychain: the URL with its password is printed once, for LOKET_STORE_URL, and stored nowhere', async () => {
    const t = folder('T04');
    const r = await run(['enrol', '--url', adminUrl(), '--terminal', 'T04', '--no-keychain'], t);
    expect(r.code, r.err).toBe(0);
    const line = /^LOKET_STORE_URL=(postgres:\/\/loket_mk1_t04:([A-Za-z0-9_-]{43})@127\.0\.0\.1:\d+\/toko)$/m.exec(
      r.out,
    );
    expect(line).not.toBeNull();
    const [, url, password] = line!;
    expect(r.out.split(password!)).toHaveLength(2);
    expect(r.err).toMatch(/No keychain: keep this terminal's URL .* in LOKET_STORE_URL/);
    expect(t.secrets.values.size).toBe(0);
    // The printed URL works; the data folder keeps it without the password.
    const synced = await run(['sync'], { ...t, env: { LOKET_STORE_URL: url! } });
    expect(synced.code, synced.err).toBe(0);
    for (const file of readdirSync(t.dir, { recursive: true, withFileTypes: true }))
      if (file.isFile())
        expect(readFileSync(join(file.parentPath, file.name)).includes(password!), file.name).toBe(false);
  });

  it('a conflict: sync exits 3 and sends nothing more; --clear-conflict tries again (and finds it again)', async () => {
    const t = folder('T03');
    expect((await run(['enrol', '--url', adminUrl(), '--terminal', 'T03'], t)).code).toBe(0);
    const till = openTill('T03', { dir: t.dir });
    cleanup.push(() => till.close());
    till.sell(1);
    // Another folder's events already sit under T03's numbers (as a clone's would).
    const stranger = openTill('T03');
    cleanup.push(() => stranger.remove());
    stranger.sell(1);
    const instance = till.local().instanceId();
    for (const row of stranger.db.prepare('SELECT * FROM outbox ORDER BY seq').all() as Record<string, string>[])
      await query(
        adminUrl(),
        `INSERT INTO loket.events (terminal_id, seq, uuid, instance_id, stream, stream_id, type, at, payload, sha256, sent_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())`,
        [
          row.terminal_id,
          row.seq,
          row.uuid,
          instance,
          row.stream,
          row.stream_id,
          row.type,
          row.at,
          row.payload,
          row.sha256,
        ],
      );
    const conflict = await run(['sync'], t);
    expect(conflict.code).toBe(3);
    expect(conflict.out).toMatch(
      /terminal T03: CONFLICT, nothing more is sent \(the till keeps selling; 3 event\(s\) wait\)/,
    );
    expect((await run(['sync'], t)).code).toBe(3);
    const status = await run(['status', '--json'], t);
    expect(status.code).toBe(3);
    expect(JSON.parse(status.out).conflicts).toContainEqual(
      expect.objectContaining({ terminalId: 'T03', kind: 'different_event', seq: 1 }),
    );
    const retried = await run(['sync', '--clear-conflict', '--json'], t);
    expect(retried.code).toBe(3);
    expect(JSON.parse(retried.out)).toMatchObject({ cleared: true, state: 'conflict' });
  });

  describe('as a person runs it (the real CLI, a real keychain)', () => {
    let keyring: PrivateKeyring;
    beforeAll(async () => {
      keyring = await startPrivateKeyring();
      cleanup.push(() => keyring.stop());
    }, LONG);

    const cli = (args: string[], extra: Record<string, string> = {}) =>
      runCli(args, { env: keyringEnv(keyring, { LOKET_TERMINAL_ID: 'T07', ...extra }), transcript });

    it(
      'enrol keeps the password in the OS keychain only: not in the data folder, an output, or the server’s log',
      async () => {
        const enrolled = await cli(['store', 'enrol', '--url', adminUrl(), '--terminal', 'T07']);
        expect(enrolled.code, enrolled.stderr).toBe(0);
        expect(enrolled.stdout).toMatch(
          /enrolled: terminal T07 of store MK1 .*its password is in the OS keychain \(Loket\) \(store-book:MK1:T07:/s,
        );
        const items = await keyring.search('Loket');
        const item = items.find((i) => i.attributes.account?.startsWith('store-book:MK1:T07:'));
        const password = item?.secret;
        expect(password).toMatch(/^[A-Za-z0-9_-]{43}$/);

        const synced = await cli(['store', 'sync']);
        expect(synced.code, synced.stderr).toBe(0);
        const status = await cli(['store', 'status']);
        expect(status.code, status.stderr).toBe(0);
        expect(status.stdout).toMatch(
          /Store book: store MK1, terminal T07, postgres:\/\/loket_mk1_t07@127\.0\.0\.1:\d+\/toko \(password: the OS keychain\)/,
        );

        expect(keyring.filesContaining(password!)).toEqual([]);
        expect(keyringDataDir(keyring)).toContain(keyring.home);
        expect(transcript.join('\n')).not.toContain(password!);
        expect(readFileSync(join(cluster.dir, 'server.log'), 'utf8')).not.toContain(password!);
      },
      LONG,
    );

    it(
      'a password typed in --url is never repeated: not when the server is away, not when the URL is wrong',
      async () => {
        const secret = 'ADMIN-SECRET-9f8e7d';
        const away = await cli(['store', 'init', '--url', `postgres://admin:${secret}@127.0.0.1:1/toko`]);
        expect(away.code).toBe(4);
        expect(away.stderr).toMatch(
          /cannot connect to the store book at postgres:\/\/admin@127\.0\.0\.1:1\/toko: .*ECONNREFUSED/,
        );
        const wrong = await cli([
          'store',
          'init',
          '--url',
          `postgres://loket_admin:${secret}@127.0.0.1:${cluster.port}/toko`,
        ]);
        expect(wrong.code).toBe(2);
        expect(wrong.stderr).toMatch(/password authentication failed for user "loket_admin"/);
        const garbled = await cli(['store', 'enrol', '--url', `postgres//admin:${secret}@x/toko`, '--terminal', 'T07']);
        expect(garbled.code).toBe(2);
        expect(garbled.stderr).toMatch(/--url: not a URL \(not repeated here/);
        for (const r of [away, wrong, garbled]) expect(r.stdout + r.stderr).not.toContain(secret);
      },
      LONG,
    );
  });
});
