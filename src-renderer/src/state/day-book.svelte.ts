import type { Reason } from '../../../src-main/common/reasons';
import {
  takenOf,
  type DayReport,
  type ReportFigures,
  type SalesFigures,
  type Takings,
} from '../../../src-main/common/reports';
import type { CallError } from '../api/errors';
import type { ManagerContext } from './manager-context';
import { isDay } from './store-day';

export type DayAction = 'close' | 'print' | 'page';

/** What the last action on the day did. */
export type DayNotice =
  | { kind: 'closed' }
  /** The report printer's answer (its reason, for the screen's words; a failed print changes nothing). */
  | { kind: 'printed'; ok: boolean; reason?: Reason }
  /** The A4 page went to the browser's print (or to a PDF). */
  | { kind: 'page' }
  | { kind: 'page_failed' }
  | { kind: 'error'; action: DayAction; error: CallError };

export interface DayBookDeps {
  /** Today in the store's zone. */
  today: () => string;
  /** Prints a whole HTML document (the A4 page), as receipts are printed from the screen. */
  printDocument: (html: string) => Promise<void>;
}

/**
 * The end of a store day (docs/end-of-day.md): the day's report (today by default), closing it after a
 * confirmation, printing it on the report printer, and its A4 page printed from the screen. Once closed, the
 * figures of the closing are the official ones; changes since are listed apart, never folded in.
 */
export class DayBook {
  #day = $state('');
  #report = $state.raw<DayReport | null>(null);
  #loading = $state(false);
  #error = $state.raw<CallError | null>(null);
  #confirming = $state(false);
  #busy = $state<DayAction | null>(null);
  #notice = $state.raw<DayNotice | null>(null);

  readonly #ctx: ManagerContext;
  readonly #deps: DayBookDeps;
  #request = 0;

  constructor(ctx: ManagerContext, deps: DayBookDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
  }

  get day(): string {
    return this.#day;
  }

  get today(): string {
    return this.#deps.today();
  }

  /** The report of `day`, once it has come (a report of another day is never shown under this one). */
  get report(): DayReport | null {
    return this.#report?.date === this.#day ? this.#report : null;
  }

  get loading(): boolean {
    return this.#loading;
  }

  get error(): CallError | null {
    return this.#error;
  }

  get busy(): DayAction | null {
    return this.#busy;
  }

  get notice(): DayNotice | null {
    return this.#notice;
  }

  /** The figures that count: the closing's once the day is closed, else the figures now. */
  get figures(): ReportFigures | null {
    const report = this.report;
    return report ? (report.closing?.figures ?? report.figures) : null;
  }

  /**
   * The sales that count, as the printed report shows them: the closing's once the day is closed (a closing made
   * before Loket kept them: the sales now), else the sales now; `atClosing` says which. Null without a report.
   */
  get sales(): { figures: SalesFigures; atClosing: boolean } | null {
    const report = this.report;
    const closed = report?.closing?.sales;
    if (closed) return { figures: closed, atClosing: true };
    return report?.sales ? { figures: report.sales, atClosing: false } : null;
  }

  /**
   * The money taken that the screen leads with (docs/end-of-day.md, "Money taken"): the closing's once the day is
   * closed (`atClosing`; a closing made before Loket counted it: the money taken now), else the money taken now; and
   * for a closed day the money taken now, to say when it differs. The report's rule (common/reports.ts, takenOf).
   */
  get taken(): { taken: Takings; atClosing: boolean; now?: Takings } | null {
    const report = this.report;
    const of = report ? takenOf(report) : null;
    if (!report || !of) return null;
    const now = report.closing ? report.sales?.taken : undefined;
    return { ...of, ...(now ? { now } : {}) };
  }

  get closed(): boolean {
    return this.report?.closing !== undefined;
  }

  /** A day is closed once, from the day itself on (closing today in the evening is the usual case). */
  get canClose(): boolean {
    return this.report !== null && !this.closed && this.#day <= this.#deps.today();
  }

  /** The confirmation is open. */
  get confirming(): boolean {
    return this.#confirming;
  }

  /** The section is on screen: today the first time, the same day again after. */
  async open(): Promise<void> {
    if (this.#day === '') this.#day = this.#deps.today();
    // What the last visit did is old news by now.
    this.#notice = null;
    await this.load();
  }

  async setDay(day: string): Promise<void> {
    if (!isDay(day) || day === this.#day) return;
    this.#day = day;
    this.#notice = null;
    await this.load();
  }

  async load(): Promise<void> {
    const day = this.#day;
    if (!isDay(day)) return;
    const mine = ++this.#request;
    this.#loading = true;
    this.#error = null;
    const outcome = await this.#ctx.call((api, token) => api.dayReport(token, day));
    if (mine !== this.#request) return;
    this.#loading = false;
    if (outcome.ok) this.#report = outcome.value;
    else if (outcome.error.code !== 'locked') this.#error = outcome.error;
  }

  askClose(): void {
    if (this.canClose && this.#busy === null) {
      this.#confirming = true;
      this.#notice = null;
    }
  }

  keepOpen(): void {
    if (this.#busy !== 'close') this.#confirming = false;
  }

  /** Closes the day (after the confirmation); the report comes back with its closing record. */
  async close(): Promise<boolean> {
    const day = this.#day;
    if (!this.#confirming || this.#busy !== null) return false;
    this.#busy = 'close';
    const outcome = await this.#ctx.call((api, token) => api.closeDay(token, day));
    this.#busy = null;
    this.#confirming = false;
    if (!outcome.ok) {
      if (outcome.error.code === 'locked') return false;
      this.#notice = { kind: 'error', action: 'close', error: outcome.error };
      // Closed elsewhere meanwhile, say: the report as it is now shows by whom.
      await this.load();
      return false;
    }
    this.#request++;
    this.#loading = false;
    this.#report = outcome.value;
    this.#notice = { kind: 'closed' };
    return true;
  }

  /**
   * The report on the store's report printer; with no printer set up (browser mode, or the desktop app without
   * one), the A4 page goes to the screen's own print instead, so "Print" always prints.
   */
  async print(): Promise<void> {
    const day = this.#day;
    if (this.#busy !== null || !isDay(day)) return;
    this.#busy = 'print';
    this.#notice = null;
    const outcome = await this.#ctx.call((api, token) => api.printDayReport(token, day));
    this.#busy = null;
    if (outcome.ok && !outcome.value.ok && outcome.value.reason?.key === 'print.no_printer') {
      await this.printPage();
      return;
    }
    if (outcome.ok)
      this.#notice = {
        kind: 'printed',
        ok: outcome.value.ok,
        ...(outcome.value.reason ? { reason: outcome.value.reason } : {}),
      };
    else if (outcome.error.code !== 'locked') this.#notice = { kind: 'error', action: 'print', error: outcome.error };
  }

  /** The A4 page, printed from this screen (or saved as a PDF from the print dialog). */
  async printPage(): Promise<void> {
    const day = this.#day;
    if (this.#busy !== null || !isDay(day)) return;
    this.#busy = 'page';
    this.#notice = null;
    const outcome = await this.#ctx.call((api, token) => api.dayReportHtml(token, day));
    if (!outcome.ok) {
      this.#busy = null;
      if (outcome.error.code !== 'locked') this.#notice = { kind: 'error', action: 'page', error: outcome.error };
      return;
    }
    try {
      await this.#deps.printDocument(outcome.value.html);
      this.#notice = { kind: 'page' };
    } catch {
      this.#notice = { kind: 'page_failed' };
    } finally {
      this.#busy = null;
    }
  }
}
