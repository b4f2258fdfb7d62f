// A fake CashierClient for the renderer's managers: an API whose every method answers what the test says —
// a value, a CallError, or nothing until the test releases it — and a live channel the test pushes into.
import {
  clientMethods,
  type ApiArgs,
  type ApiMethodName,
  type ApiResult,
  type ChargeFailure,
  type ChargeInput,
  type ChargeResult,
  type DisplayState,
  type LiveEvent,
  type LoketApi,
} from '../../../src-main/common/api';
import type { AppInfo } from '../../../src-main/common/app-info';
import type { ChargeSaleInput, ChargeSaleResult, SaleView } from '../../../src-main/common/sale';
import type { ManagerSessionView, ManagerView, TillStatus } from '../../../src-main/common/manager';
import { DEFAULT_SETTINGS, type GatewaySettings, type LoketSettings } from '../../../src-main/common/settings';
import { DEFAULT_CASH_SETTINGS } from '../../../src-main/common/cash';
import { DEFAULT_DISCOUNT_LIMITS } from '../../../src-main/common/sale-totals';
import { DEFAULT_TAX_SETTINGS } from '../../../src-main/common/tax';
import type { StaffSummary } from '../../../src-main/common/staff';
import type { Order } from '../../../src-main/common/order';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import type { AttentionItem, DayReport, DownloadTicket, ReportFigures } from '../../../src-main/common/reports';
import type { CashierClient, ConnectionStatus, LiveChannel } from '../../../src-renderer/src/api/client';
import { CallError } from '../../../src-renderer/src/api/errors';

type Answer<M extends ApiMethodName> = (...args: ApiArgs<M>) => ApiResult<M> | Promise<ApiResult<M>>;

/** A call the test holds: it stays pending until released. */
export interface Held<M extends ApiMethodName> {
  /** Resolves once the call has been made, with its arguments. */
  readonly called: Promise<ApiArgs<M>>;
  resolve(result: ApiResult<M>): void;
  reject(error: unknown): void;
}

interface Pending {
  markCalled(args: unknown[]): void;
  promise: Promise<unknown>;
}

export class FakeApi {
  readonly calls: { method: ApiMethodName; args: unknown[] }[] = [];
  readonly api: LoketApi;
  readonly #answers = new Map<ApiMethodName, (...args: unknown[]) => unknown>();
  readonly #held = new Map<ApiMethodName, Pending[]>();

  constructor() {
    this.api = clientMethods(async (method, args) => {
      this.calls.push({ method, args });
      const held = this.#held.get(method)?.shift();
      if (held) {
        held.markCalled(args);
        return held.promise;
      }
      const answer = this.#answers.get(method);
      if (!answer) throw new Error(`fake API: no answer set for ${method}`);
      return answer(...args);
    });
  }

  /** Every later call of `method` answers with `answer` (throw inside it to fail). */
  on<M extends ApiMethodName>(method: M, answer: Answer<M>): this {
    this.#answers.set(method, answer as (...args: unknown[]) => unknown);
    return this;
  }

  /** Every later call of `method` fails with `error`. */
  fail(method: ApiMethodName, error: unknown = new CallError('network', 'Loket did not answer.')): this {
    this.#answers.set(method, () => {
      throw error;
    });
    return this;
  }

  /** The next call of `method` waits until the test resolves or rejects it. */
  hold<M extends ApiMethodName>(method: M): Held<M> {
    let resolve!: (value: unknown) => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<unknown>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    let markCalled!: (args: unknown[]) => void;
    const called = new Promise<unknown[]>((res) => (markCalled = res));
    const queue = this.#held.get(method) ?? [];
    queue.push({ markCalled, promise });
    this.#held.set(method, queue);
    return { called: called as Promise<ApiArgs<M>>, resolve, reject };
  }

  callsOf<M extends ApiMethodName>(method: M): ApiArgs<M>[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args as ApiArgs<M>);
  }

  /**
   * The cashier's typed item and amount, charged as a one-line sale (chargeSale): `answer` sees it as the order it asks
   * for (method, amount, item, the method's extra fields) and answers as a charge of an order does; the sale's answer is
   * made from that (a written sale when an order came back).
   */
  onTyped(answer: (input: ChargeInput) => ChargeResult | Promise<ChargeResult>): this {
    return this.on('chargeSale', async (input) => saleResultOf(await answer(typedChargeOf(input)), input));
  }

  /** The typed one-line sales charged so far, each as the order it asked for. */
  typedCalls(): [ChargeInput][] {
    return this.callsOf('chargeSale').map(([input]) => [typedChargeOf(input)]);
  }

  /** The next typed one-line sale waits until the test answers it as a charge of an order. */
  holdTyped(): { called: Promise<[ChargeInput]>; resolve(result: ChargeResult): void; reject(error: unknown): void } {
    const held = this.hold('chargeSale');
    let input: ChargeSaleInput | undefined;
    return {
      called: held.called.then(([i]) => {
        input = i;
        return [typedChargeOf(i)];
      }),
      resolve: (result) => held.resolve(saleResultOf(result, input ?? this.callsOf('chargeSale').at(-1)![0])),
      reject: (error) => held.reject(error),
    };
  }
}

/** A one-line sale's cart as the order it asks for (what createOrder took before every charge was a sale). */
export function typedChargeOf(input: ChargeSaleInput): ChargeInput {
  const line = input.cart.lines[0]!;
  return {
    methodId: input.methodId ?? '',
    amount: line.unitPrice,
    itemName: line.name,
    ...(line.fixedDenomination ? { itemId: line.fixedDenomination.itemId } : {}),
    ...(input.customerName !== undefined ? { customerName: input.customerName } : {}),
    ...(input.phone !== undefined ? { phone: input.phone } : {}),
    ...(input.api !== undefined ? { api: input.api } : {}),
  };
}

/** A charge of an order's answer as the one-line sale's: a written sale whenever an order came back. */
export function saleResultOf(result: ChargeResult, input: ChargeSaleInput): ChargeSaleResult {
  const saleId = `S-${input.cart.saleKey ?? 'typed'}`;
  if (result.ok) return { ok: true, saleId, sale: { id: saleId } as SaleView, order: result.order };
  return {
    ok: false,
    saleId: result.order ? saleId : null,
    sale: null,
    ...(result.order ? { order: result.order } : {}),
    failure: result.failure,
  };
}

export class FakeLive implements LiveChannel<LiveEvent> {
  status: ConnectionStatus = 'connecting';
  closed = false;
  readonly #listeners = new Set<(event: LiveEvent) => void>();
  readonly #statusListeners = new Set<(status: ConnectionStatus) => void>();

  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.#statusListeners.add(listener);
    listener(this.status);
    return () => this.#statusListeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.#listeners.clear();
    this.#statusListeners.clear();
  }

  push(event: LiveEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  pushOrder(order: Order): void {
    this.push({ type: 'order', order });
  }

  setStatus(status: ConnectionStatus): void {
    this.status = status;
    for (const listener of this.#statusListeners) listener(status);
  }
}

export interface FakeClient extends CashierClient {
  readonly fake: FakeApi;
  readonly live: FakeLive;
  /** The exports handed over to be saved, in order. */
  readonly delivered: DownloadTicket[];
}

export function fakeClient(): FakeClient {
  const fake = new FakeApi();
  const delivered: DownloadTicket[] = [];
  return {
    transport: 'http',
    api: fake.api,
    live: new FakeLive(),
    fake,
    delivered,
    deliverExport: async (ticket) => {
      delivered.push(ticket);
      return { kind: 'downloaded', filename: ticket.filename };
    },
  };
}

/** Lets pending promise callbacks (an answer already given, a fire-and-forget call) run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
}

let seq = 0;

/** An order, created at 10:00 on 2026-03-10 in Jakarta unless told otherwise. */
export function makeOrder(overrides: Partial<Order> = {}): Order {
  seq += 1;
  const createdAt = overrides.createdAt ?? '2026-03-10T03:00:00.000Z';
  return {
    id: `order-${seq}`,
    terminalId: 'T1',
    api: 'v2',
    state: 'awaiting_payment',
    methodId: 'qris_dynamic',
    kind: 'qris',
    amount: 25000,
    currency: 'IDR',
    itemName: 'Kopi susu',
    userId: 'cashier',
    training: true,
    delivery: 'answered',
    latePayment: false,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** The same order, changed later: `updatedAt` moves on by `seconds`. */
export function later(order: Order, changes: Partial<Order>, seconds = 1): Order {
  const updatedAt = new Date(Date.parse(order.updatedAt) + seconds * 1000).toISOString();
  return { ...order, ...changes, updatedAt };
}

export function failure(overrides: Partial<ChargeFailure> & Pick<ChargeFailure, 'class' | 'retry'>): ChargeFailure {
  return { message: 'gateway said no', ...overrides };
}

function method(overrides: Partial<PaymentMethod> & Pick<PaymentMethod, 'id' | 'kind' | 'provider'>): PaymentMethod {
  return {
    label: { id: overrides.provider, en: overrides.provider },
    requiresCustomerName: false,
    requiresPhone: false,
    hasShortCode: false,
    returnsBackUrl: true,
    enabled: true,
    minAmount: 1000,
    maxAmount: 10_000_000,
    ...overrides,
  };
}

export const METHODS: PaymentMethod[] = [
  method({ id: 'qris_dynamic', kind: 'qris', provider: 'QRIS' }),
  method({
    id: 'va_bca',
    kind: 'va_bank',
    provider: 'BCA',
    label: { id: 'Virtual Account BCA', en: 'BCA Virtual Account' },
    requiresCustomerName: true,
  }),
];

export function appInfo(overrides: Partial<AppInfo> = {}): AppInfo {
  return {
    name: 'Loket',
    version: '0.1.0',
    mode: 'sandbox',
    storeName: 'Toko Uji',
    terminalId: 'T1',
    lang: 'id',
    timeZone: 'Asia/Jakarta',
    networkPrinter: false,
    autoPrint: false,
    ...overrides,
  };
}

export const DISPLAY_IDLE: DisplayState = {
  mode: 'sandbox',
  storeName: 'Toko Uji',
  lang: 'id',
  idleMessage: '',
  timeZone: 'Asia/Jakarta',
  order: null,
};

// ---------------------------------------------------------------- the manager's side

export const MANAGER: StaffSummary = { id: 1, name: 'Bu Sri', role: 'manager', active: true };
export const CASHIER: StaffSummary = { id: 2, name: 'Ani', role: 'cashier', active: true };

export function tillStatus(overrides: Partial<TillStatus> = {}): TillStatus {
  return { staff: null, staffList: [MANAGER, CASHIER], requireCashierPin: false, hasManager: true, ...overrides };
}

/** A manager session's answer; it locks five minutes after `now` unless told otherwise. */
export function managerSession(now = Date.parse('2026-03-10T03:00:00.000Z'), staff = MANAGER): ManagerSessionView {
  return { token: 'session-token-0123456789abcdef', expiresAt: new Date(now + 5 * 60_000).toISOString(), staff };
}

/** What the manager's screens see: the default settings (training, no gateway), unless told otherwise. */
export function managerView(
  overrides: Partial<Omit<ManagerView, 'settings'>> & { settings?: Partial<LoketSettings> } = {},
): ManagerView {
  const { settings, ...rest } = overrides;
  return {
    me: MANAGER,
    settings: { ...structuredClone(DEFAULT_SETTINGS), ...settings },
    sale: {
      tax: structuredClone(DEFAULT_TAX_SETTINGS),
      cash: structuredClone(DEFAULT_CASH_SETTINGS),
      discounts: structuredClone(DEFAULT_DISCOUNT_LIMITS),
    },
    methods: METHODS,
    methodsSource: 'bundled',
    secrets: {
      appkey: { set: false, from: 'none' },
      'signing-secret': { set: false, from: 'none' },
    },
    keychain: { available: true },
    staff: [MANAGER, CASHIER],
    mode: {
      setting: 'training',
      running: 'sandbox',
      gateway: 'embedded sandbox at http://127.0.0.1:1 (training mode)',
    },
    openOrders: 0,
    lockAt: '2026-03-10T03:05:00.000Z',
    ...rest,
  };
}

export const GATEWAY: GatewaySettings = {
  baseUrl: 'https://gateway.example',
  appId: 'warung-live',
  signing: { key: 'appkey', encoding: 'hex' },
  timeoutMs: 15_000,
  inquiryPath: '/api/status',
  timeZone: 'Asia/Jakarta',
};

// ---------------------------------------------------------------- the manager's books

/** A day's figures: `paid` orders of `amount` each, and nothing else, unless told otherwise. */
export function figures(day: string, paid: { count: number; amount: number } = { count: 0, amount: 0 }): ReportFigures {
  return {
    from: day,
    to: day,
    timeZone: 'Asia/Jakarta',
    paid,
    latePaid: { count: 0, amount: 0 },
    orders: paid,
    byMethod: paid.count ? [{ methodId: 'qris_dynamic', label: 'QRIS', ...paid, paid }] : [],
    byState: paid.count ? [{ state: 'paid', ...paid }] : [],
    byStaff: paid.count ? [{ staffId: null, name: '(nobody)', ...paid, paid }] : [],
  };
}

/** A day's report, not closed, with nothing needing attention unless told otherwise. */
export function dayReport(day: string, overrides: Partial<DayReport> = {}): DayReport {
  return {
    date: day,
    timeZone: 'Asia/Jakarta',
    figures: figures(day),
    attention: [],
    afterClosing: [],
    training: true,
    waiting: [],
    waitingCount: 0,
    ...overrides,
  };
}

/** An order whose outcome is unknown, as the attention queue lists it. */
export function unknownItem(order: Order = makeOrder({ state: 'unknown' })): AttentionItem {
  return {
    kind: 'unknown',
    orderId: order.id,
    order,
    since: order.updatedAt,
    summary: 'Terkirim, tetapi hasilnya belum diketahui.',
    what: { key: 'attention.item.unknown', params: { amount: order.amount, methodId: order.methodId } },
    actions: ['check', 'mark_paid', 'cancel'],
  };
}
