/**
 * Builds an order-log file for benchmark (b): Loket's schema and indexes (openDatabase runs the real
 * migrations), then orders and their events spread over N store-local days, written with direct prepared
 * INSERTs in one large transaction per day. OrderLog.create would take two transactions per order; the
 * bulk setup bypasses it for speed, and only the timed part goes through OrderLog.
 *
 * The measured day holds the same orders (same seed, same count) in every file built with the same
 * TargetDay, so comparing a big file with a small one isolates the cost of the table's size.
 */
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseGatewayDate } from '../../src-main/common/gateway-time';
import type { OrderState } from '../../src-main/common/order';
import type { PaymentKind } from '../../src-main/common/payment-methods';
import { openDatabase } from '../../src-main/db/open';
import type { SampleOrder, Samples } from './samples';

export const STORE_TIME_ZONE = 'Asia/Jakarta';

export interface DayPlan {
  /** Store-local days, oldest first, YYYY-MM-DD. */
  days: string[];
  /** UTC start of each day, and of the day after the last. */
  starts: number[];
  targetIndex: number;
  targetOrders: number;
}

export interface BuildResult {
  path: string;
  orders: number;
  events: number;
  ms: number;
  fileBytes: number;
  targetDayOrders: number;
  checkConstraints: boolean;
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** `days` store-local days ending yesterday; the measured day is the middle one. */
export function planDays(days: number, targetOrders: number, now = new Date()): DayPlan {
  // Jakarta has no daylight saving: UTC+7 all year.
  const today = new Date(now.getTime() + 7 * 3600 * 1000).toISOString().slice(0, 10);
  const first = addDays(today, -days);
  const list = Array.from({ length: days }, (_, i) => addDays(first, i));
  const starts = [...list, addDays(first, days)].map((d) => {
    const t = parseGatewayDate(`${d} 00:00:00`, STORE_TIME_ZONE);
    if (!t) throw new Error(`bad day ${d}`);
    return t.getTime();
  });
  return { days: list, starts, targetIndex: Math.floor(days / 2), targetOrders };
}

// ---------------------------------------------------------------- deterministic randomness

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function picker<T>(entries: readonly (readonly [T, number])[]): (r: number) => T {
  const total = entries.reduce((s, [, w]) => s + w, 0);
  const cumulative: number[] = [];
  let acc = 0;
  for (const [, w] of entries) cumulative.push((acc += w / total));
  return (r) => {
    for (let i = 0; i < cumulative.length; i++) if (r < cumulative[i]!) return entries[i]![0];
    return entries[entries.length - 1]![0];
  };
}

// ---------------------------------------------------------------- the mix

/** Share of orders per payment method: QRIS first, then e-wallets, virtual accounts, airtime. */
const METHOD_WEIGHTS: Record<string, number> = {
  qris_dynamic: 46,
  ewallet_gopay: 10,
  ewallet_shopeepay: 10,
  ewallet_dana: 8,
  ewallet_ovo: 6,
  ewallet_linkaja: 2,
  va_bca: 4,
  va_bri: 3,
  va_mandiri: 3,
  va_bni: 2,
  va_permata: 1,
  va_alfamart: 1.5,
  va_indomaret: 1.5,
  airtime_telkomsel: 1,
  airtime_indosat: 0.5,
  airtime_xl: 0.5,
  airtime_tri: 0.3,
  airtime_smartfren: 0.2,
};

type Outcome = Exclude<OrderState, 'creating'>;

/** Where orders end up, by kind: virtual accounts expire more often than a QR scanned at the counter. */
const STATE_MIX: Record<'counter' | 'va' | 'airtime', readonly (readonly [Outcome, number])[]> = {
  counter: [
    ['paid', 86],
    ['expired', 7],
    ['cancelled', 3.5],
    ['rejected', 1.5],
    ['failed', 1],
    ['unknown', 0.5],
    ['awaiting_payment', 0.5],
  ],
  va: [
    ['paid', 70],
    ['expired', 22],
    ['cancelled', 4],
    ['rejected', 2],
    ['failed', 1],
    ['unknown', 0.5],
    ['awaiting_payment', 0.5],
  ],
  airtime: [
    ['paid', 82],
    ['expired', 8],
    ['failed', 5],
    ['rejected', 3],
    ['cancelled', 1],
    ['unknown', 1],
  ],
};

function stateGroup(kind: PaymentKind): keyof typeof STATE_MIX {
  if (kind === 'va_bank' || kind === 'va_cstore') return 'va';
  if (kind === 'airtime' || kind === 'airtime_sms') return 'airtime';
  return 'counter';
}

/** Orders per store-local hour: open 07:00–22:00, busiest at lunch and after work. */
const HOUR_WEIGHTS = [0.2, 0.1, 0.05, 0.05, 0.1, 0.3, 1, 3, 5, 6, 6, 8, 10, 9, 6, 5, 6, 8, 10, 10, 8, 5, 2, 0.6];
/** Sunday first, as Date.getUTCDay counts. */
const WEEKDAY_WEIGHTS = [1.2, 0.95, 0.95, 1, 1, 1.1, 1.3];

const TERMINALS = picker([
  ['T01', 40],
  ['T02', 30],
  ['T03', 20],
  ['T04', 10],
] as const);
const ITEMS: Record<'counter' | 'va' | 'airtime', readonly string[]> = {
  counter: [
    'Kopi susu gula aren',
    'Nasi goreng spesial',
    'Es teh manis',
    'Roti bakar coklat',
    'Mie ayam bakso',
    'Air mineral 600ml',
    'Paket sembako',
    'Sabun cuci piring',
  ],
  va: ['Kulkas 2 pintu', 'Paket sembako bulanan', 'Beras 25 kg', 'Kompor gas 2 tungku', 'Pesanan grosir'],
  airtime: ['Pulsa 10rb', 'Pulsa 25rb', 'Pulsa 50rb', 'Paket data 10GB', 'Pulsa 100rb'],
};
const AIRTIME_AMOUNTS = [10_000, 25_000, 50_000, 75_000, 100_000];
const NAMES = ['Budi Santoso', 'Siti Rahayu', 'Agus Wijaya', 'Dewi Lestari', 'Rudi Hartono', 'Putri Ayu'];

function amountFor(kind: PaymentKind, sample: SampleOrder, rand: () => number): number {
  const group = stateGroup(kind);
  let amount: number;
  if (group === 'airtime') amount = AIRTIME_AMOUNTS[Math.floor(rand() * AIRTIME_AMOUNTS.length)]!;
  else {
    // Roughly log-normal around a median: Rp 35.000 at the counter, Rp 250.000 by virtual account.
    const median = group === 'va' ? 250_000 : 35_000;
    const step = group === 'va' ? 1_000 : 500;
    const z = (rand() + rand() + rand() - 1.5) * 2; // ≈ N(0, 1)
    amount = Math.round((median * Math.exp(0.8 * z)) / step) * step;
  }
  return Math.min(sample.maxAmount, Math.max(sample.minAmount, amount));
}

/** "YYYY-MM-DD HH:MM:SS" in Jakarta, as the gateway writes paid_at (fixed UTC+7, no Intl per row). */
function gatewayTime(ms: number): string {
  return new Date(ms + 7 * 3600 * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

const iso = (ms: number) => new Date(ms).toISOString();

// ---------------------------------------------------------------- the build

const ORDER_COLUMNS = [
  'id',
  'terminal_id',
  'api',
  'state',
  'method_id',
  'kind',
  'amount',
  'currency',
  'item_name',
  'item_id',
  'user_id',
  'customer_name',
  'phone',
  'training',
  'request_body',
  'delivery',
  'gateway_transaction_id',
  'instruction',
  'response_body',
  'rejection_retcode',
  'rejection_message',
  'rejection_http_status',
  'expires_at',
  'paid_at',
  'late_payment',
  'created_at',
  'updated_at',
];
const EVENT_COLUMNS = ['order_id', 'at', 'type', 'from_state', 'to_state', 'source', 'actor', 'reason', 'payload'];
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Splits `total` over weights, whole numbers that add up exactly (largest remainder). */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((s, x) => s + x, 0);
  const byRemainder = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k = (k + 1) % byRemainder.length, left--) out[byRemainder[k]![1]]! += 1;
  return out;
}

function dayCounts(plan: DayPlan, total: number, seed: number): number[] {
  if (total < plan.targetOrders)
    throw new Error(`a file of ${total} orders cannot hold the ${plan.targetOrders} of the measured day`);
  const rand = mulberry32(seed ^ 0x5bd1e995);
  const others = plan.days.map((d, i) =>
    i === plan.targetIndex ? 0 : WEEKDAY_WEIGHTS[new Date(`${d}T00:00:00Z`).getUTCDay()]! * (0.85 + 0.3 * rand()),
  );
  const counts = apportion(total - plan.targetOrders, others);
  counts[plan.targetIndex] = plan.targetOrders;
  return counts;
}

export interface BuildOptions {
  /**
   * false skips the schema's CHECK constraints while loading (PRAGMA ignore_check_constraints), which
   * halves the build time: json_valid over every JSON column dominates it. The stored bytes are the
   * same either way; the baseline file is always built with the checks on, from the same generator, so
   * a row that broke the schema would fail the run there.
   */
  checkConstraints: boolean;
  seed?: number;
}

export async function buildOrderLogFile(
  path: string,
  total: number,
  plan: DayPlan,
  samples: Samples,
  options: BuildOptions,
): Promise<BuildResult> {
  const started = performance.now();
  const seed = options.seed ?? 20_260_101;
  const db = openDatabase(path);
  // Setup only: the file is thrown away, so it need not survive a power cut while it is built. The
  // timed parts reopen it with openDatabase, which sets synchronous=FULL again (and checks back on).
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  if (!options.checkConstraints) db.pragma('ignore_check_constraints = ON');
  const insertOrder = db.prepare(
    `INSERT INTO orders (${ORDER_COLUMNS.join(', ')}) VALUES (${placeholders(ORDER_COLUMNS.length)})`,
  );
  const insertEvent = db.prepare(
    `INSERT INTO order_events (${EVENT_COLUMNS.join(', ')}) VALUES (${placeholders(EVENT_COLUMNS.length)})`,
  );

  const usable = samples.methods.filter((m) => METHOD_WEIGHTS[m.methodId] !== undefined);
  if (usable.length === 0) throw new Error('no sample order matches the benchmark’s method mix');
  const pickMethod = picker(usable.map((m) => [m, METHOD_WEIGHTS[m.methodId]!] as const));
  const pickState = {
    counter: picker(STATE_MIX.counter),
    va: picker(STATE_MIX.va),
    airtime: picker(STATE_MIX.airtime),
  };
  const pickHour = picker(HOUR_WEIGHTS.map((w, h) => [h, w] as const));
  const counts = dayCounts(plan, total, seed);
  let events = 0;

  const writeDay = db.transaction((dayIndex: number, n: number) => {
    // Seeded by the day alone, so the measured day is the same in every file.
    const rand = mulberry32(seed + dayIndex * 7919);
    const start = plan.starts[dayIndex]!;
    const times = new Float64Array(n);
    for (let i = 0; i < n; i++) times[i] = start + pickHour(rand()) * 3600_000 + Math.floor(rand() * 3600_000);
    times.sort();
    const datePart = plan.days[dayIndex]!.replaceAll('-', '');

    for (let i = 0; i < n; i++) {
      const t = times[i]!;
      const m = pickMethod(rand());
      const group = stateGroup(m.kind);
      const state = pickState[group](rand());
      const terminal = TERMINALS(rand());
      const createdIso = iso(t);
      // Shaped like newMerchantTransactionId (UTC time to the ms); the suffix numbers the order within its
      // store-local day, so ids are unique without a lookup.
      const day = createdIso.slice(0, 10).replaceAll('-', '');
      const time = createdIso.slice(11, 23).replace(/[:.]/g, '');
      const id = `${terminal}-${day}-${time}-${i.toString(32).toUpperCase().padStart(4, '0')}`;
      const amount = amountFor(m.kind, m, rand);
      const itemList = ITEMS[group];
      const itemName = itemList[Math.floor(rand() * itemList.length)]!;
      const itemId =
        rand() < 0.5 ? `SKU-${datePart.slice(2)}${String(Math.floor(rand() * 1000)).padStart(3, '0')}` : null;
      const userId = `walkin-${terminal.toLowerCase()}`;
      const customerName = m.requiresCustomerName ? NAMES[Math.floor(rand() * NAMES.length)]! : null;
      const phone = m.requiresPhone ? `0812${String(Math.floor(rand() * 1e8)).padStart(8, '0')}` : null;
      const request: Record<string, unknown> = {
        redirect_target: '_top',
        user_id: userId,
        merchant_transaction_id: id,
        payment_method: m.methodId,
        currency: 'IDR',
        amount,
        item_name: itemName,
      };
      if (phone !== null) request.user_mdn = phone;
      if (itemId !== null) request.item_id = itemId;
      if (customerName !== null) request.customer_name = customerName;

      const actor = `kasir-${terminal.toLowerCase()}`;
      const answeredAt = t + 150 + Math.floor(rand() * 750);
      const accepted = state !== 'rejected' && state !== 'unknown';
      const txId =
        accepted && m.gatewayTransactionId && m.gatewayTransactionId.length > 9
          ? m.gatewayTransactionId.slice(0, -9) + String(dayIndex).padStart(3, '0') + String(i).padStart(6, '0')
          : null;
      const expiresAt = accepted ? t + m.ttlMs : null;
      let finalAt = answeredAt;
      if (state === 'paid') finalAt = answeredAt + 15_000 + Math.floor(rand() * 225_000);
      else if (state === 'expired') finalAt = expiresAt! + Math.floor(rand() * 60_000);
      else if (state === 'cancelled') finalAt = answeredAt + 30_000 + Math.floor(rand() * 270_000);
      else if (state === 'failed') finalAt = answeredAt + 20_000 + Math.floor(rand() * 160_000);
      else if (state === 'unknown') finalAt = t + 15_000;
      const latePayment = state === 'expired' && rand() < 0.003;
      const lastAt = latePayment ? finalAt + 120_000 : finalAt;

      const failure = state === 'rejected' ? samples.rejected : state === 'unknown' ? samples.unknown : null;
      insertOrder.run(
        id,
        terminal,
        'v2',
        state,
        m.methodId,
        m.kind,
        amount,
        'IDR',
        itemName,
        itemId,
        userId,
        customerName,
        phone,
        0,
        JSON.stringify(request),
        state === 'unknown' ? 'sent' : 'answered',
        txId,
        accepted ? m.instruction : null,
        accepted ? m.responseBody : state === 'rejected' ? samples.rejected.responseBody : null,
        state === 'rejected' ? samples.rejected.retcode : null,
        state === 'rejected' ? samples.rejected.message : null,
        state === 'rejected' ? samples.rejected.httpStatus : null,
        expiresAt === null ? null : iso(expiresAt),
        state === 'paid' ? iso(finalAt) : null,
        latePayment ? 1 : 0,
        createdIso,
        iso(lastAt),
      );

      insertEvent.run(id, createdIso, 'created', null, 'creating', 'cashier', actor, null, null);
      events++;
      if (failure) {
        insertEvent.run(
          id,
          iso(failure === samples.unknown ? finalAt : answeredAt),
          'state_changed',
          'creating',
          state,
          'gateway',
          actor,
          failure.reason,
          null,
        );
        events++;
        continue;
      }
      insertEvent.run(
        id,
        iso(answeredAt),
        'state_changed',
        'creating',
        'awaiting_payment',
        'gateway',
        actor,
        m.acceptedReason,
        null,
      );
      events++;
      if (state === 'awaiting_payment') continue;
      const facts = (status: string, paidAt: number | null) =>
        JSON.stringify({
          merchant_transaction_id: id,
          transaction_id: txId,
          status,
          amount,
          payment_method: m.methodId,
          paid_at: paidAt === null ? null : gatewayTime(paidAt),
        });
      if (state === 'paid')
        insertEvent.run(
          id,
          iso(finalAt),
          'state_changed',
          'awaiting_payment',
          'paid',
          'callback',
          null,
          'payment callback',
          facts('PAID', finalAt),
        );
      else if (state === 'expired')
        insertEvent.run(
          id,
          iso(finalAt),
          'state_changed',
          'awaiting_payment',
          'expired',
          'poll',
          null,
          'status inquiry',
          facts('EXPIRED', null),
        );
      else if (state === 'failed')
        insertEvent.run(
          id,
          iso(finalAt),
          'state_changed',
          'awaiting_payment',
          'failed',
          'callback',
          null,
          'payment callback',
          facts('FAILED', null),
        );
      else
        insertEvent.run(
          id,
          iso(finalAt),
          'state_changed',
          'awaiting_payment',
          'cancelled',
          'manager',
          'manajer',
          'customer left without paying',
          null,
        );
      events++;
      if (latePayment) {
        insertEvent.run(
          id,
          iso(lastAt),
          'late_payment',
          null,
          null,
          'callback',
          null,
          'payment callback',
          facts('PAID', lastAt),
        );
        events++;
      }
    }
  });

  try {
    for (let dayIndex = 0; dayIndex < counts.length; dayIndex++) {
      writeDay(dayIndex, counts[dayIndex]!);
      // Between days, let Ctrl-C through (the temp files are removed on SIGINT).
      await new Promise((resolve) => setImmediate(resolve));
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return {
    path,
    orders: total,
    events,
    ms: performance.now() - started,
    fileBytes: statSync(path).size,
    targetDayOrders: plan.targetOrders,
    checkConstraints: options.checkConstraints,
  };
}

/** The store-local day the queries ask for, as the [from, to) the CLI would pass (UTC instants). */
export function targetRange(plan: DayPlan): { day: string; from: Date; to: Date } {
  return {
    day: plan.days[plan.targetIndex]!,
    from: new Date(plan.starts[plan.targetIndex]!),
    to: new Date(plan.starts[plan.targetIndex + 1]!),
  };
}
