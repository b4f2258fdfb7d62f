// An answer waiting to be written (the disk refused it) whose write then fails for another reason than the disk:
// the next sale's charge goes on, and the waiting order goes to `unknown` (the attention queue), never left
// `creating` and never thrown at another sale.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLoket, type Loket } from '../../src-main/runtime';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-pending-');
let loket: Loket;
beforeAll(async () => {
  loket = await openLoket({ dataDir: dir.path, env: {} });
});
afterAll(async () => {
  await loket.close();
  dir.remove();
});

describe('an answer that cannot be written after all', () => {
  it('does not fail the next charge; its order turns unknown with the reason', async () => {
    const qris = loket.methods.find((m) => m.id === 'qris_dynamic')!;
    const stuck = loket.log.create(
      {
        id: 'T01-STUCK-1',
        terminalId: 'T01',
        api: 'v2',
        methodId: qris.id,
        kind: qris.kind,
        amount: 8_000,
        currency: 'IDR',
        itemName: 'Tertunda',
        userId: 'walkin',
        training: true,
        requestBody: '{}',
      },
      { source: 'cashier', actor: 'cashier' },
    );
    // The waiting write as OrderService keeps it after a full disk, failing now for a reason that is not the disk.
    const pending = (loket.orders as unknown as { pending: Map<string, { order: unknown; write: () => unknown }> })
      .pending;
    pending.set(stuck.id, {
      order: stuck,
      write: () => {
        throw new Error('the order changed meanwhile');
      },
    });

    const next = await loket.orders.create(
      { methodId: 'qris_dynamic', amount: 9_000, itemName: 'Berikutnya' },
      { source: 'cashier', actor: 'cashier' },
    );
    expect(next.ok).toBe(true);
    expect(loket.orders.pendingWrites()).toBe(0);
    const after = loket.log.require(stuck.id);
    expect(after.state).toBe('unknown');
    expect(loket.log.events(stuck.id).at(-1)?.reason).toMatch(/could not be recorded: the order changed meanwhile/);
  });
});
