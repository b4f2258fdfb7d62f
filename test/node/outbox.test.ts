// The outbox (docs/store-book.md): UUIDv7s, canonical JSON, and the order log writing one numbered outbox row per
// event in the event's own transaction — on a real SQLite file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { canonicalJson, sha256Hex } from '../../src-main/db/canonical-json';
import { openDatabase, type Database } from '../../src-main/db/open';
import { UUID_V7_PATTERN, Uuidv7Generator, uuidv7Of, uuidv7Time } from '../../src-main/db/uuidv7';
import { appendToOutbox, OutboxOutsideTransactionError } from '../../src-main/core/outbox/outbox';
import { OrderLog, type NewOrder } from '../../src-main/core/orders/order-log';
import { IllegalTransitionError } from '../../src-main/common/order-policy';
import { tempDir } from './helpers/loket';

describe('UUIDv7', () => {
  it('has the version 7 layout: the time in the first 48 bits, version and variant bits, lower-case hex', () => {
    const ms = Date.parse('2026-11-23T01:15:02.123Z');
    const id = uuidv7Of(ms, 0x123, new Uint8Array([0xff, 1, 2, 3, 4, 5, 6, 7]));
    expect(id).toMatch(UUID_V7_PATTERN);
    expect(id).toBe(
      `${ms
        .toString(16)
        .padStart(12, '0')
        .replace(/^(.{8})(.{4})$/, '$1-$2')}-7123-bf01-020304050607`,
    );
    expect(uuidv7Time(id)).toBe(ms);
    expect(() => uuidv7Of(-1, 0, new Uint8Array(8))).toThrow(RangeError);
    expect(() => uuidv7Of(ms, 4096, new Uint8Array(8))).toThrow(/counter/);
    expect(() => uuidv7Time('0195a000-0000-4000-8000-000000000000')).toThrow(/not a UUIDv7/);
  });

  it('a generator hands out strictly increasing ids: many in one millisecond, a clock that steps back', () => {
    const gen = new Uuidv7Generator();
    const t = Date.parse('2026-11-23T01:15:02.123Z');
    const times = [t, t, t, t + 5, t + 5, t - 60_000, t - 1, t + 6, ...Array<number>(5000).fill(t + 7), t + 7];
    const ids = times.map((ms) => gen.next(ms));
    for (const id of ids) expect(id).toMatch(UUID_V7_PATTERN);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!, `${ids[i - 1]} < ${ids[i]}`).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // A clock that stepped back keeps the last millisecond; 5,000 in one millisecond carry over into the next.
    expect(uuidv7Time(ids[5]!)).toBe(t + 5);
    expect(uuidv7Time(ids.at(-1)!)).toBeGreaterThan(t + 7);
  });

  it('two generators never hand out the same id for the same millisecond (62 random bits each)', () => {
    const a = new Uuidv7Generator();
    const b = new Uuidv7Generator();
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      ids.add(a.next(1_700_000_000_000));
      ids.add(b.next(1_700_000_000_000));
    }
    expect(ids.size).toBe(2000);
  });
});

describe('canonical JSON', () => {
  it('sorts members by their UTF-16 code units at every depth, drops undefined members, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [3, { z: null, y: 'é', ä: true, A: undefined }], '': -0, '€': 1.5e-7 })).toBe(
      '{"":0,"a":[3,{"y":"é","z":null,"ä":true}],"b":1,"€":1.5e-7}',
    );
    expect(canonicalJson([undefined, 'a\u2028"'])).toBe('[null,"a\u2028\\""]');
  });

  it('is the same text for the same value however its members were ordered, and the hash follows it', () => {
    const one = canonicalJson(JSON.parse('{"event":{"at":"x","seq":1},"snapshot":{"amount":25000,"id":"A"}}'));
    const two = canonicalJson({ snapshot: { id: 'A', amount: 25000 }, event: { seq: 1, at: 'x' } });
    expect(one).toBe(two);
    expect(sha256Hex(one)).toBe(sha256Hex(two));
    expect(sha256Hex(one)).not.toBe(sha256Hex(canonicalJson({ snapshot: { id: 'A', amount: 25001 } })));
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('refuses what is not JSON, naming where it is', () => {
    expect(() => canonicalJson({ a: [1, NaN] })).toThrow(/the value\.a\[1\] is NaN/);
    expect(() => canonicalJson({ at: new Date(0) })).toThrow(/the value\.at is not a plain object/);
    expect(() => canonicalJson({ n: 1n })).toThrow(/bigint/);
    expect(() => canonicalJson(() => 1)).toThrow(/function/);
  });
});

describe('the order log writes the outbox', () => {
  let dir: { path: string; remove: () => void };
  let db: Database;
  let log: OrderLog;
  let now: Date;

  beforeEach(() => {
    dir = tempDir('loket-outbox-');
    db = openDatabase(join(dir.path, 'loket.db'));
    now = new Date('2026-11-23T01:00:00.000Z');
    log = new OrderLog(db, { now: () => now });
  });
  afterEach(() => {
    db.close();
    dir.remove();
  });

  const order = (id: string, terminalId = 'T01'): NewOrder => ({
    id,
    terminalId,
    api: 'v2',
    methodId: 'qris_dynamic',
    kind: 'qris',
    amount: 25_000,
    currency: 'IDR',
    itemName: 'Kopi susu',
    userId: 'walkin-t01',
    training: false,
    requestBody: '{"amount":25000}',
  });

  interface Row {
    terminal_id: string;
    seq: number;
    uuid: string;
    stream: string;
    stream_id: string;
    type: string;
    at: string;
    payload: string;
    sha256: string;
  }
  const outbox = () => db.prepare('SELECT * FROM outbox ORDER BY terminal_id, seq').all() as Row[];

  it('one row per event, numbered 1, 2, 3 per terminal, each with the order as that write left it', () => {
    log.create(order('T01-A'), { source: 'cashier' });
    now = new Date(now.getTime() + 1000);
    log.transition('T01-A', 'awaiting_payment', { source: 'gateway' }, { gatewayTransactionId: 'G-1' });
    log.create(order('T02-B', 'T02'), { source: 'cashier' });
    now = new Date(now.getTime() + 1000);
    log.transition('T01-A', 'paid', { source: 'callback', payload: { status: 'PAID' } }, { paidAt: now.toISOString() });

    const rows = outbox();
    expect(rows.map((r) => [r.terminal_id, r.seq, r.stream_id, r.type])).toEqual([
      ['T01', 1, 'T01-A', 'created'],
      ['T01', 2, 'T01-A', 'state_changed'],
      ['T01', 3, 'T01-A', 'state_changed'],
      ['T02', 1, 'T02-B', 'created'],
    ]);
    const events = log.events('T01-A');
    rows.slice(0, 3).forEach((r, i) => {
      expect(r.stream).toBe('order');
      expect(r.at).toBe(events[i]!.at);
      expect(r.uuid).toMatch(UUID_V7_PATTERN);
      expect(uuidv7Time(r.uuid)).toBe(Date.parse(r.at));
      expect(r.payload).toBe(canonicalJson(JSON.parse(r.payload)));
      expect(r.sha256).toBe(sha256Hex(r.payload));
      expect(JSON.parse(r.payload).event).toMatchObject({ seq: events[i]!.seq, order_id: 'T01-A', type: r.type });
    });
    const states = rows.slice(0, 3).map((r) => JSON.parse(r.payload).snapshot);
    expect(states.map((s) => s.state)).toEqual(['creating', 'awaiting_payment', 'paid']);
    expect(states[1]).toMatchObject({ gateway_transaction_id: 'G-1', paid_at: null, amount: 25_000, training: 0 });
    expect(states[2].paid_at).toBe(now.toISOString());
    expect(JSON.parse(rows[2]!.payload).event.payload).toEqual({ status: 'PAID' });
    // Never the bodies sent to or received from the gateway: they stay on the till.
    expect(rows.some((r) => /request_body|response_body/.test(r.payload))).toBe(false);
  });

  it('an event that fails leaves no outbox row, and the next one takes the number it would have had', () => {
    log.create(order('T01-A'), { source: 'cashier' });
    expect(() => log.transition('T01-A', 'paid', { source: 'callback' })).toThrow(IllegalTransitionError);
    // Inside an outer write: the inner write fails and is caught, the outer one commits.
    log.atomically(() => {
      log.note('T01-A', { source: 'manager', reason: 'first' });
      try {
        log.atomically(() => {
          log.note('T01-A', { source: 'manager', reason: 'rolled back' });
          throw new Error('inner failure');
        });
      } catch {
        // the inner write's event and outbox row are gone with its savepoint
      }
      log.note('T01-A', { source: 'manager', reason: 'second' });
    });
    const rows = outbox();
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(rows.map((r) => JSON.parse(r.payload).event.reason)).toEqual([null, 'first', 'second']);
    expect(db.prepare('SELECT COUNT(*) FROM order_events').pluck().get()).toBe(3);
  });

  it('an event and its outbox row commit together: an outbox row that cannot be written undoes the event', () => {
    log.create(order('T01-A'), { source: 'cashier' });
    // A terminal id the outbox refuses (longer than 36): the order's creation fails whole.
    expect(() => log.create(order('X-1', 'T'.repeat(37)), { source: 'cashier' })).toThrow(/CHECK constraint/);
    expect(log.get('X-1')).toBeUndefined();
    expect(db.prepare('SELECT COUNT(*) FROM order_events').pluck().get()).toBe(1);
    expect(outbox()).toHaveLength(1);
  });

  it('appendToOutbox writes only inside the transaction of its event', () => {
    const event = {
      terminalId: 'T01',
      stream: 'sale',
      streamId: 'S-1',
      type: 'opened',
      at: now.toISOString(),
      event: { id: 1 },
      snapshot: { id: 'S-1', lines: [] },
    };
    expect(() => appendToOutbox(db, event)).toThrow(OutboxOutsideTransactionError);
    const row = db.transaction(() => appendToOutbox(db, event)).immediate();
    expect(row).toMatchObject({ terminalId: 'T01', seq: 1, stream: 'sale', streamId: 'S-1', type: 'opened' });
    expect(row.payload).toBe('{"event":{"id":1},"snapshot":{"id":"S-1","lines":[]}}');
    // The order log's next event continues the same terminal's sequence: one sequence for every stream.
    log.create(order('T01-A'), { source: 'cashier' });
    expect(outbox().map((r) => [r.stream, r.seq])).toEqual([
      ['sale', 1],
      ['order', 2],
    ]);
  });

  it('markInterrupted: every order it turns unknown gets its row, with the unknown state', () => {
    log.create(order('T01-A'), { source: 'cashier' });
    log.create(order('T01-B'), { source: 'cashier' });
    expect(log.markInterrupted()).toEqual(['T01-A', 'T01-B']);
    const rows = outbox().slice(2);
    expect(rows.map((r) => [r.seq, r.stream_id, JSON.parse(r.payload).snapshot.state])).toEqual([
      [3, 'T01-A', 'unknown'],
      [4, 'T01-B', 'unknown'],
    ]);
  });
});
