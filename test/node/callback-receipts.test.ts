import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IllegalTransitionError } from '../../src-main/common/order-policy';
import { CallbackReceipts } from '../../src-main/core/confirmation/callback-receipts';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { openDatabase, type Database } from '../../src-main/db/open';

let dir: string;
let db: Database;
let log: OrderLog;
let receipts: CallbackReceipts;
const clock = { now: () => new Date('2025-03-01T03:00:00.000Z') };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loket-receipts-'));
  db = openDatabase(join(dir, 'loket.db'));
  log = new OrderLog(db, clock);
  receipts = new CallbackReceipts(db, clock);
});

afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function awaitingOrder(id: string): void {
  log.create(
    {
      id,
      terminalId: 'T01',
      api: 'v2',
      methodId: 'qris_dynamic',
      kind: 'qris',
      amount: 1000,
      currency: 'IDR',
      itemName: 'x',
      userId: 'u',
      training: true,
      requestBody: '{}',
    },
    { source: 'cli' },
  );
  log.transition(id, 'awaiting_payment', { source: 'gateway' });
}

const rows = () =>
  db.prepare('SELECT received_at, order_id, status, body_sha256, outcome FROM callback_receipts ORDER BY id').all();

describe('CallbackReceipts', () => {
  it('detects a replayed callback by its body hash', () => {
    const body = '{"merchant_transaction_id":"CB-1","status":"PAID"}';
    const bodySha256 = sha256(body);
    expect(receipts.record({ bodySha256, orderId: 'CB-1', status: 'PAID', outcome: 'applied' })).toBe(true);
    expect(receipts.record({ bodySha256, orderId: 'CB-1', status: 'PAID', outcome: 'applied' })).toBe(false);
    // One byte more is another body, however alike.
    expect(receipts.record({ bodySha256: sha256(body + ' '), outcome: 'unknown order' })).toBe(true);
    expect(rows()).toEqual([
      {
        received_at: '2025-03-01T03:00:00.000Z',
        order_id: 'CB-1',
        status: 'PAID',
        body_sha256: bodySha256,
        outcome: 'applied',
      },
      {
        received_at: '2025-03-01T03:00:00.000Z',
        order_id: null,
        status: null,
        body_sha256: sha256(body + ' '),
        outcome: 'unknown order',
      },
    ]);
  });

  it('refuses anything but a lowercase-hex SHA-256 digest, and writes nothing', () => {
    const good = sha256('x');
    for (const bad of [good.toUpperCase(), good.slice(1), `${good}0`, 'g'.repeat(64), ''])
      expect(() => receipts.record({ bodySha256: bad, outcome: 'x' }), bad).toThrow(
        'bodySha256 must be a SHA-256 digest in lowercase hex',
      );
    expect(rows()).toEqual([]);
  });

  it('joins an outer transaction on the log: the receipt and the state change commit together, or neither', () => {
    awaitingOrder('B-1');
    const sha = sha256('B-1 PAID');
    expect(() =>
      log.atomically(() => {
        expect(receipts.inTransaction).toBe(true);
        receipts.record({ bodySha256: sha, orderId: 'B-1', status: 'PAID', outcome: 'x' });
        log.transition('B-1', 'paid', { source: 'callback' });
        throw new Error('crash between the two');
      }),
    ).toThrow('crash between the two');
    expect(log.get('B-1')!.state).toBe('awaiting_payment');
    // The receipt rolled back too, so the gateway's retry is not mistaken for a replay.
    expect(rows()).toEqual([]);
    expect(
      log.atomically(
        () =>
          receipts.record({ bodySha256: sha, orderId: 'B-1', status: 'PAID', outcome: 'x' }) &&
          log.transition('B-1', 'paid', { source: 'callback' }).state,
      ),
    ).toBe('paid');
    expect(rows()).toHaveLength(1);
    expect(receipts.record({ bodySha256: sha, orderId: 'B-1', status: 'PAID', outcome: 'x' })).toBe(false);
  });

  it('a failure later in the outer transaction undoes a receipt recorded first, and only that', () => {
    awaitingOrder('B-2');
    const first = sha256('first');
    expect(receipts.record({ bodySha256: first, outcome: 'kept' })).toBe(true);
    expect(() =>
      log.atomically(() => {
        receipts.record({ bodySha256: sha256('second'), outcome: 'undone' });
        log.transition('B-2', 'creating', { source: 'callback' });
      }),
    ).toThrow(IllegalTransitionError);
    expect(rows().map((r) => (r as { outcome: string }).outcome)).toEqual(['kept']);
  });

  it("a store on another connection is not in the log's transaction (the listener refuses such a pair)", () => {
    const other = openDatabase(join(dir, 'loket.db'));
    try {
      const elsewhere = new CallbackReceipts(other, clock);
      log.atomically(() => {
        expect(elsewhere.inTransaction).toBe(false);
        expect(receipts.inTransaction).toBe(true);
      });
    } finally {
      other.close();
    }
  });
});
