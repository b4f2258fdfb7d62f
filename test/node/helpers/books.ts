/**
 * A live store for the end-of-day tests (docs/end-of-day.md): Loket on a real SQLite file in a fresh folder,
 * against a sandbox on 127.0.0.1 (so its orders are the store's books, not training ones), Loket's callback
 * listener on a free port, and one FakeClock shared by Loket and the sandbox, so the order log's times, the
 * sandbox's deadlines and expiries all move only when a test moves the clock. Orders are changed by every path:
 * the sandbox's callbacks, a status poll, a manager's override, a cancel, a late payment.
 */
import { DEFAULT_SIGNING_PROFILE, signBody } from '../../../src-main/core/bodysign';
import { startCallbackListener, type CallbackListener } from '../../../src-main/core/confirmation/callback-listener';
import { pollUntilSettled } from '../../../src-main/core/confirmation/status-poller';
import { StaffStore } from '../../../src-main/core/staff/staff-store';
import { loadPaymentCatalogue } from '../../../src-main/core/catalogue';
import type { Order } from '../../../src-main/common/order';
import type { OrderInput } from '../../../src-main/core/payments/order-service';
import { openLoket, type Loket } from '../../../src-main/runtime';
import { SANDBOX_DEFAULTS, startSandbox, type SandboxHandle } from '../../../src-main/sandbox/server';
import { faultSettingsSchema } from '../../../src-main/sandbox/faults';
import { FakeClock } from './fake-clock';
import { gatewayEnv, tempDir } from './loket';

/** 10:00 in Jakarta (UTC+7, no daylight saving) on Friday 14 March 2025. */
export const BOOKS_START = '2025-03-14T03:00:00.000Z';
export const STORE_ZONE = 'Asia/Jakarta';
export const DAY_MS = 24 * 3600 * 1000;
/** A method in Loket's catalogue that this sandbox does not offer: a sale with it is refused by the gateway. */
export const REFUSED_METHOD = 'ewallet_linkaja';

export interface Books {
  dir: string;
  clock: FakeClock;
  sandbox: SandboxHandle;
  loket: Loket;
  listener: CallbackListener;
  staff: { ani: number; budi: number };
  /**
   * A sale at the till, answered by the gateway (awaiting payment); `by` the staff member signed in. With
   * `quiet`, the order names no notification_url: the gateway never calls back, Loket learns only by asking.
   */
  sell(input?: Partial<OrderInput>, by?: number, options?: { quiet?: boolean }): Promise<Order>;
  /**
   * Sent, and no answer came (the connection dropped after the gateway stored it), nor to a status inquiry
   * right after: the outcome is unknown. The faults are cleared afterwards, whatever Loket asked.
   */
  unknownSale(input?: Partial<OrderInput>, by?: number): Promise<Order>;
  /** Refused by the gateway (a method it does not offer): rejected. */
  refusedSale(input?: Partial<OrderInput>, by?: number): Promise<Order>;
  /** The gateway settles the order and its callback reaches Loket. */
  settle(id: string, status: 'PAID' | 'EXPIRED' | 'FAILED'): Promise<Order>;
  /** Loket's status poller, until the order settles (its pauses skipped). */
  poll(id: string): Promise<Order>;
  /** Sends a callback body signed with the store's appkey to Loket's listener, as the gateway would. */
  postCallback(body: string): Promise<{ status: number; json: { success?: boolean; message?: string } }>;
  /** Moves the shared clock on, and waits for the sandbox's callbacks that came due. */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function openBooks(start = BOOKS_START): Promise<Books> {
  const folder = tempDir('loket-books-');
  const clock = new FakeClock(start);
  // One attempt per callback: a refused one is never retried behind a test's back (the listener's answers are
  // tested on their own), and waiting for the dispatcher to be idle never waits for the fake clock.
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    clock,
    methods: loadPaymentCatalogue().filter((m) => m.id !== REFUSED_METHOD),
    callbacks: { maxAttempts: 1 },
    log: () => undefined,
  });
  const loket = await openLoket({ dataDir: folder.path, env: gatewayEnv(sandbox), clock });
  const listener = await startCallbackListener({
    host: '127.0.0.1',
    port: 0,
    path: '/loket/callback',
    appId: loket.client.config.appId,
    key: SANDBOX_DEFAULTS.appKey,
    encoding: DEFAULT_SIGNING_PROFILE.encoding,
    orders: loket.orders,
    log: loket.log,
    receipts: loket.receipts,
  });
  loket.orders.setNotificationUrl(listener.url);
  const staffStore = new StaffStore(loket.store.db, clock);
  const ani = (await staffStore.add({ name: 'Ani', role: 'cashier', pin: '2468' })).id;
  const budi = (await staffStore.add({ name: 'Budi', role: 'manager', pin: '1357' })).id;

  const books: Books = {
    dir: folder.path,
    clock,
    sandbox,
    loket,
    listener,
    staff: { ani, budi },
    async sell(input = {}, by, options = {}) {
      if (options.quiet) loket.orders.setNotificationUrl(undefined);
      try {
        const outcome = await loket.orders.create(
          { methodId: 'qris_dynamic', amount: 25_000, itemName: 'Kopi susu', ...input },
          { source: 'cashier', ...(by === undefined ? {} : { actor: by === ani ? 'Ani' : 'Budi', staffId: by }) },
        );
        if (!outcome.ok) throw new Error(`sale not accepted: ${outcome.failure.message}`);
        return outcome.order;
      } finally {
        loket.orders.setNotificationUrl(listener.url);
      }
    },
    async unknownSale(input = {}, by) {
      // The create call and the status inquiry Loket may ask right after it: no answer to either.
      sandbox.faults.set(faultSettingsSchema.parse({ drop_after_store: true, count: 5 }));
      try {
        const outcome = await loket.orders.create(
          { methodId: 'qris_dynamic', amount: 25_000, itemName: 'Teh', ...input },
          { source: 'cashier', ...(by === undefined ? {} : { staffId: by }) },
        );
        if (outcome.order?.state !== 'unknown') throw new Error(`the sale is ${outcome.order?.state}, not unknown`);
        return outcome.order;
      } finally {
        sandbox.faults.clear();
      }
    },
    async refusedSale(input = {}, by) {
      const outcome = await loket.orders.create(
        { amount: 25_000, itemName: 'Roti', ...input, methodId: REFUSED_METHOD },
        { source: 'cashier', ...(by === undefined ? {} : { staffId: by }) },
      );
      if (outcome.order?.state !== 'rejected') throw new Error(`the sale is ${outcome.order?.state}, not rejected`);
      return outcome.order;
    },
    async settle(id, status) {
      sandbox.settle(id, status);
      await sandbox.callbacks.idle();
      return loket.log.require(id);
    },
    async poll(id) {
      const result = await pollUntilSettled(id, {
        orders: loket.orders,
        log: loket.log,
        client: loket.client,
        initialDelayMs: 1000,
        maxDelayMs: 1000,
        deadline: new Date(clock.now().getTime() + 60_000),
        clock,
        sleep: async () => undefined,
      });
      return result.order;
    },
    async postCallback(body) {
      const res = await fetch(listener.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          appid: loket.client.config.appId,
          bodysign: signBody(body, SANDBOX_DEFAULTS.appKey, DEFAULT_SIGNING_PROFILE.encoding),
        },
        body,
      });
      return { status: res.status, json: (await res.json()) as { success?: boolean; message?: string } };
    },
    async advance(ms) {
      // Timer by timer: a callback the sandbox sends (an expiry, say) travels over real loopback, and must
      // arrive before the clock runs on to its own deadline.
      const target = clock.now().getTime() + ms;
      for (;;) {
        await sandbox.callbacks.idle();
        const left = target - clock.now().getTime();
        const next = clock.pending()[0];
        if (next === undefined || next > left) {
          clock.advance(left);
          break;
        }
        clock.advance(next);
      }
      await sandbox.callbacks.idle();
    },
    async close() {
      await listener.close();
      await loket.close();
      await sandbox.close();
      folder.remove();
    },
  };
  return books;
}
