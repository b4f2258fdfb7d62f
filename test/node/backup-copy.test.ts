// Backups copied to a second folder (a USB stick, a network share) must never freeze the till nor compete with a
// charge: the copy runs off the main thread, a chunk at a time, and neither a backup nor a chunk of its copy starts
// while a charge is in flight. The slow stick is a FIFO whose reader this test holds (in a worker thread of its
// own, so that a copy that blocked the main thread would still end, and fail the test, instead of hanging it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import { Backups, COPY_CHUNK_BYTES, type CopyResult } from '../../src-main/core/backup/backups';
import { ChargesInFlight } from '../../src-main/core/backup/charges-in-flight';
import { Upkeep } from '../../src-main/core/backup/upkeep';
import { startAppHost } from '../../src-main/app-host';
import { SETTINGS_KEY } from '../../src-main/core/settings/settings-store';
import { openStoreBooks } from '../../src-main/runtime';
import { SANDBOX_DEFAULTS } from '../../src-main/sandbox/server';
import { gatewayEnv } from './helpers/loket';
import { startTestSandbox } from './helpers/sandbox-setup';
import type { Database } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';
import { waitFor } from './helpers/wait-for';

const dir = tempDir('loket-backup-copy-');
let db: Database;

beforeAll(() => {
  // A few MB, many times a pipe's buffer (64 KiB) and a copy chunk: the copy cannot end before it is read.
  db = new BetterSqlite3(join(dir.path, 'loket.db')) as unknown as Database;
  db.exec('CREATE TABLE filler (n INTEGER PRIMARY KEY, bytes BLOB)');
  const insert = db.prepare('INSERT INTO filler (bytes) VALUES (randomblob(4096))');
  db.transaction(() => {
    for (let n = 0; n < 800; n++) insert.run();
  })();
});
afterAll(() => {
  db.close();
  dir.remove();
});

let folders = 0;
/** A fresh folder of its own for each test, with backups named by a clock of its own. */
function setup() {
  const root = join(dir.path, `t${++folders}`);
  const stick = join(root, 'usb');
  mkdirSync(stick, { recursive: true });
  return { root, stick, backups: new Backups(join(root, 'data'), new FakeClock()) };
}

/**
 * A reader of the FIFO at `fifo` in a worker thread: it opens it (which waits for the writer), says so, then reads
 * nothing until `release()` — or until `deadlineMs` has passed, which only a copy that blocked the main thread
 * (which then cannot release it) ever reaches.
 */
function slowReader(fifo: string, deadlineMs = 15_000) {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const fs = require('node:fs');
     const fd = fs.openSync(workerData.fifo, 'r');
     parentPort.postMessage({ opened: true });
     Atomics.wait(workerData.gate, 0, 0, workerData.deadlineMs);
     const chunks = [];
     const buffer = Buffer.alloc(65536);
     for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) chunks.push(Buffer.from(buffer.subarray(0, n)));
     fs.closeSync(fd);
     parentPort.postMessage({ bytes: Buffer.concat(chunks) });`,
    { eval: true, workerData: { fifo, gate, deadlineMs } },
  );
  let opened = false;
  let read: Buffer | undefined;
  worker.on('message', (message: { opened?: boolean; bytes?: Uint8Array }) => {
    if (message.opened) opened = true;
    if (message.bytes) read = Buffer.from(message.bytes);
  });
  return {
    get opened() {
      return opened;
    },
    release() {
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
    },
    async bytes(): Promise<Buffer> {
      await waitFor(() => read !== undefined, 'the reader to read the whole copy', 30_000);
      return read!;
    },
    stop: () => worker.terminate(),
  };
}

function mkfifo(path: string): void {
  execFileSync('mkfifo', ['-m', '600', path]);
}

/** Whether `promise` has settled by the time the timers and I/O queued so far have had their turn. */
function settledFlag<T>(promise: Promise<T>) {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}

describe('copying a backup to a slow USB stick', () => {
  it('does not block the event loop: timers fire while the copy waits on the stick, and the copy is whole', async () => {
    const { stick, backups } = setup();
    const taken = await backups.take(db, 'manual');
    expect(taken.bytes).toBeGreaterThan(8 * COPY_CHUNK_BYTES);
    const fifo = join(stick, `${basename(taken.path)}.part`);
    mkfifo(fifo);
    const reader = slowReader(fifo);
    try {
      const copy = backups.copy(taken.path, stick);
      const settled = settledFlag(copy);
      // The copy has opened the stick and is writing into it, a pipe nobody empties.
      await waitFor(() => reader.opened, 'the copy to open the slow stick');
      // A timer fires, and more than once, while the copy cannot have ended (the reader has read nothing yet).
      let fired = 0;
      for (let n = 0; n < 3; n++) await new Promise<void>((resolve) => setTimeout(() => resolve(void fired++), 0));
      expect(fired).toBe(3);
      expect(settled()).toBe(false);

      reader.release();
      expect(await copy).toEqual({ copiedTo: join(stick, basename(taken.path)) });
      expect((await reader.bytes()).equals(readFileSync(taken.path))).toBe(true);
    } finally {
      await reader.stop();
    }
  });

  it('writes nothing without asking first: before the copy starts, and before every chunk', async () => {
    const { stick, backups } = setup();
    const taken = await backups.take(db, 'manual');
    const part = join(stick, `${basename(taken.path)}.part`);
    // What the stick holds each time the copy asks whether it may write.
    const seen: number[] = [];
    const result = await backups.copy(taken.path, stick, {
      beforeWrite: async () => void seen.push(existsSync(part) ? statSync(part).size : -1),
    });
    expect(result).toEqual({ copiedTo: join(stick, basename(taken.path)) });
    const chunks = Math.ceil(taken.bytes / COPY_CHUNK_BYTES);
    expect(seen).toEqual([-1, ...Array.from({ length: chunks }, (_, n) => n * COPY_CHUNK_BYTES)]);
    expect(readFileSync(join(stick, basename(taken.path))).equals(readFileSync(taken.path))).toBe(true);
    expect(readdirSync(stick)).toEqual([basename(taken.path)]);
    if (process.platform !== 'win32') expect(statSync(join(stick, basename(taken.path))).mode & 0o777).toBe(0o600);
  });

  it('a stick that fails: the copy says why, leaves no half file, and the backup itself stands', async () => {
    const { root, backups } = setup();
    const taken = await backups.take(db, 'manual');
    // A file where the folder should be: what a stick mounted read-only or gone looks like to the copy.
    const notAFolder = join(root, 'data', 'backups', basename(taken.path));
    const result = await backups.copy(taken.path, join(notAFolder, 'usb'));
    expect(result).toEqual({ copyError: expect.stringMatching(/^the copy to .*usb failed: E[A-Z]+$/) });
    expect(existsSync(taken.path)).toBe(true);
  });
});

describe('the upkeep: backups and their copies wait for the charge in flight', () => {
  function upkeepFor(backups: Backups, stick: string, charges: ChargesInFlight) {
    const log: string[] = [];
    const upkeep = new Upkeep({
      backups,
      storeDb: db,
      checked: () => [],
      copyTo: () => stick,
      busy: () => false,
      charges,
      onDamaged: () => undefined,
      log: (line) => log.push(line),
      clock: new FakeClock(),
      timers: { every: () => ({ cancel: () => undefined }) },
    });
    return { upkeep, log };
  }

  /** A charge the test ends when it wants. */
  function heldCharge(charges: ChargesInFlight) {
    let end!: () => void;
    const charge = charges.track(() => new Promise<void>((resolve) => (end = resolve)));
    return { end: async () => (end(), await charge) };
  }

  it('no backup starts while a charge is in flight; it is taken, and copied, once the charge is over', async () => {
    const { stick, backups } = setup();
    const charges = new ChargesInFlight();
    const { upkeep, log } = upkeepFor(backups, stick, charges);
    const charge = heldCharge(charges);
    const backup = upkeep.backup('manual');
    await waitFor(() => log.includes('backup (manual) waits for the charge in flight'), 'the backup to wait');
    expect(backups.list()).toEqual([]);
    expect(readdirSync(stick)).toEqual([]);

    await charge.end();
    const taken = await backup;
    expect(taken?.path && existsSync(taken.path)).toBe(true);
    expect(await taken?.copy).toEqual({ copiedTo: join(stick, basename(taken!.path)) });
    await upkeep.stop();
  });

  it('a charge that starts after the backup was taken holds its copy: nothing is written to the stick meanwhile', async () => {
    const { stick, backups } = setup();
    const charges = new ChargesInFlight();
    const { upkeep, log } = upkeepFor(backups, stick, charges);
    // The charge starts as soon as the backup is taken, before its copy (the log line is the moment in between).
    let charge: ReturnType<typeof heldCharge> | undefined;
    const original = backups.take.bind(backups);
    backups.take = async (...args) => {
      const taken = await original(...args);
      charge = heldCharge(charges);
      return taken;
    };
    const taken = await upkeep.backup('periodic');
    const waiting = `backup (periodic): the copy to ${stick} waits for the charge in flight`;
    await waitFor(() => log.includes(waiting), 'the copy to wait');
    expect(readdirSync(stick)).toEqual([]);
    const copied = settledFlag(taken!.copy!);
    expect(copied()).toBe(false);

    await charge!.end();
    expect(await taken!.copy).toEqual({ copiedTo: join(stick, basename(taken!.path)) });
    expect(log).toContain(`backup (periodic) copied to ${join(stick, basename(taken!.path))}`);
    await upkeep.stop();
  });

  it('Loket closing does not wait for a copy stuck on the stick; the copy then stops and leaves no half file', async () => {
    const { stick, backups } = setup();
    const { upkeep, log } = upkeepFor(backups, stick, new ChargesInFlight());
    // The backup's name, from the clock's start (FAKE_CLOCK_START): where the copy will write.
    const name = 'loket-20250314-030000000-manual.db';
    const fifo = join(stick, `${name}.part`);
    mkfifo(fifo);
    const taken = await upkeep.backup('manual');
    expect(basename(taken!.path)).toBe(name);
    // Nobody reads the stick: the copy is stuck opening it (off the main thread). Closing goes on regardless.
    await upkeep.stop();
    // Unstick it as the OS would when the stick goes: the copy sees Loket closed and cleans up.
    const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const result: CopyResult = await taken!.copy!;
      expect(result).toEqual({ copyError: `the copy to ${stick} failed: Loket closed before it was done` });
    } finally {
      closeSync(fd);
    }
    expect(readdirSync(stick)).toEqual([]);
    expect(log.some((line) => line.includes('Loket closed before it was done'))).toBe(true);
  });
});

describe('the app: a backup waits for a real charge in flight', () => {
  it('a backup asked for while an order is being sent starts only once the gateway has answered', async () => {
    const { root, stick } = setup();
    const dataDir = join(root, 'data');
    const store = openStoreBooks({ dataDir, env: {} });
    store.settings.set(SETTINGS_KEY, { ...store.settings.load(), backup: { copyTo: stick } });
    store.close();
    // The gateway holds its answer until the test moves its clock on: the charge stays in flight meanwhile.
    const { sandbox, clock } = await startTestSandbox(
      { appId: SANDBOX_DEFAULTS.appId, appKey: SANDBOX_DEFAULTS.appKey },
      { fakeClock: true },
    );
    const log: string[] = [];
    const host = await startAppHost({ version: 't', dataDir, env: gatewayEnv(sandbox), log: (l) => log.push(l) });
    try {
      await waitFor(() => log.some((l) => l.startsWith('backup (start) copied to')), 'the backup at start');
      const before = readdirSync(stick);
      sandbox.faults.set({ latency_ms: 5000, count: 1 });
      const charge = host.app.createOrder({ methodId: 'qris_dynamic', amount: 15000, itemName: 'Roti' });
      await waitFor(() => sandbox.orders.all().length === 1, 'the order to reach the gateway');

      const backup = host.upkeep.backup('manual');
      await waitFor(() => log.includes('backup (manual) waits for the charge in flight'), 'the backup to wait');
      expect(new Backups(dataDir).list().map((b) => b.reason)).toEqual(['start']);
      expect(readdirSync(stick)).toEqual(before);

      clock!.advance(5000);
      const charged = await charge;
      expect(charged.ok).toBe(true);
      const taken = await backup;
      expect(taken?.reason).toBe('manual');
      expect(await taken?.copy).toEqual({ copiedTo: join(stick, basename(taken!.path)) });
    } finally {
      await host.close();
      await sandbox.close();
    }
  });
});
