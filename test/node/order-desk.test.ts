// The manager's order desk (docs/end-of-day.md, "The order desk"): any day or range of days in the store's zone,
// filters, a search by every key, pages, and one order with its whole history — on a live store's real file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src-main/common/order';
import { OrderNotFoundError } from '../../src-main/common/order-policy';
import type { DeskQuery } from '../../src-main/common/reports';
import { deskQuery, orderDetail } from '../../src-main/core/reports/order-desk';
import { faultSettingsSchema } from '../../src-main/sandbox/faults';
import { DAY_MS, openBooks, STORE_ZONE, type Books } from './helpers/books';

const DAY1 = '2025-03-14';
const DAY2 = '2025-03-15';
let books: Books;
const o: Record<string, Order> = {};

const desk = (query: Partial<DeskQuery>) => deskQuery(books.loket.log, { from: DAY1, to: DAY1, ...query }, STORE_ZONE);
const ids = (query: Partial<DeskQuery>) => desk(query).orders.map((x) => x.id);

beforeAll(async () => {
  books = await openBooks();
  const { ani, budi } = books.staff;
  const next = () => books.advance(1000);
  o.coffee = await books.sell({ amount: 25_000 }, ani);
  await books.settle(o.coffee.id, 'PAID');
  await next();
  o.va = await books.sell({ methodId: 'va_bca', amount: 150_000, customerName: 'Siti Rahayu' }, budi);
  await next();
  o.store = await books.sell({ methodId: 'va_alfamart', amount: 30_000 });
  await next();
  o.ovo = await books.sell({ methodId: 'ewallet_ovo', amount: 25_000 }, ani);
  books.loket.orders.cancel(o.ovo.id, { source: 'cashier', reason: 'customer left' });
  await next();
  // An answer that is not JSON: kept as the text it was.
  books.sandbox.faults.set(faultSettingsSchema.parse({ malformed_json: true, count: 1 }));
  const garbled = await books.loket.orders.create(
    { methodId: 'qris_dynamic', amount: 7_000, itemName: 'Permen' },
    { source: 'cashier', staffId: budi },
  );
  o.garbled = garbled.order!;
  expect(o.garbled.state).toBe('unknown');

  await books.advance(DAY_MS);
  o.tomorrow = await books.sell({ amount: 25_000 }, ani);
  await next();
  o.big = await books.sell({ amount: 1_000_000 }, budi);
  for (const x of Object.values(o)) o[Object.keys(o).find((k) => o[k] === x)!] = books.loket.log.require(x.id);
});

afterAll(async () => {
  await books?.close();
});

describe('the order desk', () => {
  it("a day's orders, newest first, with the total; a range of days", () => {
    const page = desk({});
    expect(page.total).toBe(5);
    expect(page.orders.map((x) => x.id)).toEqual([o.garbled!.id, o.ovo!.id, o.store!.id, o.va!.id, o.coffee!.id]);
    expect(page.orders[4]).toEqual(o.coffee);
    expect(ids({ from: DAY2, to: DAY2 })).toEqual([o.big!.id, o.tomorrow!.id]);
    expect(desk({ to: DAY2 }).total).toBe(7);
    expect(desk({ from: '2025-03-13', to: '2025-03-13' })).toEqual({ orders: [], total: 0 });
  });

  it('filters by state, method and the staff member who sold', () => {
    expect(ids({ state: 'paid' })).toEqual([o.coffee!.id]);
    expect(ids({ state: 'cancelled' })).toEqual([o.ovo!.id]);
    expect(ids({ methodId: 'va_bca' })).toEqual([o.va!.id]);
    expect(ids({ staffId: books.staff.ani })).toEqual([o.ovo!.id, o.coffee!.id]);
    expect(ids({ staffId: books.staff.budi, to: DAY2 })).toEqual([o.big!.id, o.garbled!.id, o.va!.id]);
    // The day went by: the gateway let the orders still waiting expire (its callbacks said so), the one whose
    // answer could not be read too.
    expect(ids({ state: 'expired' })).toEqual([o.garbled!.id, o.store!.id, o.va!.id]);
    expect(ids({ state: 'expired', methodId: 'va_alfamart' })).toEqual([o.store!.id]);
    expect(desk({ state: 'failed' }).total).toBe(0);
  });

  it('searches by order id (a prefix), gateway transaction id, VA number, store code and amount', () => {
    expect(ids({ search: o.va!.id })).toEqual([o.va!.id]);
    expect(ids({ search: o.va!.id.slice(0, 20).toLowerCase() })).toEqual([o.va!.id]);
    expect(ids({ search: 'T01-2025', to: DAY2 })).toHaveLength(7);
    const va = o.va!.instruction;
    if (va?.type !== 'virtual_account') throw new Error('the VA order has no virtual-account instruction');
    expect(o.va!.gatewayTransactionId).toBeTruthy();
    expect(ids({ search: o.va!.gatewayTransactionId! })).toEqual([o.va!.id]);
    expect(ids({ search: ` ${va.va} ` })).toEqual([o.va!.id]);
    const store = o.store!.instruction;
    if (store?.type !== 'virtual_account') throw new Error('the store order has no payment code');
    expect(ids({ search: store.va })).toEqual([o.store!.id]);
    // An amount: digits, or as people write it.
    expect(ids({ search: '25000' })).toEqual([o.ovo!.id, o.coffee!.id]);
    expect(ids({ search: 'Rp25.000' })).toEqual([o.ovo!.id, o.coffee!.id]);
    expect(ids({ search: 'rp 1.000.000', to: DAY2 })).toEqual([o.big!.id]);
    expect(ids({ search: '25000', state: 'paid' })).toEqual([o.coffee!.id]);
    // A VA number typed as it is read out, in groups; with dashes too.
    const grouped = va.va.replace(/(.{4})(?=.)/g, '$1 ');
    expect(grouped).toContain(' ');
    expect(ids({ search: grouped })).toEqual([o.va!.id]);
    expect(ids({ search: va.va.replace(/(.{4})(?=.)/g, '$1-') })).toEqual([o.va!.id]);
    // A part of the item's name, whatever its case.
    expect(ids({ search: 'permen' })).toEqual([o.garbled!.id]);
    expect(ids({ search: 'KOPI' })).toEqual([o.ovo!.id, o.store!.id, o.va!.id, o.coffee!.id]);
    // An order by the store's clock: the minute it was made, in Asia/Jakarta (they were made at 10:00 WIB).
    expect(ids({ search: '10:00' })).toEqual([o.garbled!.id, o.ovo!.id, o.store!.id, o.va!.id, o.coffee!.id]);
    expect(ids({ search: '10.00', to: DAY2 })).toHaveLength(7);
    expect(ids({ search: '03:00' })).toEqual([]);
    expect(ids({ search: '10:01' })).toEqual([]);
    // Wildcards are text, not patterns; nothing matches what is not there.
    expect(ids({ search: '%' })).toEqual([]);
    expect(ids({ search: 'T01_2025' })).toEqual([]);
    expect(ids({ search: '999999' })).toEqual([]);
    expect(desk({ search: '   ' }).total).toBe(5);
  });

  it('pages with limit and offset; the total is of everything that matched', () => {
    const all = ids({ to: DAY2 });
    expect(desk({ to: DAY2, limit: 3 })).toMatchObject({ total: 7 });
    expect(ids({ to: DAY2, limit: 3 })).toEqual(all.slice(0, 3));
    expect(ids({ to: DAY2, limit: 3, offset: 3 })).toEqual(all.slice(3, 6));
    expect(ids({ to: DAY2, limit: 3, offset: 6 })).toEqual(all.slice(6));
    expect(desk({ to: DAY2, limit: 3, offset: 9 })).toEqual({ orders: [], total: 7 });
  });

  it('refuses a query it cannot answer, naming the field', () => {
    const refused = (query: Partial<DeskQuery>, message: RegExp) => {
      expect(() => desk(query)).toThrow(message);
      try {
        desk(query);
      } catch (err) {
        expect((err as { code?: string }).code).toBe('invalid_arguments');
      }
    };
    refused({ limit: 0 }, /limit: a whole number from 1 to 500/);
    refused({ limit: 501 }, /limit/);
    refused({ limit: 2.5 }, /limit/);
    refused({ offset: -1 }, /offset/);
    refused({ state: 'lost' as never }, /state: one of creating, awaiting_payment/);
    refused({ from: DAY2, to: DAY1 }, /to: must not be before from/);
    refused({ from: '2025-02-30' }, /from: a store day/);
    refused({ search: 'x'.repeat(65) }, /search: at most 64 characters/);
  });

  it('one order: its history, the request as sent, the answer as received, who sold it', () => {
    const detail = orderDetail(books.loket.log, o.coffee!.id, 'Ani');
    expect(detail.order).toEqual(o.coffee);
    expect(detail.staffName).toBe('Ani');
    expect(detail.events.map((e) => [e.type, e.from, e.to, e.source])).toEqual([
      ['created', undefined, 'creating', 'cashier'],
      ['state_changed', 'creating', 'awaiting_payment', 'gateway'],
      ['state_changed', 'awaiting_payment', 'paid', 'callback'],
    ]);
    expect(detail.events[2]!.payload).toMatchObject({ callback: { status: 'PAID', amount: 25_000 } });
    expect(detail.request).toEqual(JSON.parse(books.loket.log.requestBody(o.coffee!.id)!));
    expect(detail.request).toMatchObject({ merchant_transaction_id: o.coffee!.id, amount: 25_000 });
    expect(detail.response).toMatchObject({ success: true });

    const garbled = orderDetail(books.loket.log, o.garbled!.id);
    expect(typeof garbled.response).toBe('string');
    expect(garbled.response).toBe(books.loket.log.responseBody(o.garbled!.id));
    expect(garbled.staffName).toBeUndefined();
    expect(() => orderDetail(books.loket.log, 'T01-NO-SUCH')).toThrow(OrderNotFoundError);
  });
});
