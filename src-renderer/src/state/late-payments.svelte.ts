import type { LoketApi } from '../../../src-main/common/api';
import type { Order } from '../../../src-main/common/order';
import { toCallError, type CallError } from '../api/errors';

export interface LatePaymentsDeps {
  api: Pick<LoketApi, 'latePayments' | 'acknowledgeLatePayment'>;
}

/**
 * Payments that came in after their sale ended (cancelled, expired, failed or refused): shown at the till at once,
 * on whatever screen the cashier is, until the cashier has seen each. The server keeps what was seen, so a reload
 * or a restart shows the same list; the manager's attention item stays until a manager deals with it.
 */
export class LatePaymentsManager {
  #orders = $state.raw<Order[]>([]);
  #busy = $state<string | null>(null);
  #error = $state.raw<{ id: string; error: CallError } | null>(null);
  /** Loads overlapping (an event during a load) are answered in order: only the last one's answer is kept. */
  #loads = 0;

  readonly #deps: LatePaymentsDeps;

  constructor(deps: LatePaymentsDeps) {
    this.#deps = deps;
  }

  get orders(): readonly Order[] {
    return this.#orders;
  }

  /** The order whose "seen" is being recorded. */
  get busy(): string | null {
    return this.#busy;
  }

  get error(): { id: string; error: CallError } | null {
    return this.#error;
  }

  async load(): Promise<void> {
    const n = ++this.#loads;
    try {
      const orders = await this.#deps.api.latePayments();
      if (n === this.#loads) this.#orders = orders;
    } catch {
      // The next event or reconnect asks again; what is shown stays.
    }
  }

  /** A live event: a late payment just recorded (or a change to one shown) makes the list be asked again. */
  observe(order: Order): void {
    if (order.latePayment) void this.load();
  }

  async acknowledge(id: string): Promise<void> {
    if (this.#busy) return;
    this.#busy = id;
    this.#error = null;
    try {
      await this.#deps.api.acknowledgeLatePayment(id);
      this.#orders = this.#orders.filter((o) => o.id !== id);
    } catch (err) {
      this.#error = { id, error: toCallError(err) };
    } finally {
      this.#busy = null;
    }
  }
}
