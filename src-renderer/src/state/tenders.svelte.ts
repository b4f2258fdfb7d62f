import type { LoketApi } from '../../../src-main/common/api';
import {
  roundCash,
  type CashIssue,
  type CashRounding,
  type TenderInput,
  type TenderStep,
} from '../../../src-main/common/cash';
import { planTenders } from '../../../src-main/common/tender-kinds/plan';
import type { SaleFieldIssue } from '../../../src-main/common/sale';
import { readAmount } from '../lib/amount-input';

/** What the cashier is entering on the tender screen: cash handed over, a card slip or transfer, or a gateway method. */
export type TenderEntry = 'cash' | 'other' | 'gateway';

/**
 * The usual notes offered as "handed" (besides the exact amount). Only those at least what is due are offered: a
 * note below it would pay only part of the sale, which a cashier types on purpose (a split), never taps by chance.
 */
export const CASH_NOTES = [10_000, 20_000, 50_000, 100_000] as const;

/** What confirming the entry does: charge the sale with these tenders, keep it as a part paid, or nothing (issue). */
export type TenderAction = { kind: 'charge'; tenders: TenderInput[] } | { kind: 'part' } | { kind: 'invalid' };

export interface TenderDeps {
  api: Pick<LoketApi, 'currentShift'>;
  /** The sale's total as the server quoted it; null while there is no quote. */
  total: () => number | null;
  /** The store's cash rounding (from the quote). */
  rounding: () => CashRounding;
}

/**
 * The tender screen's state: the tenders taken so far (cash or other paying part of the sale, not sent yet: the sale
 * is charged once, with all of them, when the last one settles it), the tender being entered, and what it would do —
 * the change and the rounding line of cash, what is still due after it — worked out with the same pure rules the
 * server charges by (common/cash.ts, planTenders), so the screen shows the change before anything is sent. The server
 * checks it all again; its issues come back here.
 */
export class TenderManager {
  #open = $state(false);
  #entry = $state<TenderEntry>('cash');
  #parts = $state.raw<TenderInput[]>([]);
  #handedText = $state('');
  #referenceText = $state('');
  #amountText = $state('');
  #methodId = $state('');
  #issues = $state.raw<SaleFieldIssue[]>([]);
  /** This till has no open shift (asked when the screen opens, or the server refused cash for it). */
  #noShift = $state(false);
  readonly #deps: TenderDeps;

  constructor(deps: TenderDeps) {
    this.#deps = deps;
  }

  get isOpen(): boolean {
    return this.#open;
  }
  get entry(): TenderEntry {
    return this.#entry;
  }
  get parts(): readonly TenderInput[] {
    return this.#parts;
  }
  get handedText(): string {
    return this.#handedText;
  }
  get referenceText(): string {
    return this.#referenceText;
  }
  get amountText(): string {
    return this.#amountText;
  }
  get methodId(): string {
    return this.#methodId;
  }
  set methodId(id: string) {
    this.#methodId = id;
    this.#issues = [];
  }
  get noShift(): boolean {
    return this.#noShift;
  }
  /** The server's issues of the tenders (and any not on a line of the cart). */
  get issues(): readonly SaleFieldIssue[] {
    return this.#issues;
  }

  get total(): number | null {
    return this.#deps.total();
  }

  /** The parts taken so far, as the rules see them: each one's step, or the issue when the cart changed under them. */
  get partsPlan(): { steps: TenderStep[]; due: number } | { issues: CashIssue[] } | null {
    const total = this.total;
    if (total === null) return null;
    const plan = planTenders(total, this.#parts, this.#deps.rounding());
    return plan.ok ? { steps: plan.plan.steps, due: plan.plan.due } : { issues: plan.issues };
  }

  /** Still due after the parts taken (the whole total before any). */
  get due(): number | null {
    const plan = this.partsPlan;
    return plan && 'due' in plan ? plan.due : null;
  }

  /** Σ of what the parts taken pay. */
  get taken(): number {
    const plan = this.partsPlan;
    return plan && 'steps' in plan ? plan.steps.reduce((a, s) => a + s.applied, 0) : 0;
  }

  /** The tender being entered, as the API takes it; null while nothing (or nothing readable) is entered. */
  get draft(): TenderInput | null {
    if (this.#entry === 'gateway') return this.#methodId ? { kind: 'gateway', methodId: this.#methodId } : null;
    if (this.#entry === 'cash') {
      const handed = readAmount(this.#handedText);
      return handed.kind === 'amount' ? { kind: 'cash', handed: handed.value } : null;
    }
    const amount = readAmount(this.#amountText);
    if (amount.kind !== 'amount' && amount.kind !== 'empty') return null;
    return {
      kind: 'other',
      reference: this.#referenceText,
      ...(amount.kind === 'amount' ? { amount: amount.value } : {}),
    };
  }

  /** The amount typed that is not one (its field says so: whole rupiah). */
  get amountUnreadable(): boolean {
    const text = this.#entry === 'cash' ? this.#handedText : this.#entry === 'other' ? this.#amountText : '';
    const reading = readAmount(text);
    return reading.kind === 'invalid';
  }

  /** What the tender being entered would do: its step (change, rounding, still due after), or its issue. */
  get preview(): { ok: true; step: TenderStep } | { ok: false; issue: CashIssue } | null {
    const total = this.total;
    const draft = this.draft;
    if (total === null || draft === null || this.due === null) return null;
    const plan = planTenders(total, [...this.#parts, draft], this.#deps.rounding());
    if (plan.ok) return { ok: true, step: plan.plan.steps[plan.plan.steps.length - 1]! };
    const at = `tenders[${this.#parts.length}].`;
    const issue = plan.issues.find((i) => i.field.startsWith(at)) ?? plan.issues[0]!;
    return { ok: false, issue };
  }

  /** The entry settles the sale: confirming it charges. */
  get settles(): boolean {
    const preview = this.preview;
    return this.#entry === 'gateway' ? this.#methodId !== '' : preview?.ok === true && preview.step.dueAfter === 0;
  }

  /** The cash due as exact money (rounded as the store rounds cash), then the usual notes at least that. */
  get quickCash(): { exact: number; notes: number[] } | null {
    const due = this.due;
    if (due === null || due === 0) return null;
    const exact = roundCash(due, this.#deps.rounding());
    return { exact, notes: CASH_NOTES.filter((n) => n > exact) };
  }

  /** Opens the tender screen on one entry (the sale form's Cash or Card/transfer tile), and asks for the shift. */
  async open(entry: TenderEntry, methodId = ''): Promise<void> {
    this.#open = true;
    this.#issues = [];
    this.setEntry(entry);
    if (methodId && !this.#methodId) this.#methodId = methodId;
    try {
      this.#noShift = (await this.#deps.api.currentShift()) === null;
    } catch {
      // Not known: the server refuses cash without a shift anyway, and the screen says so then.
      this.#noShift = false;
    }
  }

  /** Back to the cart (Esc): nothing was sent; the parts taken stay, shown again when the screen opens. */
  close(): void {
    this.#open = false;
    this.#issues = [];
  }

  /** The sale was charged (or a new sale starts): everything here goes. */
  reset(): void {
    this.#open = false;
    this.#entry = 'cash';
    this.#parts = [];
    this.#handedText = '';
    this.#referenceText = '';
    this.#amountText = '';
    this.#issues = [];
    this.#noShift = false;
  }

  setEntry(entry: TenderEntry): void {
    this.#entry = entry;
    this.#issues = [];
  }
  setHanded(text: string): void {
    this.#handedText = text;
    this.#issues = [];
  }
  /** A quick-cash button: that much was handed over. */
  pickHanded(amount: number): void {
    this.setHanded(String(amount));
  }
  setReference(text: string): void {
    this.#referenceText = text;
    this.#issues = [];
  }
  setAmount(text: string): void {
    this.#amountText = text;
    this.#issues = [];
  }

  /** Takes a part back (a mistake, or the customer changed their mind): nothing of it was sent. */
  removePart(index: number): void {
    this.#parts = this.#parts.filter((_, i) => i !== index);
    this.#issues = [];
  }

  /**
   * Enter: a tender that settles the sale (or a gateway method for the rest) charges it with every tender; one that
   * pays part of it is taken (the rest is still due); one with an issue stays, its issue shown.
   */
  confirm(): TenderAction {
    const draft = this.draft;
    if (this.#entry === 'gateway') {
      if (!draft) {
        this.#issues = [{ field: `tenders[${this.#parts.length}].methodId`, rule: 'method', message: '' }];
        return { kind: 'invalid' };
      }
      return { kind: 'charge', tenders: [...this.#parts, draft] };
    }
    // The total is still on its way (the quote): nothing to check the tender against yet; the screen shows "…".
    if (this.total === null || this.due === null) return { kind: 'invalid' };
    const preview = this.preview;
    if (!preview || !draft) {
      this.#issues = [{ field: `tenders[${this.#parts.length}].amount`, rule: 'amount', message: '' }];
      return { kind: 'invalid' };
    }
    if (!preview.ok) {
      this.#issues = [{ field: preview.issue.field, rule: preview.issue.rule, message: preview.issue.message }];
      return { kind: 'invalid' };
    }
    if (preview.step.dueAfter === 0) return { kind: 'charge', tenders: [...this.#parts, draft] };
    this.#parts = [...this.#parts, draft];
    this.#handedText = '';
    this.#referenceText = '';
    this.#amountText = '';
    this.#issues = [];
    return { kind: 'part' };
  }

  /** The server refused the tenders: its issues show here; "no open shift" shows its own message and button. */
  showIssues(issues: readonly SaleFieldIssue[]): void {
    this.#issues = issues.filter((i) => i.field.startsWith('tenders') || i.field === 'methodId');
    if (issues.some((i) => i.rule === 'no_open_shift')) this.#noShift = true;
  }

  /** A shift was opened meanwhile (the shift screen): cash may be taken. */
  shiftOpened(): void {
    this.#noShift = false;
    this.#issues = this.#issues.filter((i) => i.rule !== 'no_open_shift');
  }
}
