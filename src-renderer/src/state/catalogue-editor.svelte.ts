import type { Product } from '../../../src-main/common/product';
import {
  CATALOGUE_CHUNK_CHARS,
  CATALOGUE_PAGE_SIZE,
  CATALOGUE_UPLOAD_MAX_BYTES,
  checkProductInput,
  type CatalogueImportResult,
  type CatalogueUploadResult,
  type CataloguePage,
  type ProductField,
  type ProductInput,
  type ProductIssue,
} from '../../../src-main/common/product-form';
import type { DownloadTicket } from '../../../src-main/common/reports';
import type { TaxCategory } from '../../../src-main/common/tax';
import type { ExportDelivery } from '../api/client';
import { toCallError, type CallError } from '../api/errors';
import { readAmount } from '../lib/amount-input';
import type { CallOutcome, ManagerContext } from './manager-context';

/** The form's fields as typed: barcodes one a line (or separated by spaces, commas or |), the price as text. */
export interface ProductDraft {
  sku: string;
  name: string;
  barcodes: string;
  category: string;
  price: string;
  taxCategory: TaxCategory;
  active: boolean;
}

export interface CatalogueDeps {
  /** Saves a prepared file: a download in browser mode, the save dialog in the desktop app. */
  deliver: (ticket: DownloadTicket) => Promise<ExportDelivery>;
  /** How the screen waits between search keystrokes (tests pass one that runs at once). */
  debounce?: (fn: () => void) => () => void;
}

/** Where an import stands: nothing picked, reading/sending/checking, the dry run's answer, the import's. */
export type ImportStage =
  | { kind: 'none' }
  | { kind: 'busy'; step: 'upload' | 'check' | 'import'; name: string }
  | { kind: 'checked'; name: string; result: CatalogueImportResult }
  | { kind: 'imported'; name: string; result: CatalogueImportResult & { ok: true } }
  /** Refused before the server read it: too large, or empty. */
  | { kind: 'refused'; name: string; problem: 'too_large' | 'empty' | 'gone'; maxBytes: number };

const SEARCH_WAIT_MS = 150;

function defaultDebounce(fn: () => void): () => void {
  const timer = setTimeout(fn, SEARCH_WAIT_MS);
  return () => clearTimeout(timer);
}

/** The barcodes typed in the form: one a line, or separated by spaces, commas, semicolons or |. */
export function barcodesOf(text: string): string[] {
  return text.split(/[\s,;|]+/).filter((s) => s !== '');
}

/** The bytes as base64 chunks of at most CATALOGUE_CHUNK_CHARS characters (whole base64 quanta each). */
export function base64Chunks(bytes: Uint8Array): string[] {
  const per = (CATALOGUE_CHUNK_CHARS / 4) * 3;
  const chunks: string[] = [];
  for (let at = 0; at < bytes.length; at += per) {
    let text = '';
    const part = bytes.subarray(at, at + per);
    // String.fromCharCode on pieces: spreading 36,000 bytes at once may overflow the call stack.
    for (let i = 0; i < part.length; i += 4096) text += String.fromCharCode(...part.subarray(i, i + 4096));
    chunks.push(btoa(text));
  }
  return chunks;
}

/**
 * The manager's catalogue (docs/catalogue.md, "In the app"): the product list (a page of 50 by SKU, or what a
 * search finds, as the manager types), the form that adds or changes a product (checked here first, with the same
 * rules as the server, then by the server, which alone knows whether a SKU or barcode is taken), a product's
 * deactivation, the import (the file sent in chunks, a dry run, then Import) and the export.
 */
export class CatalogueEditor {
  #page = $state.raw<CataloguePage | null>(null);
  #search = $state('');
  #loading = $state(false);
  #error = $state.raw<CallError | null>(null);
  #seq = 0;
  #cancelSearch: (() => void) | null = null;

  #editing = $state.raw<{ id: string | null; before: Product | null } | null>(null);
  #draft = $state<ProductDraft>(emptyDraft('ppn'));
  #issues = $state.raw<ProductIssue[]>([]);
  #priceProblem = $state(false);
  #saving = $state(false);
  #formError = $state.raw<CallError | null>(null);
  #notice = $state.raw<{ kind: 'added' | 'saved' | 'deactivated' | 'activated'; name: string } | null>(null);
  #rowBusy = $state<string | null>(null);

  #import = $state.raw<ImportStage>({ kind: 'none' });
  #uploadId: string | null = null;
  #importError = $state.raw<CallError | null>(null);

  #exportFormat = $state<'csv' | 'xlsx'>('csv');
  #exporting = $state(false);
  #exported = $state.raw<ExportDelivery | null>(null);
  #exportError = $state.raw<CallError | null>(null);

  readonly #ctx: ManagerContext;
  readonly #deps: CatalogueDeps;

  constructor(ctx: ManagerContext, deps: CatalogueDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
  }

  // ------------------------------------------------------------ the list

  get page(): CataloguePage | null {
    return this.#page;
  }
  get search(): string {
    return this.#search;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): CallError | null {
    return this.#error;
  }
  get pageSize(): number {
    return CATALOGUE_PAGE_SIZE;
  }
  get hasPrevious(): boolean {
    return this.#page !== null && this.#page.search === '' && this.#page.offset > 0;
  }
  get hasNext(): boolean {
    const p = this.#page;
    return p !== null && p.search === '' && p.offset + p.products.length < p.total;
  }

  /** The section is on screen: the first page, fresh. */
  open(): Promise<void> {
    return this.load(this.#page?.search === '' ? this.#page.offset : 0);
  }

  /** The search box changed: the list follows once the manager pauses typing. */
  setSearch(text: string): void {
    this.#search = text;
    this.#cancelSearch?.();
    this.#cancelSearch = (this.#deps.debounce ?? defaultDebounce)(() => {
      this.#cancelSearch = null;
      void this.load(0);
    });
  }

  nextPage(): Promise<void> {
    return this.hasNext ? this.load(this.#page!.offset + CATALOGUE_PAGE_SIZE) : Promise.resolve();
  }
  previousPage(): Promise<void> {
    return this.hasPrevious ? this.load(Math.max(0, this.#page!.offset - CATALOGUE_PAGE_SIZE)) : Promise.resolve();
  }

  /** Loads a page (or the search's answer); an answer overtaken by a later request is dropped. */
  async load(offset = 0): Promise<void> {
    const seq = ++this.#seq;
    this.#loading = true;
    const search = this.#search.trim();
    const outcome = await this.#ctx.call((api, token) =>
      api.catalogueList(token, search === '' ? { offset } : { search }),
    );
    if (seq !== this.#seq) return;
    this.#loading = false;
    if (!outcome.ok) {
      if (outcome.error.code !== 'locked') this.#error = outcome.error;
      return;
    }
    this.#error = null;
    this.#page = outcome.value;
  }

  // ------------------------------------------------------------ the form

  /** The product being added (id null) or changed; null when the form is closed. */
  get editing(): { id: string | null; before: Product | null } | null {
    return this.#editing;
  }
  get draft(): Readonly<ProductDraft> {
    return this.#draft;
  }
  get saving(): boolean {
    return this.#saving;
  }
  get formError(): CallError | null {
    return this.#formError;
  }
  get notice(): { kind: 'added' | 'saved' | 'deactivated' | 'activated'; name: string } | null {
    return this.#notice;
  }
  get rowBusy(): string | null {
    return this.#rowBusy;
  }

  /** The issues of one field (the server's or found here), in order. */
  issuesOf(field: ProductField): ProductIssue[] {
    return this.#issues.filter((i) => i.field === field);
  }
  /** The typed price is not a whole number of rupiah as people write one. */
  get priceProblem(): boolean {
    return this.#priceProblem;
  }
  /** The first field with an issue, for the focus. */
  get firstProblem(): ProductField | null {
    if (this.#priceProblem && !this.#issues.some((i) => ['sku', 'name', 'barcodes', 'category'].includes(i.field)))
      return 'price';
    const order: ProductField[] = ['sku', 'name', 'barcodes', 'category', 'price', 'taxCategory'];
    return order.find((f) => this.#issues.some((i) => i.field === f)) ?? (this.#priceProblem ? 'price' : null);
  }

  startNew(): void {
    this.#editing = { id: null, before: null };
    this.#draft = emptyDraft(this.#page?.defaultTaxCategory ?? 'ppn');
    this.#clearForm();
  }

  startEdit(product: Product): void {
    this.#editing = { id: product.id, before: product };
    this.#draft = {
      sku: product.sku,
      name: product.name,
      barcodes: product.barcodes.join('\n'),
      category: product.category,
      price: String(product.price),
      taxCategory: product.taxCategory,
      active: product.active,
    };
    this.#clearForm();
  }

  cancel(): void {
    this.#editing = null;
    this.#clearForm();
  }

  set<K extends keyof ProductDraft>(key: K, value: ProductDraft[K]): void {
    this.#draft[key] = value;
    if (key === 'active') return;
    const field: ProductField = key;
    if (key === 'price') this.#priceProblem = false;
    if (this.#issues.some((i) => i.field === field)) this.#issues = this.#issues.filter((i) => i.field !== field);
  }

  /** Checks the form here, then saves it; true when saved (the form closes and the list shows the product). */
  async save(): Promise<boolean> {
    const editing = this.#editing;
    if (!editing || this.#saving) return false;
    const draft = { ...this.#draft };
    const price = readAmount(draft.price);
    this.#priceProblem = price.kind !== 'amount';
    const input: ProductInput = {
      sku: draft.sku.trim(),
      name: draft.name.trim(),
      barcodes: barcodesOf(draft.barcodes),
      category: draft.category.trim(),
      price: price.kind === 'amount' ? price.value : 0,
      taxCategory: draft.taxCategory,
      active: draft.active,
      ...(editing.before?.itemId !== undefined ? { itemId: editing.before.itemId } : {}),
    };
    const local = checkProductInput(input);
    this.#issues = local.ok ? [] : local.issues.filter((i) => !(this.#priceProblem && i.field === 'price'));
    if (!local.ok || this.#priceProblem) return false;
    this.#saving = true;
    this.#formError = null;
    try {
      const outcome = await this.#ctx.call((api, token) => api.saveProduct(token, { id: editing.id, product: input }));
      if (!outcome.ok) {
        if (outcome.error.code !== 'locked') this.#formError = outcome.error;
        return false;
      }
      if (!outcome.value.ok) {
        this.#issues = outcome.value.issues;
        return false;
      }
      const saved = outcome.value.product;
      this.#notice = { kind: outcome.value.created ? 'added' : 'saved', name: saved.name };
      this.#editing = null;
      this.#clearForm(false);
      // The saved product at the top of the list: found by its SKU.
      this.#search = saved.sku;
      await this.load(0);
      return true;
    } finally {
      this.#saving = false;
    }
  }

  /** Deactivates (or activates again) a product of the list: a change like any other, audited. */
  async setActive(product: Product, active: boolean): Promise<boolean> {
    if (this.#rowBusy !== null) return false;
    this.#rowBusy = product.id;
    this.#error = null;
    try {
      const outcome = await this.#ctx.call((api, token) => api.setProductActive(token, product.id, active));
      if (!outcome.ok) {
        if (outcome.error.code !== 'locked') this.#error = outcome.error;
        return false;
      }
      if (!outcome.value.ok) {
        await this.load(this.#page?.offset ?? 0);
        return false;
      }
      const saved = outcome.value.product;
      this.#notice = { kind: active ? 'activated' : 'deactivated', name: saved.name };
      const page = this.#page;
      if (page) this.#page = { ...page, products: page.products.map((p) => (p.id === saved.id ? saved : p)) };
      return true;
    } finally {
      this.#rowBusy = null;
    }
  }

  #clearForm(clearNotice = true): void {
    this.#issues = [];
    this.#priceProblem = false;
    this.#formError = null;
    if (clearNotice) this.#notice = null;
  }

  // ------------------------------------------------------------ the import

  get importStage(): ImportStage {
    return this.#import;
  }
  get importError(): CallError | null {
    return this.#importError;
  }
  get importBusy(): boolean {
    return this.#import.kind === 'busy';
  }

  /** A file picked: its bytes go to Loket in chunks, then the dry run says what an import would do. */
  async pickFile(name: string, bytes: Uint8Array): Promise<void> {
    if (this.importBusy) return;
    this.#importError = null;
    this.#uploadId = null;
    if (bytes.length === 0) {
      this.#import = { kind: 'refused', name, problem: 'empty', maxBytes: CATALOGUE_UPLOAD_MAX_BYTES };
      return;
    }
    if (bytes.length > CATALOGUE_UPLOAD_MAX_BYTES) {
      this.#import = { kind: 'refused', name, problem: 'too_large', maxBytes: CATALOGUE_UPLOAD_MAX_BYTES };
      return;
    }
    this.#import = { kind: 'busy', step: 'upload', name };
    let uploadId: string | null = null;
    for (const data of base64Chunks(bytes)) {
      const id: string | null = uploadId;
      const sent: CallOutcome<CatalogueUploadResult> = await this.#ctx.call((api, token) =>
        api.catalogueUpload(token, { uploadId: id, data }),
      );
      if (!sent.ok) return this.#failImport(sent.error);
      if (!sent.value.ok) {
        this.#import = { kind: 'refused', name, problem: sent.value.problem, maxBytes: sent.value.maxBytes };
        return;
      }
      uploadId = sent.value.uploadId;
    }
    this.#uploadId = uploadId;
    this.#import = { kind: 'busy', step: 'check', name };
    const checked = await this.#ctx.call((api, token) =>
      api.catalogueImport(token, { uploadId: uploadId!, dryRun: true }),
    );
    if (!checked.ok) return this.#failImport(checked.error);
    this.#import = { kind: 'checked', name, result: checked.value };
  }

  /** After a clean dry run: imports the file, all or nothing. */
  async importNow(): Promise<boolean> {
    const stage = this.#import;
    const uploadId = this.#uploadId;
    if (stage.kind !== 'checked' || !stage.result.ok || uploadId === null) return false;
    this.#importError = null;
    this.#import = { kind: 'busy', step: 'import', name: stage.name };
    const done = await this.#ctx.call((api, token) => api.catalogueImport(token, { uploadId, dryRun: false }));
    if (!done.ok) {
      this.#failImport(done.error, stage);
      return false;
    }
    if (!done.value.ok) {
      this.#import = { kind: 'checked', name: stage.name, result: done.value };
      return false;
    }
    this.#uploadId = null;
    this.#import = { kind: 'imported', name: stage.name, result: done.value };
    await this.load(0);
    return true;
  }

  /** Forgets the file picked (the manager picks another, or gives up). */
  clearImport(): void {
    if (this.importBusy) return;
    this.#import = { kind: 'none' };
    this.#uploadId = null;
    this.#importError = null;
  }

  #failImport(error: CallError, back: ImportStage = { kind: 'none' }): void {
    this.#import = back;
    if (error.code !== 'locked') this.#importError = error;
  }

  // ------------------------------------------------------------ the export

  get exportFormat(): 'csv' | 'xlsx' {
    return this.#exportFormat;
  }
  get exporting(): boolean {
    return this.#exporting;
  }
  get exported(): ExportDelivery | null {
    return this.#exported;
  }
  get exportError(): CallError | null {
    return this.#exportError;
  }

  setExportFormat(format: 'csv' | 'xlsx'): void {
    this.#exportFormat = format;
  }

  /**
   * The whole catalogue as a file: CSV with ';' and a BOM (what Excel set to Indonesian opens by a double click), or
   * XLSX; the same format the import reads.
   */
  async exportFile(): Promise<boolean> {
    if (this.#exporting) return false;
    this.#exporting = true;
    this.#exportError = null;
    this.#exported = null;
    const format = this.#exportFormat;
    try {
      const prepared = await this.#ctx.call((api, token) =>
        api.prepareCatalogueExport(token, format === 'csv' ? { format, delimiter: ';', bom: true } : { format }),
      );
      if (!prepared.ok) {
        if (prepared.error.code !== 'locked') this.#exportError = prepared.error;
        return false;
      }
      try {
        this.#exported = await this.#deps.deliver(prepared.value);
      } catch (err) {
        this.#exportError = toCallError(err);
        return false;
      }
      return this.#exported.kind !== 'not_saved';
    } finally {
      this.#exporting = false;
    }
  }
}

function emptyDraft(taxCategory: TaxCategory): ProductDraft {
  return { sku: '', name: '', barcodes: '', category: '', price: '', taxCategory, active: true };
}
