import type { StaffSummary } from '../../../src-main/common/staff';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import type { DeskPage, DeskQuery, OrderDetail } from '../../../src-main/common/reports';
import type { CallError } from '../api/errors';
import type { ManagerContext } from './manager-context';
import { rangeProblem, type RangeProblem } from './store-day';
import type { StateFilter } from './today-orders.svelte';

/** Orders a page: a screenful at 1080 px, a few screens on a small one. */
export const DESK_PAGE = 25;
/** The desk's search is at most this long (the server's rule, core/reports/order-desk.ts). */
export const DESK_SEARCH_MAX = 64;

export interface DeskFilters {
  /** Store days, inclusive. */
  from: string;
  to: string;
  /** '' for every state, method or member of staff. */
  state: StateFilter;
  methodId: string;
  staffId: number | '';
  /** An order id (or its start), a gateway transaction id, a VA number or store code, or an amount. */
  search: string;
}

/** The query for `filters` at `offset`: only the filters that are set, the search trimmed. */
export function deskQueryOf(filters: DeskFilters, offset: number, limit = DESK_PAGE): DeskQuery {
  const search = filters.search.trim();
  return {
    from: filters.from,
    to: filters.to,
    ...(filters.state ? { state: filters.state } : {}),
    ...(filters.methodId ? { methodId: filters.methodId } : {}),
    ...(filters.staffId !== '' ? { staffId: filters.staffId } : {}),
    ...(search ? { search } : {}),
    limit,
    offset,
  };
}

/**
 * The manager's order desk: the orders of a store day or a range of days (today by default), filtered and
 * searched, newest first, a page at a time with the total that matched; and one order opened with its whole
 * history and the gateway's request and answer. Answers to older requests are dropped, so a slow page never
 * replaces a newer one.
 */
export class OrderDesk {
  #filters = $state<DeskFilters>({ from: '', to: '', state: '', methodId: '', staffId: '', search: '' });
  #page = $state.raw<DeskPage | null>(null);
  /** The offset of the page on show (or being fetched). */
  #offset = $state(0);
  #loading = $state(false);
  #error = $state.raw<CallError | null>(null);
  #problem = $state<RangeProblem | null>(null);

  #detailId = $state<string | null>(null);
  #detail = $state.raw<OrderDetail | null>(null);
  #detailError = $state.raw<CallError | null>(null);

  readonly #ctx: ManagerContext;
  readonly #today: () => string;
  #request = 0;
  #detailRequest = 0;

  constructor(ctx: ManagerContext, today: () => string) {
    this.#ctx = ctx;
    this.#today = today;
  }

  get filters(): Readonly<DeskFilters> {
    return this.#filters;
  }

  /** The methods and staff to filter by: the store's now (an order of a method since removed still shows). */
  get methods(): readonly PaymentMethod[] {
    return this.#ctx.view?.methods ?? [];
  }

  get staff(): readonly StaffSummary[] {
    return this.#ctx.view?.staff ?? [];
  }

  get page(): DeskPage | null {
    return this.#page;
  }

  get loading(): boolean {
    return this.#loading;
  }

  get error(): CallError | null {
    return this.#error;
  }

  /** The days as typed cannot be asked for; nothing was sent. */
  get problem(): RangeProblem | null {
    return this.#problem;
  }

  /** The place of the page on show: orders `first` to `last` of `total` (first 0 when none matched). */
  get shown(): { first: number; last: number; total: number } | null {
    const page = this.#page;
    if (!page) return null;
    return {
      first: page.orders.length === 0 ? 0 : this.#offset + 1,
      last: this.#offset + page.orders.length,
      total: page.total,
    };
  }

  get hasPrevious(): boolean {
    return this.#page !== null && this.#offset > 0;
  }

  get hasNext(): boolean {
    return this.#page !== null && this.#offset + this.#page.orders.length < this.#page.total;
  }

  /** The section is on screen: today's orders the first time, the same filters again after. */
  async open(): Promise<void> {
    if (this.#filters.from === '' && this.#filters.to === '') {
      const today = this.#today();
      this.#filters.from = today;
      this.#filters.to = today;
    }
    await this.#load(this.#page ? this.#offset : 0);
  }

  /** Changes a filter; nothing is asked until `apply`. */
  set<K extends keyof DeskFilters>(key: K, value: DeskFilters[K]): void {
    this.#filters[key] = value;
    if (key === 'from' || key === 'to') this.#problem = null;
  }

  /** From the first page, with the filters as they are now. */
  async apply(): Promise<void> {
    await this.#load(0);
  }

  /** The same page again (orders change while the desk is open). */
  async reload(): Promise<void> {
    await this.#load(this.#offset);
  }

  async next(): Promise<void> {
    if (this.hasNext) await this.#load(this.#offset + DESK_PAGE);
  }

  async previous(): Promise<void> {
    if (this.hasPrevious) await this.#load(Math.max(0, this.#offset - DESK_PAGE));
  }

  async #load(offset: number): Promise<void> {
    const filters = { ...this.#filters };
    const problem = rangeProblem(filters.from, filters.to);
    this.#problem = problem ?? null;
    if (problem) return;
    const mine = ++this.#request;
    this.#loading = true;
    this.#error = null;
    const outcome = await this.#ctx.call((api, token) => api.deskOrders(token, deskQueryOf(filters, offset)));
    if (mine !== this.#request) return;
    this.#loading = false;
    if (!outcome.ok) {
      if (outcome.error.code !== 'locked') this.#error = outcome.error;
      return;
    }
    this.#page = outcome.value;
    this.#offset = offset;
  }

  // ---------------------------------------------------------------- one order

  /** The order opened, whether its detail has come yet or not. */
  get detailId(): string | null {
    return this.#detailId;
  }

  get detail(): OrderDetail | null {
    return this.#detail;
  }

  get detailError(): CallError | null {
    return this.#detailError;
  }

  async openDetail(orderId: string): Promise<void> {
    const mine = ++this.#detailRequest;
    this.#detailId = orderId;
    this.#detail = null;
    this.#detailError = null;
    const outcome = await this.#ctx.call((api, token) => api.orderDetail(token, orderId));
    if (mine !== this.#detailRequest) return;
    if (outcome.ok) this.#detail = outcome.value;
    else if (outcome.error.code !== 'locked') this.#detailError = outcome.error;
  }

  /** Back to the list. */
  closeDetail(): void {
    this.#detailRequest++;
    this.#detailId = null;
    this.#detail = null;
    this.#detailError = null;
  }
}
