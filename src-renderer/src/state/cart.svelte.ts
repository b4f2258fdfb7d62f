import type { LoketApi } from '../../../src-main/common/api';
import type { Product } from '../../../src-main/common/product';
import type { Cart, SaleFieldIssue, SaleQuote } from '../../../src-main/common/sale';
import type { Discount } from '../../../src-main/common/sale-line';
import * as edit from '../lib/cart-edit';

export type CartApi = Pick<LoketApi, 'searchProducts' | 'productByCode' | 'currentCart' | 'saveCart' | 'quoteSale'>;

export interface CartDeps {
  api: CartApi;
  /** A new line's id (crypto.randomUUID in the app; a counter in tests). */
  newLineId: () => string;
  /** A new cart's idempotency key (common/sale.ts saleKeySchema); by default crypto.randomUUID. */
  newSaleKey?: () => string;
  /** How long the quote waits for the cashier to stop changing the cart (ms); 0 asks at once. */
  quoteDelayMs?: number;
}

/** What the last scan did, said under the cart until the next one. */
export type ScanNotice = { kind: 'unknown'; code: string } | { kind: 'added'; name: string };

/** How many products the search shows under its field. */
export const SEARCH_LIMIT = 20;

/**
 * The cart being rung up at this till. Every change is saved at once (saveCart: a reload or a restart never loses a
 * line) and quoted after a short pause (quoteSale: the figures on the screen are always the server's). Saves go
 * one after another, so the last change is the one stored.
 */
export class CartState {
  #cart = $state.raw<Cart>(edit.EMPTY_CART);
  #quote = $state.raw<SaleQuote | null>(null);
  #quoting = $state(false);
  #results = $state.raw<Product[]>([]);
  #notice = $state.raw<ScanNotice | null>(null);
  #issues = $state.raw<SaleFieldIssue[]>([]);
  #saving: Promise<unknown> = Promise.resolve();
  /** Quick items' products being looked up (addQuickItem): a charge waits for them. */
  #lookups: Promise<unknown> = Promise.resolve();
  #quoteTimer: ReturnType<typeof setTimeout> | undefined;
  #quoteSeq = 0;
  #searchSeq = 0;
  #loaded = $state(false);
  /** The cart changed before the stored one came back (a scan right after a reload). */
  #changedBeforeLoad = false;
  readonly #deps: CartDeps;

  constructor(deps: CartDeps) {
    this.#deps = deps;
  }

  get cart(): Cart {
    return this.#cart;
  }
  get lines(): Cart['lines'] {
    return this.#cart.lines;
  }
  get empty(): boolean {
    return this.#cart.lines.length === 0;
  }
  get quote(): SaleQuote | null {
    return this.#quote;
  }
  /** A quote is on its way: the figures shown are for an earlier cart. */
  get quoting(): boolean {
    return this.#quoting;
  }
  get results(): readonly Product[] {
    return this.#results;
  }
  get notice(): ScanNotice | null {
    return this.#notice;
  }
  /** The server's issues of the cart (from the quote, or a charge), each naming its field and rule. */
  get issues(): readonly SaleFieldIssue[] {
    if (this.#issues.length > 0) return this.#issues;
    return this.#quote && !this.#quote.ok ? this.#quote.issues : [];
  }
  /** Discounts above the manager-set limit: a charge needs a manager's PIN. */
  get needsManager(): boolean {
    return (
      (this.#quote?.ok === true && this.#quote.overLimit.length > 0) ||
      this.issues.some((i) => i.rule === 'manager_pin_required')
    );
  }

  issueFor(field: string): SaleFieldIssue | undefined {
    return this.issues.find((i) => i.field === field);
  }

  /** The stored cart has come back (or could not): the screen shows the cart as it is. */
  get loaded(): boolean {
    return this.#loaded;
  }

  /**
   * The cart stored for this terminal (after a reload or a restart). Lines rung up while it was on its way come
   * after the stored ones: nothing is lost either way.
   */
  async load(): Promise<void> {
    try {
      const stored = await this.#deps.api.currentCart();
      if (!this.#changedBeforeLoad) this.#set(stored, { save: false });
      else if (stored.lines.length > 0)
        this.#set({ lines: [...stored.lines, ...this.#cart.lines], saleDiscount: stored.saleDiscount ?? null });
    } finally {
      this.#loaded = true;
    }
  }

  async search(text: string): Promise<void> {
    const seq = ++this.#searchSeq;
    if (text.trim() === '') {
      this.#results = [];
      return;
    }
    const found = await this.#deps.api.searchProducts({ text: text.trim(), limit: SEARCH_LIMIT });
    // An answer to an older keystroke never overwrites a newer one's.
    if (seq === this.#searchSeq) this.#results = found;
  }

  clearResults(): void {
    this.#searchSeq++;
    this.#results = [];
  }

  addProduct(product: Product, barcode?: string): void {
    this.#set(edit.addProduct(this.#cart, product, this.#deps.newLineId(), barcode));
  }

  /** A scanned code: its product is added (one more of it if it is the last line); an unknown code adds nothing. */
  async scan(code: string): Promise<boolean> {
    const product = await this.#deps.api.productByCode({ code });
    if (!product) {
      this.#notice = { kind: 'unknown', code };
      return false;
    }
    this.addProduct(product, /^(\d{8}|\d{13})$/.test(code) ? code : undefined);
    this.#notice = { kind: 'added', name: product.name };
    return true;
  }

  addFree(name: string, unitPrice: number): void {
    this.#set(edit.addFreeLine(this.#cart, name, unitPrice, this.#deps.newLineId()));
  }

  /**
   * A quick item picked in the sale form and added to the cart: it shows at once as typed, then becomes its catalogue
   * product's line (productId, so the server sells it with its item_id: a sale of that one fixed-denomination item
   * sends item_id on its gateway order). A free-typed line never has an item_id (the server drops it).
   */
  addQuickItem(item: { itemId: string; name: string; unitPrice: number }): void {
    const lineId = this.#deps.newLineId();
    this.#set(edit.addFreeLine(this.#cart, item.name, item.unitPrice, lineId));
    const api = this.#deps.api;
    const lookup = (async () => api.productByCode({ code: item.itemId }))()
      .then((product) => {
        // The line may have been removed meanwhile: then there is nothing to change.
        if (product && edit.isQuickItemProduct(product, item) && this.#cart.lines.some((l) => l.lineId === lineId))
          this.#set(edit.lineToProduct(this.#cart, lineId, product));
      })
      // Not found or not reachable: the line stays as typed (no item_id), as any typed line.
      .catch(() => undefined);
    this.#lookups = Promise.all([this.#lookups, lookup]);
  }

  setQty(lineId: string, qty: number): void {
    this.#set(edit.setQty(this.#cart, lineId, qty));
  }
  stepQty(lineId: string, by: 1 | -1): void {
    this.#set(edit.stepQty(this.#cart, lineId, by));
  }
  remove(lineId: string): void {
    this.#set(edit.removeLine(this.#cart, lineId));
  }
  setLineDiscount(lineId: string, discount: Discount | null): void {
    this.#set(edit.setLineDiscount(this.#cart, lineId, discount));
  }
  setSaleDiscount(discount: Discount | null): void {
    this.#set(edit.setSaleDiscount(this.#cart, discount));
  }

  showIssues(issues: readonly SaleFieldIssue[]): void {
    this.#issues = [...issues];
  }

  /** The sale was charged: the server cleared its stored cart; the screen's goes too. */
  charged(): void {
    this.#set(edit.EMPTY_CART, { save: false });
    this.#notice = null;
  }

  /** Lookups and saves still in flight are done (tests, and a charge that must send the cart as stored). */
  async settled(): Promise<void> {
    // A lookup that ends changes the cart (a new save): wait until none is left, then for the saves.
    for (let lookups = this.#lookups; ; lookups = this.#lookups) {
      await lookups;
      if (lookups === this.#lookups) break;
    }
    await this.#saving;
  }

  /** The quote now, without waiting for the pause (a charge, a test). */
  async quoteNow(): Promise<void> {
    clearTimeout(this.#quoteTimer);
    const seq = ++this.#quoteSeq;
    if (this.empty) {
      this.#quote = null;
      this.#quoting = false;
      return;
    }
    this.#quoting = true;
    try {
      const quote = await this.#deps.api.quoteSale({ cart: this.#cart });
      if (seq === this.#quoteSeq) this.#quote = quote;
    } catch {
      // The figures stay those of the last quote; the next change asks again.
    } finally {
      if (seq === this.#quoteSeq) this.#quoting = false;
    }
  }

  dispose(): void {
    clearTimeout(this.#quoteTimer);
  }

  #set(given: Cart, options: { save?: boolean } = {}): void {
    if (!this.#loaded) this.#changedBeforeLoad = true;
    // A cart with lines has the key of the sale it becomes, kept with the stored cart: a second charge of it (a double
    // tap, a retry after a lost answer, another tab) answers the first sale, never makes a second.
    const cart =
      given.lines.length > 0 && given.saleKey === undefined
        ? { ...given, saleKey: (this.#deps.newSaleKey ?? (() => crypto.randomUUID()))() }
        : given;
    this.#cart = cart;
    this.#issues = [];
    if (options.save !== false) {
      const api = this.#deps.api;
      this.#saving = this.#saving.catch(() => undefined).then(() => api.saveCart({ cart }));
      this.#saving.catch(() => undefined);
    }
    clearTimeout(this.#quoteTimer);
    const delay = this.#deps.quoteDelayMs ?? 120;
    if (this.empty) void this.quoteNow();
    else {
      this.#quoting = true;
      this.#quoteTimer = setTimeout(() => void this.quoteNow(), delay);
    }
  }
}
