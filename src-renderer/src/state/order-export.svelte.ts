import type { DownloadTicket, ExportTable } from '../../../src-main/common/reports';
import type { ExportDelivery } from '../api/client';
import { toCallError, type CallError } from '../api/errors';
import type { ManagerContext } from './manager-context';
import { rangeProblem, type RangeProblem } from './store-day';
import type { StoreView } from './store-view.svelte';

export type ExportFormat = 'csv' | 'xlsx';
export type ExportDelimiter = ',' | ';';

export interface ExportChoice {
  /** Store days, inclusive. */
  from: string;
  to: string;
  format: ExportFormat;
  /** CSV only. */
  delimiter: ExportDelimiter;
  /** CSV only: the byte-order mark Excel needs to read UTF-8 when the file is double-clicked. */
  bom: boolean;
  /** CSV only, of this till's books: which table (the money taken by default; a workbook holds them all). */
  table: ExportTable;
}

export interface ExportRequest {
  from: string;
  to: string;
  format: ExportFormat;
  delimiter?: ExportDelimiter;
  bom?: boolean;
  table?: ExportTable;
}

/** The tables a CSV of this till's books may hold, what leads first (docs/export.md). */
export const CSV_TABLES: readonly ExportTable[] = ['takings', 'orders', 'lines', 'refunds', 'tenders'];

/**
 * What prepareExport is asked: the delimiter, BOM and table only for CSV (an XLSX has none of them, and holds every
 * table); the whole store's export (the store book) holds its orders alone, so it is asked no table.
 */
export function exportRequestOf(choice: ExportChoice, whole = false): ExportRequest {
  const { from, to, format } = choice;
  if (format !== 'csv') return { from, to, format };
  return { from, to, format, delimiter: choice.delimiter, bom: choice.bom, ...(whole ? {} : { table: choice.table }) };
}

export interface ExportDeps {
  today: () => string;
  /** Saves the prepared file: a download in browser mode, the save dialog in the desktop app. */
  deliver: (ticket: DownloadTicket) => Promise<ExportDelivery>;
  /** This till's orders or the whole store's (the store book); without it, this till's. */
  storeView?: StoreView;
}

/**
 * The export of the books (docs/export.md): a range of store days as an XLSX workbook (every table, its summary
 * first), or one table as CSV — the money taken by default, or the orders, sale lines, refunds or tenders. The
 * defaults suit Excel set to Indonesian, which expects `;` between fields and a BOM to read UTF-8.
 */
export class OrderExport {
  #choice = $state<ExportChoice>({ from: '', to: '', format: 'csv', delimiter: ';', bom: true, table: 'takings' });
  #busy = $state(false);
  #problem = $state<RangeProblem | null>(null);
  #error = $state.raw<CallError | null>(null);
  #delivered = $state.raw<{ ticket: DownloadTicket; delivery: ExportDelivery } | null>(null);

  readonly #ctx: ManagerContext;
  readonly #deps: ExportDeps;

  constructor(ctx: ManagerContext, deps: ExportDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
  }

  get choice(): Readonly<ExportChoice> {
    return this.#choice;
  }

  get busy(): boolean {
    return this.#busy;
  }

  get problem(): RangeProblem | null {
    return this.#problem;
  }

  get error(): CallError | null {
    return this.#error;
  }

  /** The last export's file and what became of it. */
  get delivered(): { ticket: DownloadTicket; delivery: ExportDelivery } | null {
    return this.#delivered;
  }

  /** The section is on screen: today, unless days were picked already. */
  open(): void {
    if (this.#choice.from === '' && this.#choice.to === '') {
      const today = this.#deps.today();
      this.#choice.from = today;
      this.#choice.to = today;
    }
  }

  set<K extends keyof ExportChoice>(key: K, value: ExportChoice[K]): void {
    this.#choice[key] = value;
    if (key === 'from' || key === 'to') this.#problem = null;
  }

  /** Prepares the file and hands it over to be saved; false when nothing was saved. */
  async run(): Promise<boolean> {
    if (this.#busy) return false;
    const choice = { ...this.#choice };
    const problem = rangeProblem(choice.from, choice.to);
    this.#problem = problem ?? null;
    if (problem) return false;
    this.#busy = true;
    this.#error = null;
    this.#delivered = null;
    try {
      const whole = this.#deps.storeView?.scope === 'store';
      const prepared = await this.#ctx.call((api, token) =>
        whole
          ? api.prepareStoreExport(token, exportRequestOf(choice, true))
          : api.prepareExport(token, exportRequestOf(choice)),
      );
      if (!prepared.ok) {
        if (prepared.error.code !== 'locked') this.#error = prepared.error;
        return false;
      }
      const ticket = prepared.value;
      let delivery: ExportDelivery;
      try {
        delivery = await this.#deps.deliver(ticket);
      } catch (err) {
        this.#error = toCallError(err);
        return false;
      }
      this.#delivered = { ticket, delivery };
      return delivery.kind !== 'not_saved';
    } finally {
      this.#busy = false;
    }
  }
}
