import type { StoreDayReport } from '../../../src-main/common/store-book';
import type { CallError } from '../api/errors';
import type { ManagerContext } from './manager-context';
import { isDay } from './store-day';

/** Whose books the manager's day and export screens show: this till's own, or the whole store's (the store book). */
export type BooksScope = 'till' | 'store';

/**
 * The whole store's side of the manager's day and export screens (docs/store-book.md, "What the manager sees"):
 * whether this till is enrolled in a store book (only then is there a choice), which books are chosen, and the
 * store's day report of a day — every terminal's figures, each with its backlog.
 */
export class StoreView {
  #enrolled = $state(false);
  #scope = $state<BooksScope>('till');
  #report = $state.raw<StoreDayReport | null>(null);
  #day = $state('');
  #loading = $state(false);
  #error = $state.raw<CallError | null>(null);
  #request = 0;

  readonly #ctx: ManagerContext;

  constructor(ctx: ManagerContext) {
    this.#ctx = ctx;
  }

  get enrolled(): boolean {
    return this.#enrolled;
  }

  /** 'store' only where a store book is set up. */
  get scope(): BooksScope {
    return this.#enrolled ? this.#scope : 'till';
  }

  get loading(): boolean {
    return this.#loading;
  }

  get error(): CallError | null {
    return this.#error;
  }

  /** The store's report of `day`, once it has come (never one of another day). */
  reportOf(day: string): StoreDayReport | null {
    return this.#report?.date === day && this.#day === day ? this.#report : null;
  }

  /** Asks whether a store book is set up here (the link's state); a failure leaves the choice out. */
  async check(): Promise<void> {
    const outcome = await this.#ctx.call((api) => api.storeLink());
    this.#enrolled = outcome.ok && outcome.value.state !== 'not_enrolled';
  }

  setScope(scope: BooksScope): void {
    this.#scope = scope;
  }

  async load(day: string): Promise<void> {
    if (!isDay(day) || this.scope !== 'store') return;
    const mine = ++this.#request;
    this.#day = day;
    this.#loading = true;
    this.#error = null;
    const outcome = await this.#ctx.call((api, token) => api.storeDayReport(token, day));
    if (mine !== this.#request) return;
    this.#loading = false;
    if (outcome.ok) this.#report = outcome.value;
    else if (outcome.error.code !== 'locked') this.#error = outcome.error;
  }
}
