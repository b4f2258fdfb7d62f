// A damaged, emptied or lost order log; backups and their restore; private files. All on real files, against a
// standalone sandbox whose own order list is the truth: Loket must never send a payment it does not record
// (docs/when-things-break.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Backups, restoreBackup } from '../../src-main/core/backup/backups';
import { Upkeep } from '../../src-main/core/backup/upkeep';
import { checkDatabase, openDatabase } from '../../src-main/db/open';
import { openLoket, type Loket } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { gatewayEnv, tempDir } from './helpers/loket';

let gateway: SandboxHandle;
beforeAll(async () => {
  gateway = await startSandbox({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await gateway?.close();
});

async function withLoket<T>(dataDir: string, fn: (loket: Loket) => Promise<T>): Promise<T> {
  const loket = await openLoket({ dataDir, env: gatewayEnv(gateway) });
  try {
    return await fn(loket);
  } finally {
    await loket.close();
  }
}

async function sell(loket: Loket, n: number): Promise<string> {
  const outcome = await loket.orders.create(
    { methodId: 'qris_dynamic', amount: 500 + n, itemName: `Teh ${n}` },
    { source: 'cli' },
  );
  if (!outcome.ok) throw new Error(outcome.failure.message);
  return outcome.order.id;
}

/** A deterministic stream of numbers for a seed (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('a damaged order log (pages of a copy overwritten at random)', () => {
  const dir = tempDir('loket-damage-');
  const pristine = join(dir.path, 'pristine');
  let copies = 0;

  // The pristine log is a fixture every test copies and never changes: each test damages copies of its own.
  beforeAll(async () => {
    await withLoket(pristine, async (loket) => {
      for (let n = 0; n < 60; n++) await sell(loket, n);
    });
  });
  afterAll(() => dir.remove());

  const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

  /** A fresh copy of the pristine log with 1 to 3 of its pages (never the header's) overwritten, drawn from `seed`. */
  function damagedCopy(seed: number): { dataDir: string; file: string } {
    const rand = random(seed);
    const dataDir = join(dir.path, `seed-${seed}-${++copies}`);
    const file = join(dataDir, 'loket.db');
    mkdirSync(dataDir, { recursive: true });
    copyFileSync(join(pristine, 'loket.db'), file);
    const pageSize = 4096;
    const pages = statSync(file).size / pageSize;
    const fd = openSync(file, 'r+');
    for (let i = 0; i < 1 + Math.floor(rand() * 3); i++) {
      const page = 1 + Math.floor(rand() * (pages - 1)); // any page but the header's
      const garbage = Buffer.alloc(pageSize);
      for (let b = 0; b < pageSize; b++) garbage[b] = Math.floor(rand() * 256);
      writeSync(fd, garbage, 0, pageSize, page * pageSize);
    }
    closeSync(fd);
    return { dataDir, file };
  }

  /** Whether opening a damaged copy of `seed` is refused (closing it again when it opens). */
  async function refused(seed: number): Promise<boolean> {
    try {
      await (await openLoket({ dataDir: damagedCopy(seed).dataDir, env: gatewayEnv(gateway) })).close();
      return false;
    } catch {
      return true;
    }
  }

  /** A damaged copy that is refused: the first seed whose damage is met. */
  async function aRefusedCopy(): Promise<{ dataDir: string; file: string }> {
    for (const seed of SEEDS) if (await refused(seed)) return damagedCopy(seed);
    throw new Error('no seed damaged a page in use');
  }

  it.each(SEEDS)(
    'seed %i: refused with the file named and what to do, or — if untouched where it matters — every order recorded',
    async (seed) => {
      const { dataDir, file } = damagedCopy(seed);
      const sentBefore = gateway.orders.all().length;
      let loket: Loket | undefined;
      try {
        loket = await openLoket({ dataDir, env: gatewayEnv(gateway) });
      } catch (err) {
        expect(err).toMatchObject({ name: 'DatabaseProblem', kind: 'damaged' });
        expect((err as Error).message).toContain(file);
        expect((err as Error).message).toMatch(/restore/);
        // Refused before anything could be sent.
        expect(gateway.orders.all()).toHaveLength(sentBefore);
        return;
      }
      try {
        // It opened: then it must work fully — a new sale recorded and at the gateway, the log whole.
        const id = await sell(loket, 1000 + seed);
        expect(loket.log.get(id)?.state).toBe('awaiting_payment');
        expect(gateway.orders.get(id)).toBeDefined();
        expect(checkDatabase(loket.db, 'full')).toEqual([]);
      } finally {
        await loket.close();
      }
    },
  );

  it('most seeds hit pages in use, so the damage was really met', async () => {
    let refusals = 0;
    for (const seed of SEEDS) if (await refused(seed)) refusals++;
    expect(refusals).toBeGreaterThanOrEqual(SEEDS.length / 2);
  });

  it('reconcile and listing fail with the same message instead of reporting all clear', async () => {
    const { dataDir } = await aRefusedCopy();
    await expect(openLoket({ dataDir, env: gatewayEnv(gateway) })).rejects.toMatchObject({ kind: 'damaged' });
  });

  it('the daily full check stops payments when the file goes bad while Loket runs', async () => {
    const { file: copy } = await aRefusedCopy();
    const db = new BetterSqlite3(copy);
    const found: string[] = [];
    const upkeep = new Upkeep({
      backups: new Backups(dir.path),
      storeDb: db,
      checked: () => [{ path: copy, db }],
      copyTo: () => null,
      busy: () => false,
      onDamaged: (message) => found.push(message),
      log: () => undefined,
    });
    try {
      expect(upkeep.check().length).toBeGreaterThan(0);
      expect(found[0]).toContain(copy);
      expect(found[0]).toMatch(/takes no payments until it is restored/);
    } finally {
      db.close();
    }
  });
});

describe('an empty or missing order log', () => {
  it('zero bytes and no backup: refused (a cut-off file is not a new till), saying what to do', async () => {
    const dir = tempDir('loket-empty-');
    try {
      await withLoket(dir.path, async (loket) => void (await sell(loket, 1)));
      truncateSync(join(dir.path, 'loket.db'), 0);
      rmSync(join(dir.path, 'loket.db-wal'), { force: true });
      await expect(openLoket({ dataDir: dir.path, env: gatewayEnv(gateway) })).rejects.toMatchObject({
        kind: 'empty',
        message: expect.stringMatching(/is empty \(0 bytes\).*Restore the newest backup/),
      });
    } finally {
      dir.remove();
    }
  });

  it('zero bytes or missing while backups exist: refused, naming the newest backup; restoring it brings the orders back', async () => {
    const dir = tempDir('loket-lost-');
    try {
      const ids = await withLoket(dir.path, async (loket) => [await sell(loket, 1), await sell(loket, 2)]);
      const backups = new Backups(dir.path);
      const db = openDatabase(join(dir.path, 'loket.db'));
      const taken = await backups.create(db, 'manual');
      db.close();

      truncateSync(join(dir.path, 'loket.db'), 0);
      await expect(openLoket({ dataDir: dir.path, env: gatewayEnv(gateway) })).rejects.toMatchObject({
        kind: 'empty',
        message: expect.stringContaining(taken.path),
      });
      rmSync(join(dir.path, 'loket.db'));
      rmSync(join(dir.path, 'loket.db-wal'), { force: true });
      rmSync(join(dir.path, 'loket.db-shm'), { force: true });
      await expect(openLoket({ dataDir: dir.path, env: gatewayEnv(gateway) })).rejects.toMatchObject({
        kind: 'missing',
        message: expect.stringContaining(`npm run cli -- restore ${taken.path}`),
      });

      expect(restoreBackup(dir.path, taken.path)).toMatchObject({ orders: 2 });
      await withLoket(dir.path, async (loket) => {
        for (const id of ids) expect(loket.log.get(id)?.state).toBe('awaiting_payment');
      });
    } finally {
      dir.remove();
    }
  });
});

describe('backups', () => {
  it('round trip: a backup taken while orders flow restores with the same orders, whole; the replaced file is kept aside', async () => {
    const dir = tempDir('loket-backup-');
    try {
      let backupPath = '';
      let countAtBackup = 0;
      await withLoket(dir.path, async (loket) => {
        for (let n = 0; n < 5; n++) await sell(loket, n);
        loket.orders.cancel((await loket.log.list())[0]!.id, { source: 'manager', reason: 'test: cancelled' });
        const taken = await new Backups(dir.path).create(loket.store.db, 'manual');
        backupPath = taken.path;
        countAtBackup = loket.log.list().length;
        await sell(loket, 6);
        // An order still awaiting payment in the current log: a restore would lose its outcome.
        expect(() => restoreBackup(dir.path, backupPath)).toThrow(/still has \d+ open order/);
      });
      const result = restoreBackup(dir.path, backupPath, { force: true });
      expect(result.orders).toBe(countAtBackup);
      expect(result.keptAside && existsSync(result.keptAside)).toBe(true);
      await withLoket(dir.path, async (loket) => {
        expect(loket.log.list()).toHaveLength(countAtBackup);
        expect(checkDatabase(loket.db, 'full')).toEqual([]);
        expect(loket.log.list({ state: 'cancelled' })).toHaveLength(1);
      });
    } finally {
      dir.remove();
    }
  });

  it('a damaged backup is refused for restore, and the current file is left alone', async () => {
    const dir = tempDir('loket-badbackup-');
    try {
      await withLoket(dir.path, async (loket) => void (await sell(loket, 1)));
      const db = openDatabase(join(dir.path, 'loket.db'));
      const taken = await new Backups(dir.path).create(db, 'manual');
      db.close();
      const fd = openSync(taken.path, 'r+');
      writeSync(fd, Buffer.alloc(4096, 0xab), 0, 4096, 2 * 4096);
      closeSync(fd);
      expect(() => restoreBackup(dir.path, taken.path, { force: true })).toThrow(/damaged too|not a Loket backup/);
      await withLoket(dir.path, async (loket) => expect(loket.log.list()).toHaveLength(1));
    } finally {
      dir.remove();
    }
  });

  it('rotation keeps the newest of each of the last 7 days and 4 weeks, and copies to a second folder', async () => {
    const dir = tempDir('loket-rotate-');
    const second = tempDir('loket-usb-');
    try {
      let now = Date.parse('2026-01-01T10:00:00.000Z');
      const clock = { now: () => new Date(now) };
      const backups = new Backups(dir.path, clock);
      const db = openDatabase(join(dir.path, 'loket.db'));
      // Two backups a day for 40 days.
      for (let day = 0; day < 40; day++) {
        for (const hour of [0, 6]) {
          now = Date.parse('2026-01-01T10:00:00.000Z') + day * 86_400_000 + hour * 3_600_000;
          await backups.create(db, 'periodic');
        }
      }
      const last = await backups.create(db, 'manual', second.path);
      db.close();
      const kept = backups.list();
      const days = new Set(kept.map((b) => b.at.slice(0, 10)));
      expect(kept.length).toBeLessThanOrEqual(1 + 7 + 4);
      expect(days.size).toBeGreaterThanOrEqual(7);
      expect(kept[0]!.path).toBe(last.path);
      expect(last.copiedTo && existsSync(last.copiedTo)).toBe(true);
      expect(readdirSync(second.path)).toEqual([last.path.split('/').pop()]);
    } finally {
      dir.remove();
      second.remove();
    }
  });
});

describe('private files', () => {
  it.runIf(process.platform !== 'win32')(
    'the data folder is 0700; the databases, their WAL and backups 0600',
    async () => {
      const dir = tempDir('loket-modes-');
      const dataDir = join(dir.path, 'data');
      try {
        await withLoket(dataDir, async (loket) => {
          await sell(loket, 1);
          await new Backups(dataDir).create(loket.store.db, 'manual');
          const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
          expect(mode(dataDir)).toBe('700');
          for (const f of ['loket.db', 'loket.db-wal', 'loket.db-shm']) expect(mode(join(dataDir, f)), f).toBe('600');
          for (const b of new Backups(dataDir).list()) expect(mode(b.path)).toBe('600');
          expect(mode(join(dataDir, 'backups'))).toBe('700');
        });
      } finally {
        dir.remove();
      }
    },
  );

  it('a data folder that cannot be created: the message names the path and the cause', async () => {
    const dir = tempDir('loket-notdir-');
    try {
      const file = join(dir.path, 'a-file');
      closeSync(openSync(file, 'w'));
      await expect(openLoket({ dataDir: join(file, 'data'), env: gatewayEnv(gateway) })).rejects.toMatchObject({
        name: 'DatabaseProblem',
        message: expect.stringMatching(new RegExp(`${join(file, 'data')}.*ENOTDIR`)),
      });
    } finally {
      dir.remove();
    }
  });
});
