// A full disk, for real: Loket's data folder on a small tmpfs, filled to several levels of free space around
// the point where SQLite's writes start failing, against a standalone sandbox whose own order list is the
// truth. No order may reach the gateway without being reported with its id, and every one ends in the log
// once space returns (docs/when-things-break.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Order } from '../../src-main/common/order';
import type { CreateOutcome } from '../../src-main/core/payments/order-service';
import { checkDatabase } from '../../src-main/db/open';
import { openLoket, type Loket } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { gatewayEnv } from './helpers/loket';
import { mountSmallDisk, smallDiskAvailable } from './helpers/small-disk';

const RUN = smallDiskAvailable();

let gateway: SandboxHandle;
beforeAll(async () => {
  gateway = await startSandbox({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await gateway?.close();
});

async function charge(loket: Loket, n: number): Promise<CreateOutcome> {
  return loket.orders.create({ methodId: 'qris_dynamic', amount: 1000 + n, itemName: `Kopi ${n}` }, { source: 'cli' });
}

describe.runIf(RUN)('the data folder on a disk that fills up (a real tmpfs; mounting needs root, as CI has)', () => {
  // Free space left after filling, from "nothing at all" to "a few pages of SQLite": where writes start failing.
  const seen = new Set<string>();
  it.each([0, 16, 48, 64, 72, 80, 88, 96, 112, 128, 192].map((kb) => kb * 1024))(
    'with %i bytes left: every order the gateway got is reported with its id and reaches the log once space returns',
    async (leave) => {
      const disk = mountSmallDisk(8 * 1024 * 1024);
      let loket: Loket | undefined;
      try {
        // The threshold off, so the writes themselves meet the full disk (the refusal up front is the next test).
        loket = await openLoket({
          dataDir: join(disk.dir, 'data'),
          env: gatewayEnv(gateway, { LOKET_MIN_FREE_MB: '0' }),
        });
        const before = await charge(loket, 0);
        expect(before.ok).toBe(true);

        disk.fill(leave);
        const outcomes: CreateOutcome[] = [];
        for (let n = 1; n <= 12; n++) outcomes.push(await charge(loket, n));

        for (const o of outcomes) seen.add(o.ok ? 'ok' : o.failure.class);
        const reported = new Map<string, CreateOutcome>();
        for (const o of outcomes) if (o.order) reported.set(o.order.id, o);
        const atGateway = gateway.orders
          .all()
          .map((o) => o.request.merchant_transaction_id as string)
          .filter((id) => outcomes.some((o) => o.order?.id === id));
        for (const id of atGateway) {
          const outcome = reported.get(id);
          // Reported with its id: paid data in hand, or "do not charge again" — never "nothing was sent".
          expect(outcome, id).toBeDefined();
          if (!outcome!.ok) expect(outcome!.failure.class, id).toBe('unknown');
        }
        for (const o of outcomes) {
          if (!o.ok && o.failure.class === 'storage') {
            // "Nothing was sent" must be true.
            expect(o.failure.message).toMatch(/Nothing was sent/);
            if (o.order) expect(atGateway).not.toContain(o.order.id);
          }
        }

        // Space returns: what waited is written, and no order is left creating.
        disk.release();
        expect(loket.orders.flushPendingWrites()).toBe(0);
        for (const id of atGateway) {
          const logged = loket.log.get(id) as Order;
          expect(logged, id).toBeDefined();
          expect(logged.state, id).toBe('awaiting_payment');
        }
        expect(loket.log.list({ state: 'creating' })).toEqual([]);
        expect(checkDatabase(loket.db, 'full')).toEqual([]);
        // And charging works again.
        expect((await charge(loket, 99)).ok).toBe(true);
      } finally {
        await loket?.close();
        disk.unmount();
      }
    },
  );

  it('across those levels both failures were met: refused before sending, and unrecorded after sending', () => {
    expect([...seen].sort()).toEqual(expect.arrayContaining(['ok', 'storage', 'unknown']));
  });

  it('below the free-space threshold a charge is refused up front, saying how much is free, and nothing is sent', async () => {
    const disk = mountSmallDisk(8 * 1024 * 1024);
    let loket: Loket | undefined;
    try {
      loket = await openLoket({
        dataDir: join(disk.dir, 'data'),
        env: gatewayEnv(gateway, { LOKET_MIN_FREE_MB: '4' }),
      });
      expect((await charge(loket, 0)).ok).toBe(true);
      const sent = gateway.orders.all().length;
      disk.fill(1024 * 1024);
      const refused = await charge(loket, 1);
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.failure.class).toBe('storage');
        expect(refused.failure.message).toMatch(/nearly full: .* free, and Loket needs at least 4\.0 MB/);
        expect(refused.failure.message).toMatch(/Nothing was sent/);
        expect(refused.order).toBeUndefined();
      }
      expect(gateway.orders.all()).toHaveLength(sent);
      disk.release();
      expect((await charge(loket, 2)).ok).toBe(true);
    } finally {
      await loket?.close();
      disk.unmount();
    }
  });

  it('a data folder on a read-only disk: the message names the file and the cause', async () => {
    const disk = mountSmallDisk(4 * 1024 * 1024);
    try {
      const dataDir = join(disk.dir, 'data');
      await (await openLoket({ dataDir, env: gatewayEnv(gateway) })).close();
      disk.remountReadOnly();
      await expect(openLoket({ dataDir, env: gatewayEnv(gateway) })).rejects.toMatchObject({
        name: 'DatabaseProblem',
        kind: 'read_only',
        message: expect.stringContaining(join(dataDir, 'loket.db')),
      });
    } finally {
      disk.unmount();
    }
  });
});
