// One wait on the disk per order (docs/orders.md, "Durability"): the `creating` row is committed with
// synchronous=FULL before the request leaves; the gateway's answer is committed without waiting for the disk.
// A power cut can lose that answer, never the order: this test takes the files exactly as a power cut would
// leave them (the creating row on disk, the answer not), and shows start-up and reconciliation recover it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { openDatabase } from '../../src-main/db/open';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { loketAgainst, tempDir } from './helpers/loket';
import { waitFor } from './helpers/wait-for';

let sandbox: SandboxHandle;
const dir = tempDir('loket-durability-');
beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await sandbox.close();
  dir.remove();
});

describe('the answer commit, relaxed', () => {
  it('commits without waiting for the disk, and the connection is back to synchronous=FULL afterwards', async () => {
    const loket = await loketAgainst(sandbox, join(dir.path, 'a'));
    try {
      const outcome = await loket.orders.create(
        { methodId: 'qris_dynamic', amount: 2000, itemName: 'Teh' },
        { source: 'cli' },
      );
      expect(outcome.ok).toBe(true);
      // 2 = FULL: the next order's creating row waits for the disk again (and syncs this answer with it).
      expect(loket.db.pragma('synchronous', { simple: true })).toBe(2);
      // What the log returned is what it stored, without reading it twice.
      expect(outcome.order).toEqual(loket.log.get(outcome.order!.id));
    } finally {
      await loket.close();
    }
  });

  it('a power cut after the request left loses at most the answer: the order comes back unknown and reconcile recovers it', async () => {
    const live = join(dir.path, 'b');
    const cut = join(dir.path, 'b-after-power-cut');
    const loket = await loketAgainst(sandbox, live);
    // Hold the gateway's answer long enough to take the files between the two commits.
    sandbox.faults.set({
      latency_ms: 400,
      http_status: null,
      drop_after_store: false,
      malformed_json: false,
      count: 1,
    });
    const charging = loket.orders.create(
      { methodId: 'qris_dynamic', amount: 3000, itemName: 'Kopi' },
      { source: 'cli' },
    );
    const reader = new BetterSqlite3(join(live, 'loket.db'), { readonly: true });
    let id = '';
    try {
      await waitFor(() => {
        const row = reader.prepare("SELECT id FROM orders WHERE state = 'creating'").get() as
          { id: string } | undefined;
        if (row) id = row.id;
        return row !== undefined;
      }, 'the creating row on disk');
      // The disk as a power cut leaves it: what was synced (the creating row), not the answer still to come.
      mkdirSync(cut, { recursive: true });
      for (const f of ['loket.db', 'loket.db-wal'])
        if (existsSync(join(live, f))) copyFileSync(join(live, f), join(cut, f));
    } finally {
      reader.close();
    }
    const answered = await charging;
    expect(answered.ok).toBe(true);
    await loket.close();

    // The till starts again on what the disk kept.
    const db = openDatabase(join(cut, 'loket.db'));
    const interrupted = new OrderLog(db).markInterrupted();
    db.close();
    expect(interrupted).toEqual([id]);
    const after = await loketAgainst(sandbox, cut);
    try {
      expect(after.log.get(id)?.state).toBe('unknown');
      const results = await after.orders.reconcile({ source: 'reconcile' });
      expect(results).toEqual([{ id, outcome: expect.stringMatching(/^awaiting_payment/) }]);
      expect(after.log.get(id)?.state).toBe('awaiting_payment');
      // Recovered, not sent twice: the gateway has exactly one order with this id.
      expect(sandbox.orders.all().filter((o) => o.request.merchant_transaction_id === id)).toHaveLength(1);
    } finally {
      await after.close();
    }
  });
});
