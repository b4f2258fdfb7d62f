import type { LoketApi } from '../../../src-main/common/api';
import { ORDER_STATES, type Order, type OrderState } from '../../../src-main/common/order';
import { toCallError, type CallError } from '../api/errors';
import { isNotOlder } from './order-time';
import { storeDay } from './store-day';

/** Orders drawn at first, and added by each "show more". */
export const TODAY_PAGE = 200;

/** A state to show, or '' for all. */
export type StateFilter = OrderState | '';

export function isStateFilter(value: unknown): value is StateFilter {
  return value === '' || (ORDER_STATES as readonly unknown[]).includes(value);
}

export interface TodayOrdersDeps {
  api: Pick<LoketApi, 'listOrders'>;
  /** The store's zone: "today" is the store's day, whatever zone this screen's clock is in. */
  timeZone: () => string;
  now: () => Date;
}

/**
 * The day's orders, newest first. Loaded once when first opened, then kept current by merging each live
 * event; loaded in full again only when the filter changes, the live channel comes back (events may have
 * been missed), or the day has turned when the list is opened again.
 */
export class TodayOrdersManager {
  #orders = $state.raw<Order[]>([]);
  #filter = $state<StateFilter>('');
  #loaded = $state(false);
  #error = $state.raw<CallError | null>(null);
  /** The day (YYYY-MM-DD, the store's) the list is of; null until a load has succeeded. */
  #day = $state<string | null>(null);

  readonly paidTotal = $derived(this.#orders.filter((o) => o.state === 'paid').reduce((sum, o) => sum + o.amount, 0));
  /** How many of the newest are drawn: a busy day has thousands, and drawing them all makes every change slow. */
  #limit = $state(TODAY_PAGE);
  /** The orders drawn: the newest `limit`. */
  readonly shown = $derived(this.#orders.length > this.#limit ? this.#orders.slice(0, this.#limit) : this.#orders);

  readonly #deps: TodayOrdersDeps;
  #opened = false;
  /** Answers to older loads are dropped. */
  #request = 0;
  /** Events that arrived while a load was in flight: its answer may predate them. */
  #arrived: Order[] | null = null;
  /**
   * The newest version seen of each of the day's orders, so that a late event never steps back in time, not
   * even for an order the filter has dropped. Bookkeeping only, so a plain Map.
   */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #newest = new Map<string, Order>();

  constructor(deps: TodayOrdersDeps) {
    this.#deps = deps;
  }

  get orders(): readonly Order[] {
    return this.#orders;
  }

  /** Orders of the list not drawn yet (older ones). */
  get notShown(): number {
    return Math.max(0, this.#orders.length - this.#limit);
  }

  /** Draws the next page of older orders. */
  showMore(): void {
    this.#limit += TODAY_PAGE;
  }

  get filter(): StateFilter {
    return this.#filter;
  }

  /** A first answer (a list or an error) has come. */
  get loaded(): boolean {
    return this.#loaded;
  }

  get error(): CallError | null {
    return this.#error;
  }

  get day(): string | null {
    return this.#day;
  }

  /** The list is on screen: loaded the first time, and again if the day has turned since. */
  async open(): Promise<void> {
    this.#opened = true;
    if (this.#day === null || this.#day !== this.#today()) await this.#load();
  }

  async setFilter(filter: StateFilter): Promise<void> {
    if (filter === this.#filter) return;
    this.#filter = filter;
    this.#limit = TODAY_PAGE;
    if (this.#opened) await this.#load();
  }

  /** A full reload (the live channel came back); nothing to do for a list never opened. */
  async reload(): Promise<void> {
    if (this.#opened) await this.#load();
  }

  /** A live event: merged into the list by order id. */
  observe(order: Order): void {
    if (this.#day === null && this.#arrived === null) return;
    if (!isNotOlder(order, this.#newest.get(order.id))) return;
    this.#newest.set(order.id, order);
    this.#arrived?.push(order);
    if (this.#day !== null) this.#orders = this.#merge(this.#orders, order);
  }

  #today(): string {
    return storeDay(this.#deps.now(), this.#deps.timeZone());
  }

  async #load(): Promise<void> {
    const mine = ++this.#request;
    const day = this.#today();
    const filter = this.#filter;
    if (day !== this.#day) this.#newest.clear();
    const arrived: Order[] = [];
    this.#arrived = arrived;
    try {
      const list = await this.#deps.api.listOrders({ date: day, ...(filter ? { state: filter } : {}) });
      if (mine !== this.#request) return;
      this.#day = day;
      for (const order of list) if (isNotOlder(order, this.#newest.get(order.id))) this.#newest.set(order.id, order);
      // The answer may be older than events that came meanwhile: each order as last seen, then those events.
      let orders = list.map((o) => this.#newest.get(o.id)!).filter((o) => this.#belongs(o));
      for (const { id } of arrived) orders = this.#merge(orders, this.#newest.get(id)!);
      this.#orders = orders;
      this.#error = null;
    } catch (err) {
      if (mine === this.#request) this.#error = toCallError(err);
    } finally {
      if (mine === this.#request) {
        this.#arrived = null;
        this.#loaded = true;
      }
    }
  }

  #belongs(order: Order): boolean {
    if (this.#filter && order.state !== this.#filter) return false;
    return storeDay(order.createdAt, this.#deps.timeZone()) === this.#day;
  }

  /** `orders` with `order` put in, replaced, or taken out, newest first. */
  #merge(orders: Order[], order: Order): Order[] {
    const rest = orders.filter((o) => o.id !== order.id);
    if (!this.#belongs(order)) return rest.length === orders.length ? orders : rest;
    const at = rest.findIndex((o) => o.createdAt < order.createdAt);
    return at < 0 ? [...rest, order] : [...rest.slice(0, at), order, ...rest.slice(at)];
  }
}
