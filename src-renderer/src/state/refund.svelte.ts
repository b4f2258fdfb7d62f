import type { LoketApi } from '../../../src-main/common/api';
import type { Order } from '../../../src-main/common/order';
import { cumulativeMoney } from '../../../src-main/common/refund';
import type {
  RefundableLine,
  RefundableView,
  RefundFieldIssue,
  RefundHow,
  RefundView,
} from '../../../src-main/common/refund-doc';
import { toCallError, type CallError } from '../api/errors';
import { PinEntry } from './pin-entry.svelte';

export type RefundApi = Pick<
  LoketApi,
  'saleOf' | 'refundableOf' | 'refundSale' | 'refundReceipt' | 'printRefundReceipt'
>;

export interface RefundDeps {
  api: RefundApi;
  paper: () => 58 | 80;
  /** Receipts go to a network printer rather than the browser's print dialog. */
  networkPrinter: () => boolean;
  /** The browser's print of a receipt document (once). */
  printDocument: (html: string) => Promise<void>;
}

/**
 * Where the dialog is: the sale's number asked (a cash-only sale has no order in today's list: its number is on its
 * receipt), the sale being found, the form, or the refund made (its receipt).
 */
export type RefundStep = 'closed' | 'find' | 'loading' | 'form' | 'done';

/** Why the sale cannot be refunded here (the dialog says so instead of the form). */
export type RefundBlock = 'no_sale' | 'not_completed' | 'nothing_left';

/** A reason is 3 to 200 characters (docs/tenders.md, "Stored refunds"); the server checks the same. */
export const REASON_MIN = 3;
export const REASON_MAX = 200;

/**
 * The refund of one paid sale at the till (docs/tenders.md, "The refund screen"): the sale's lines with what is left,
 * the lines and quantities ticked, the reason, how the money goes back, the manager's PIN; then the refund's receipt.
 * The figures that count are the server's: the amount shown before is worked out the way it does, and the refund
 * made says what went back (a cash refund may be rounded down to Rp100).
 */
export class RefundManager {
  #step = $state<RefundStep>('closed');
  #order = $state.raw<Order | null>(null);
  #view = $state.raw<RefundableView | null>(null);
  #block = $state<RefundBlock | null>(null);
  /** The quantity to refund of each line (absent or 0: not ticked). */
  #picks = $state.raw<Record<string, number>>({});
  #reason = $state('');
  #how = $state<RefundHow>('cash');
  #managerId = $state<number | null>(null);
  readonly pin = new PinEntry();
  #issues = $state.raw<RefundFieldIssue[]>([]);
  #error = $state.raw<CallError | null>(null);
  #busy = $state(false);
  #refund = $state.raw<RefundView | null>(null);
  #receiptHtml = $state<string | null>(null);
  #printed = $state(false);
  #printFailed = $state(false);
  /** Answers for a dialog closed or opened again meanwhile are dropped. */
  #seq = 0;
  readonly #deps: RefundDeps;

  constructor(deps: RefundDeps) {
    this.#deps = deps;
  }

  get step(): RefundStep {
    return this.#step;
  }
  get open(): boolean {
    return this.#step !== 'closed';
  }
  get order(): Order | null {
    return this.#order;
  }
  get view(): RefundableView | null {
    return this.#view;
  }
  get block(): RefundBlock | null {
    return this.#block;
  }
  get reason(): string {
    return this.#reason;
  }
  set reason(text: string) {
    this.#reason = text;
    this.#drop('reason');
  }
  get how(): RefundHow {
    return this.#how;
  }
  set how(how: RefundHow) {
    if (this.#view?.hows.includes(how)) this.#how = how;
    this.#drop('how');
  }
  get managerId(): number | null {
    return this.#managerId;
  }
  set managerId(id: number | null) {
    this.#managerId = id;
    this.#drop('managerPin');
  }
  get issues(): readonly RefundFieldIssue[] {
    return this.#issues;
  }
  get error(): CallError | null {
    return this.#error;
  }
  get busy(): boolean {
    return this.#busy;
  }
  get refund(): RefundView | null {
    return this.#refund;
  }
  get receiptHtml(): string | null {
    return this.#receiptHtml;
  }
  get printed(): boolean {
    return this.#printed;
  }
  get printFailed(): boolean {
    return this.#printFailed;
  }

  /** The issue of a field (`reason`, `how`, `managerPin`, `lines[0].qty`, `sale`), if any. */
  issueFor(field: string): RefundFieldIssue | undefined {
    return this.#issues.find((i) => i.field === field);
  }

  /** Lines still to refund, in the sale's order. */
  get lines(): readonly RefundableLine[] {
    return this.#view?.lines ?? [];
  }

  qtyOf(lineId: string): number {
    return this.#picks[lineId] ?? 0;
  }

  /** Ticks a line (all that is left of it) or unticks it. */
  toggle(lineId: string): void {
    const line = this.lines.find((l) => l.lineId === lineId);
    if (!line || line.qtyLeft === 0) return;
    this.setQty(lineId, this.qtyOf(lineId) > 0 ? 0 : line.qtyLeft);
  }

  /** The quantity of a line, kept from 0 to what is left of it. */
  setQty(lineId: string, qty: number): void {
    const line = this.lines.find((l) => l.lineId === lineId);
    if (!line) return;
    const q = Number.isFinite(qty) ? Math.max(0, Math.min(line.qtyLeft, Math.trunc(qty))) : 0;
    this.#picks = { ...this.#picks, [lineId]: q };
    this.#dropLines();
  }

  /** Everything still left of the sale. */
  pickWhole(): void {
    this.#picks = Object.fromEntries(this.lines.filter((l) => l.qtyLeft > 0).map((l) => [l.lineId, l.qtyLeft]));
    this.#dropLines();
  }

  /** Every line with something left is ticked in full (the whole sale). */
  get whole(): boolean {
    const left = this.lines.filter((l) => l.qtyLeft > 0);
    return left.length > 0 && left.every((l) => this.qtyOf(l.lineId) === l.qtyLeft);
  }

  get picked(): { lineId: string; qty: number }[] {
    return this.lines
      .filter((l) => this.qtyOf(l.lineId) > 0)
      .map((l) => ({ lineId: l.lineId, qty: this.qtyOf(l.lineId) }));
  }

  /**
   * The money that goes back, as the server works it out: each line's share of what is left (a line in full gives
   * back all that is left of it), then the sale's cash rounding in proportion. A cash refund may hand back up to
   * Rp99 less (rounded down to Rp100 when the store rounds cash); the refund made says exactly.
   */
  get money(): number {
    const view = this.#view;
    if (!view) return 0;
    if (this.whole) return view.moneyLeft;
    let amount = 0;
    for (const line of view.lines) {
      const q = this.qtyOf(line.lineId);
      if (q > 0) amount += q === line.qtyLeft ? line.amountLeft : Math.round((line.amountLeft * q) / line.qtyLeft);
    }
    return (
      cumulativeMoney(view.amountRefunded + amount, view.total, view.paid) -
      cumulativeMoney(view.amountRefunded, view.total, view.paid)
    );
  }

  /** The sale's number typed (or scanned) on the find step. */
  saleText = $state('');

  /** The dialog opens asking for a sale's number (the one on its receipt). */
  find(): void {
    this.#seq++;
    this.#reset();
    this.saleText = '';
    this.#step = 'find';
  }

  /** The sale typed on the find step: what is left to refund of it, or "no such sale" under the field. */
  async lookUp(): Promise<void> {
    const saleId = this.saleText.trim();
    if (this.#step !== 'find' || this.#busy) return;
    if (saleId === '' || saleId.length > 40) {
      this.#block = 'no_sale';
      return;
    }
    const seq = ++this.#seq;
    this.#busy = true;
    this.#block = null;
    this.#error = null;
    try {
      const view = await this.#deps.api.refundableOf({ saleId });
      if (seq !== this.#seq) return;
      if (!view) this.#block = 'no_sale';
      else this.#show(view);
    } catch (err) {
      if (seq === this.#seq) this.#error = toCallError(err);
    } finally {
      if (seq === this.#seq) this.#busy = false;
    }
  }

  /** The dialog opens for a paid order: its sale is found, then what is left to refund of it. */
  async start(order: Order): Promise<void> {
    const seq = ++this.#seq;
    this.#reset();
    this.#order = order;
    this.#step = 'loading';
    try {
      const sale = await this.#deps.api.saleOf({ orderId: order.id });
      if (seq !== this.#seq) return;
      if (!sale) return this.#blocked('no_sale');
      const view = await this.#deps.api.refundableOf({ saleId: sale.id });
      if (seq !== this.#seq) return;
      if (!view) return this.#blocked('no_sale');
      this.#show(view);
    } catch (err) {
      if (seq === this.#seq) {
        this.#error = toCallError(err);
        this.#step = 'form';
      }
    }
  }

  /**
   * Asks the server for the refund. What the screen can see is checked first (a line, the reason, the manager and a
   * PIN of 4 to 8 digits); the server checks everything again and its issues are shown by field.
   */
  async submit(): Promise<boolean> {
    const view = this.#view;
    if (!view || this.#busy || this.#step !== 'form' || this.#block) return false;
    const issues = this.#check();
    this.#issues = issues;
    if (issues.length > 0) return false;
    const seq = this.#seq;
    this.#busy = true;
    this.#error = null;
    try {
      const result = await this.#deps.api.refundSale({
        saleId: view.saleId,
        // Always the lines and quantities the cashier saw, even for the whole sale: if another till refunded part of
        // it meanwhile, the server refuses (naming what is left) rather than refunding something else.
        lines: this.picked,
        reason: this.#reason.trim(),
        how: this.#how,
        managerPin: { staffId: this.#managerId!, pin: this.pin.value },
      });
      if (seq !== this.#seq) return false;
      this.pin.clear();
      if (!result.ok) {
        this.#issues = result.issues;
        return false;
      }
      this.#refund = result.refund;
      this.#view = result.refundable;
      this.#step = 'done';
      await this.#loadReceipt(seq);
      return true;
    } catch (err) {
      if (seq === this.#seq) this.#error = toCallError(err);
      return false;
    } finally {
      if (seq === this.#seq) this.#busy = false;
    }
  }

  /** Prints the refund's receipt: the first print is the original, any later one a copy. */
  async print(): Promise<void> {
    const refund = this.#refund;
    if (!refund || this.#busy) return;
    this.#busy = true;
    this.#printFailed = false;
    try {
      if (this.#deps.networkPrinter()) {
        const result = await this.#deps.api.printRefundReceipt({ refundId: refund.id, copy: this.#printed });
        if (result.ok) this.#printed = true;
        else this.#printFailed = true;
        return;
      }
      const { html } = await this.#deps.api.refundReceipt({
        refundId: refund.id,
        paper: this.#deps.paper(),
        copy: this.#printed,
      });
      await this.#deps.printDocument(html);
      this.#printed = true;
    } catch (err) {
      this.#error = toCallError(err);
      this.#printFailed = true;
    } finally {
      this.#busy = false;
    }
  }

  close(): void {
    this.#seq++;
    this.#reset();
    this.#step = 'closed';
  }

  #check(): RefundFieldIssue[] {
    const issues: RefundFieldIssue[] = [];
    if (this.picked.length === 0) issues.push({ field: 'lines', rule: 'lines', message: 'lines: pick a line' });
    const reason = this.#reason.trim();
    if (reason.length < REASON_MIN || reason.length > REASON_MAX)
      issues.push({
        field: 'reason',
        rule: 'reason',
        message: 'reason: 3 to 200 characters',
        params: { min: REASON_MIN, max: REASON_MAX },
      });
    if (this.#managerId === null)
      issues.push({ field: 'managerPin', rule: 'pin_required', message: 'managerPin: pick a manager' });
    else if (!this.pin.complete)
      issues.push({ field: 'managerPin', rule: 'format', message: 'managerPin: 4 to 8 digits' });
    return issues;
  }

  async #loadReceipt(seq: number): Promise<void> {
    const refund = this.#refund;
    if (!refund) return;
    try {
      const { html } = await this.#deps.api.refundReceipt({ refundId: refund.id, paper: this.#deps.paper() });
      if (seq === this.#seq) this.#receiptHtml = html;
    } catch (err) {
      // The refund is made whatever happens to its receipt: the dialog says the receipt did not come.
      if (seq === this.#seq) this.#error = toCallError(err);
    }
  }

  #show(view: RefundableView): void {
    this.#view = view;
    this.#how = view.hows.includes(view.defaultHow) ? view.defaultHow : (view.hows[0] ?? 'cash');
    if (!view.refundable) this.#block = 'not_completed';
    else if (view.moneyLeft <= 0 || view.lines.every((l) => l.qtyLeft === 0)) this.#block = 'nothing_left';
    this.#step = 'form';
  }

  #blocked(block: RefundBlock): void {
    this.#block = block;
    this.#step = 'form';
  }

  #reset(): void {
    this.#order = null;
    this.#view = null;
    this.#block = null;
    this.#picks = {};
    this.#reason = '';
    this.#how = 'cash';
    this.#managerId = null;
    this.pin.clear();
    this.#issues = [];
    this.#error = null;
    this.#busy = false;
    this.#refund = null;
    this.#receiptHtml = null;
    this.#printed = false;
    this.#printFailed = false;
  }

  #drop(field: string): void {
    if (this.#issues.some((i) => i.field === field)) this.#issues = this.#issues.filter((i) => i.field !== field);
  }

  #dropLines(): void {
    const kept = this.#issues.filter((i) => i.field !== 'lines' && i.field !== 'sale' && !i.field.startsWith('lines['));
    if (kept.length !== this.#issues.length) this.#issues = kept;
  }
}
