// merchant_transaction_id carries the store and the terminal (docs/orders.md, docs/store-book.md): unique per
// appid across a chain, never longer than the interface's 36 characters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMerchantTransactionId } from '../../src-main/core/payments/order-id';
import { openLoket } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { LocalBook } from '../../src-main/store-book/local-book';
import { FakeClock } from './helpers/fake-clock';
import { gatewayEnv, tempDir } from './helpers/loket';

const clock = new FakeClock('2026-11-22T07:15:03.123Z');

describe('merchant_transaction_id', () => {
  it('terminal, UTC time to the millisecond, four random characters; with the store code first once enrolled', () => {
    expect(newMerchantTransactionId('T01', clock)).toMatch(/^T01-20261122-071503123-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(newMerchantTransactionId('T01', clock, 'JK1')).toMatch(/^JK1-T01-20261122-071503123-[0-9A-HJKMNP-TV-Z]{4}$/);
    // The longest store code and terminal id still fit the interface's 36 characters.
    expect(newMerchantTransactionId('KASIR123', clock, 'ZZ9')).toHaveLength(36);
    expect(() => newMerchantTransactionId('T01', clock, 'JKT1')).toThrow(
      /store code: 1 to 3 capital letters or digits/,
    );
    expect(() => newMerchantTransactionId('T01', clock, 'jk1')).toThrow(/store code/);
    expect(() => newMerchantTransactionId('t01', clock)).toThrow(/terminal id/);
  });

  describe('a till', () => {
    let sandbox: SandboxHandle;
    beforeAll(async () => {
      sandbox = await startSandbox({ host: '127.0.0.1', port: 0, clock, log: () => undefined });
    });
    afterAll(() => sandbox?.close());

    it('orders of a till enrolled in a store book start with the store’s code; before enrolment they do not', async () => {
      const folder = tempDir('loket-merchant-id-');
      try {
        const env = gatewayEnv(sandbox, { LOKET_TERMINAL_ID: 'T02' });
        const sale = async () => {
          const loket = await openLoket({ dataDir: folder.path, env, clock });
          try {
            const outcome = await loket.orders.create(
              { methodId: 'qris_dynamic', amount: 25_000, itemName: 'Kopi' },
              { source: 'cashier' },
            );
            if (!outcome.ok) throw new Error(outcome.failure.message);
            return outcome.order.id;
          } finally {
            await loket.close();
          }
        };
        expect(await sale()).toMatch(/^T02-20261122-/);
        const book = LocalBook.open(folder.path);
        book.saveLink({
          storeId: '0195a000-0000-7000-8000-000000000000',
          storeCode: 'BD2',
          terminalId: 'T02',
          url: 'postgres://loket_bd2_t02@store.local/toko',
          credential: 'store-book:BD2:T02:0195a000',
          enrolledAt: clock.now().toISOString(),
        });
        book.close();
        expect(await sale()).toMatch(/^BD2-T02-20261122-/);
      } finally {
        folder.remove();
      }
    });
  });
});
