import type { Database, Statement } from 'better-sqlite3';
import type { Cart, SaleState, SaleTender, SaleView, SoldLine, TenderKind, TenderState } from '../../common/sale';
import type { Discount } from '../../common/sale-line';
import { storedTaxSettings, type CategoryTax, type TaxCategory, type TaxSettings } from '../../common/tax';
import { appendToOutbox } from '../outbox/outbox';
import type { Clock } from '../ports';

/**
 * Sales, their lines, tenders and events in the order log's database (migration 10), and the cart being rung up
 * at each terminal. Every change is one transaction with its event in `sale_events` and the event's outbox row
 * (stream 'sale', core/outbox/outbox.ts): the payload is the event and the whole sale as the event left it, so the
 * store book carries sales as it carries orders. Inside a transaction already open on the connection (the order's
 * creation, which writes its sale with it) a write joins it as a savepoint.
 */

export interface NewSale {
  id: string;
  /** The idempotency key it was charged under (common/sale.ts saleKeySchema); unique among the log's sales. */
  chargeKey?: string | undefined;
  terminalId: string;
  training: boolean;
  staffId?: number | undefined;
  staffName?: string | undefined;
  customerName?: string | undefined;
  phone?: string | undefined;
  saleDiscount: Discount | null;
  figures: {
    subtotal: number;
    lineDiscounts: number;
    saleDiscount: number;
    discounts: number;
    net: number;
    dpp: number;
    ppn: number;
    pbjt: number;
    service: number;
    total: number;
    categories: CategoryTax[];
  };
  lines: Omit<SoldLine, 'lineNo'>[];
  tenders: Omit<SaleTender, 'no'>[];
  /** The tax settings the figures were computed with (migration 20): the struk and the books read these. */
  taxSettings: TaxSettings;
}

export interface SaleEventMeta {
  actor?: string | undefined;
  staffId?: number | undefined;
  payload?: unknown;
}

interface SaleRow {
  id: string;
  terminal_id: string;
  state: SaleState;
  training: number;
  staff_id: number | null;
  staff_name: string | null;
  sale_discount: string | null;
  subtotal: number;
  line_discounts: number;
  sale_discount_amount: number;
  net: number;
  dpp: number;
  ppn: number;
  pbjt: number;
  service: number;
  total: number;
  categories: string;
  tax_settings: string | null;
  rounding: number;
  change: number;
  customer_name: string | null;
  phone: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

interface LineRow {
  line_no: number;
  line_id: string;
  product_id: string | null;
  sku: string | null;
  barcode: string | null;
  name: string;
  category: string;
  unit_price: number;
  qty: number;
  tax_category: TaxCategory;
  item_id: string | null;
  discount: string | null;
  gross: number;
  line_discount: number;
  sale_discount: number;
  net: number;
  total: number;
}

interface TenderRow {
  tender_no: number;
  kind: TenderKind;
  state: TenderState;
  method_id: string | null;
  order_id: string | null;
  reference: string | null;
  amount: number;
  handed: number;
  change: number;
  rounding: number;
  late_payment: number;
}

export class SaleStore {
  private readonly statements = new Map<string, Statement>();
  private readonly linesSeen = new Map<string, LineRow[]>();

  constructor(
    readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Writes a new sale, its lines and tenders, and its `created` event (and one `tender_paid` per paid tender). */
  create(sale: NewSale, meta: SaleEventMeta): SaleView {
    return this.write(() => {
      const now = this.now();
      const f = sale.figures;
      const state: SaleState = sale.tenders.every((t) => t.state === 'paid') ? 'completed' : 'tendering';
      const rounding = sale.tenders.reduce((a, t) => a + t.rounding, 0);
      const change = sale.tenders.reduce((a, t) => a + t.change, 0);
      this.stmt(
        `INSERT INTO sales (id, charge_key, terminal_id, state, training, staff_id, staff_name, sale_discount, subtotal,
           line_discounts, sale_discount_amount, net, dpp, ppn, pbjt, service, total, categories, tax_settings, rounding,
           change, customer_name, phone, created_at, updated_at, completed_at)
         VALUES (?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
      ).run(
        sale.id,
        sale.chargeKey ?? null,
        sale.terminalId,
        sale.training ? 1 : 0,
        sale.staffId ?? null,
        sale.staffName ?? null,
        sale.saleDiscount === null ? null : JSON.stringify(sale.saleDiscount),
        f.subtotal,
        f.lineDiscounts,
        f.saleDiscount,
        f.net,
        f.dpp,
        f.ppn,
        f.pbjt,
        f.service,
        f.total,
        JSON.stringify(f.categories),
        JSON.stringify(sale.taxSettings),
        rounding,
        change,
        sale.customerName ?? null,
        sale.phone ?? null,
        now,
        now,
      );
      const line = this.stmt(
        `INSERT INTO sale_lines (sale_id, line_no, line_id, product_id, sku, barcode, name, category, unit_price, qty,
           tax_category, item_id, discount, gross, line_discount, sale_discount, net, total)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      sale.lines.forEach((l, i) =>
        line.run(
          sale.id,
          i + 1,
          l.lineId,
          l.productId ?? null,
          l.sku ?? null,
          l.barcode ?? null,
          l.name,
          l.category,
          l.unitPrice,
          l.qty,
          l.taxCategory,
          l.itemId ?? null,
          l.discount === undefined ? null : JSON.stringify(l.discount),
          l.gross,
          l.lineDiscount,
          l.saleDiscount,
          l.net,
          l.total,
        ),
      );
      this.event(sale.id, now, 'created', { ...meta, payload: { total: f.total, lines: sale.lines.length } });
      const tender = this.stmt(
        `INSERT INTO sale_tenders (sale_id, tender_no, kind, state, method_id, order_id, reference, amount, handed,
           change, rounding, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      sale.tenders.forEach((t, i) => {
        tender.run(
          sale.id,
          i + 1,
          t.kind,
          t.state,
          t.methodId ?? null,
          t.orderId ?? null,
          t.reference ?? null,
          t.amount,
          t.handed,
          t.change,
          t.rounding,
          now,
          now,
        );
        this.event(sale.id, now, t.state === 'paid' ? 'tender_paid' : 'tender_added', {
          ...meta,
          payload: { tender: i + 1, kind: t.kind, amount: t.amount, ...(t.orderId ? { orderId: t.orderId } : {}) },
        });
      });
      this.setState(sale.id, state, now, meta);
      return this.require(sale.id);
    });
  }

  /**
   * The tender of gateway order `orderId` is paid (completing the sale once every tender is) or failed (voiding the
   * sale). Nothing when the order is no sale's, or the tender is already so. Returns the sale as it is now.
   */
  settleTender(orderId: string, to: 'paid' | 'failed', meta: SaleEventMeta): SaleView | undefined {
    return this.write(() => {
      const t = this.stmt<[string], { sale_id: string; tender_no: number; state: TenderState }>(
        'SELECT sale_id, tender_no, state FROM sale_tenders WHERE order_id = ?',
      ).get(orderId);
      if (!t) return undefined;
      const sale = this.require(t.sale_id);
      if (t.state !== 'pending' || sale.state === 'completed' || sale.state === 'voided') return sale;
      const now = this.now();
      this.stmt('UPDATE sale_tenders SET state = ?, updated_at = ? WHERE sale_id = ? AND tender_no = ?').run(
        to,
        now,
        t.sale_id,
        t.tender_no,
      );
      this.event(t.sale_id, now, to === 'paid' ? 'tender_paid' : 'tender_failed', {
        ...meta,
        payload: { tender: t.tender_no, orderId, ...(isObject(meta.payload) ? meta.payload : {}) },
      });
      const after = this.require(t.sale_id);
      if (to === 'failed') this.setState(t.sale_id, 'voided', now, meta);
      else if (after.tenders.every((x) => x.state === 'paid')) this.setState(t.sale_id, 'completed', now, meta);
      return this.require(t.sale_id);
    });
  }

  /**
   * The failed tender of gateway order `orderId` was paid after all (its order flagged a late payment): the tender
   * keeps `failed` and the sale `voided`, the tender is marked and the sale gets a `late_payment` event. Nothing when
   * the order is no sale's or the tender is already marked.
   */
  markLatePayment(orderId: string, meta: SaleEventMeta): SaleView | undefined {
    return this.write(() => {
      const t = this.stmt<[string], { sale_id: string; tender_no: number; late_payment: number }>(
        'SELECT sale_id, tender_no, late_payment FROM sale_tenders WHERE order_id = ?',
      ).get(orderId);
      if (!t) return undefined;
      if (t.late_payment === 1) return this.require(t.sale_id);
      const now = this.now();
      this.stmt('UPDATE sale_tenders SET late_payment = 1, updated_at = ? WHERE sale_id = ? AND tender_no = ?').run(
        now,
        t.sale_id,
        t.tender_no,
      );
      this.event(t.sale_id, now, 'late_payment', {
        ...meta,
        payload: { tender: t.tender_no, orderId, ...(isObject(meta.payload) ? meta.payload : {}) },
      });
      return this.require(t.sale_id);
    });
  }

  /** The sale charged under idempotency key `key`, if any. */
  idOfKey(key: string): string | undefined {
    return this.stmt<[string], string>('SELECT id FROM sales WHERE charge_key = ?').pluck().get(key) ?? undefined;
  }

  /** A note on a sale (a manager's discount approval, a cash return on a void): an event, the sale unchanged. */
  note(saleId: string, meta: SaleEventMeta): void {
    this.write(() => this.event(saleId, this.now(), 'note', meta));
  }

  get(id: string): SaleView | undefined {
    const row = this.stmt<[string], SaleRow>('SELECT * FROM sales WHERE id = ?').get(id);
    if (!row) return undefined;
    // A sale's lines never change once written (nothing updates sale_lines): read once, for the few sales in hand (a
    // charge snapshots its sale with each of its events).
    let lines = this.linesSeen.get(id);
    if (!lines) {
      lines = this.stmt<[string], LineRow>('SELECT * FROM sale_lines WHERE sale_id = ? ORDER BY line_no').all(id);
      if (this.linesSeen.size >= 64) this.linesSeen.clear();
      if (lines.length > 0) this.linesSeen.set(id, lines);
    }
    const tenders = this.stmt<[string], TenderRow>(
      'SELECT * FROM sale_tenders WHERE sale_id = ? ORDER BY tender_no',
    ).all(id);
    return toView(row, lines, tenders);
  }

  require(id: string): SaleView {
    const sale = this.get(id);
    if (!sale) throw new Error(`sale ${id} is not in the log`);
    return sale;
  }

  /**
   * The sale's serial number on its struk (the tax invoice's for a PKP store): the terminal and the sale's place among
   * the terminal's sales in this log, `T01-000042`. Gap-free and never reused (sales are never deleted).
   */
  serialOf(saleId: string): string | undefined {
    const row = this.stmt<[string], { terminal: string; n: number }>(
      `SELECT s.terminal_id AS terminal,
              (SELECT COUNT(*) FROM sales o WHERE o.terminal_id = s.terminal_id AND o.rowid <= s.rowid) AS n
       FROM sales s WHERE s.id = ?`,
    ).get(saleId);
    return row ? `${row.terminal}-${String(row.n).padStart(6, '0')}` : undefined;
  }

  /** The sale a gateway order pays a tender of. */
  saleIdOfOrder(orderId: string): string | undefined {
    return (
      this.stmt<[string], string>('SELECT sale_id FROM sale_tenders WHERE order_id = ?').pluck().get(orderId) ??
      undefined
    );
  }

  /** Sales still being paid, with their pending gateway orders (to catch up with orders settled while Loket was down). */
  pendingOrders(): { saleId: string; orderId: string }[] {
    return this.stmt<[], { saleId: string; orderId: string }>(
      `SELECT t.sale_id AS saleId, t.order_id AS orderId FROM sale_tenders t JOIN sales s ON s.id = t.sale_id
       WHERE s.state = 'tendering' AND t.state = 'pending' AND t.order_id IS NOT NULL`,
    ).all();
  }

  /** Sales created in [from, to), oldest first (the books). */
  list(from: Date, to: Date): SaleView[] {
    return this.stmt<[string, string], string>(
      'SELECT id FROM sales WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id',
    )
      .pluck()
      .all(from.toISOString(), to.toISOString())
      .map((id) => this.require(id));
  }

  events(saleId: string): { seq: number; at: string; type: string; actor: string | null; payload: unknown }[] {
    return this.stmt<[string], { seq: number; at: string; type: string; actor: string | null; payload: string | null }>(
      'SELECT seq, at, type, actor, payload FROM sale_events WHERE sale_id = ? ORDER BY seq',
    )
      .all(saleId)
      .map((e) => ({ ...e, payload: e.payload === null ? null : (JSON.parse(e.payload) as unknown) }));
  }

  // ------------------------------------------------------------ the cart being rung up

  loadCart(terminalId: string): Cart | undefined {
    const text = this.stmt<[string], string>('SELECT cart FROM carts WHERE terminal_id = ?').pluck().get(terminalId);
    return text === undefined ? undefined : (JSON.parse(text) as Cart);
  }

  saveCart(terminalId: string, cart: Cart): void {
    this.write(() =>
      this.stmt(
        `INSERT INTO carts (terminal_id, cart, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (terminal_id) DO UPDATE SET cart = excluded.cart, updated_at = excluded.updated_at`,
      ).run(terminalId, JSON.stringify(cart), this.now()),
    );
  }

  /**
   * The cart becomes a sale: the terminal's stored cart is cleared — only the one under `saleKey` when a key is given
   * (a one-line sale typed while another cart is stored leaves that cart alone).
   */
  clearCart(terminalId: string, saleKey?: string): void {
    this.write(() => {
      if (saleKey === undefined) this.stmt('DELETE FROM carts WHERE terminal_id = ?').run(terminalId);
      else
        this.stmt("DELETE FROM carts WHERE terminal_id = ? AND json_extract(cart, '$.saleKey') = ?").run(
          terminalId,
          saleKey,
        );
    });
  }

  // ------------------------------------------------------------ inside

  private setState(id: string, to: SaleState, now: string, meta: SaleEventMeta): void {
    const from = this.stmt<[string], SaleState>('SELECT state FROM sales WHERE id = ?').pluck().get(id)!;
    if (from === to) return;
    this.stmt(
      `UPDATE sales SET state = ?, updated_at = ?, completed_at = CASE WHEN ? = 'completed' THEN ? ELSE completed_at END
       WHERE id = ?`,
    ).run(to, now, to, now, id);
    this.event(id, now, 'state_changed', { actor: meta.actor, staffId: meta.staffId, payload: { from, to } });
  }

  /** An event and its outbox row, with the sale as it is now in this transaction. */
  private event(saleId: string, at: string, type: string, meta: SaleEventMeta): void {
    const payload = meta.payload === undefined ? null : JSON.stringify(meta.payload);
    const seq = Number(
      this.stmt('INSERT INTO sale_events (sale_id, at, type, actor, staff_id, payload) VALUES (?, ?, ?, ?, ?, ?)').run(
        saleId,
        at,
        type,
        meta.actor ?? null,
        meta.staffId ?? null,
        payload,
      ).lastInsertRowid,
    );
    const sale = this.require(saleId);
    appendToOutbox(this.db, {
      terminalId: sale.terminalId,
      stream: 'sale',
      streamId: saleId,
      type,
      at,
      event: {
        seq,
        sale_id: saleId,
        at,
        type,
        actor: meta.actor ?? null,
        staff_id: meta.staffId ?? null,
        payload: meta.payload ?? null,
      },
      snapshot: sale,
    });
  }

  private write<T>(fn: () => T): T {
    const tx = this.db.transaction(fn);
    return this.db.inTransaction ? tx() : tx.immediate();
  }

  private now(): string {
    return this.clock.now().toISOString();
  }

  private stmt<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function toView(r: SaleRow, lines: LineRow[], tenders: TenderRow[]): SaleView {
  const view: SaleView = {
    id: r.id,
    state: r.state,
    terminalId: r.terminal_id,
    training: r.training === 1,
    lines: lines.map((l) => {
      const line: SoldLine = {
        lineNo: l.line_no,
        lineId: l.line_id,
        name: l.name,
        category: l.category,
        unitPrice: l.unit_price,
        qty: l.qty,
        taxCategory: l.tax_category,
        gross: l.gross,
        lineDiscount: l.line_discount,
        saleDiscount: l.sale_discount,
        net: l.net,
        total: l.total,
      };
      if (l.product_id !== null) line.productId = l.product_id;
      if (l.sku !== null) line.sku = l.sku;
      if (l.barcode !== null) line.barcode = l.barcode;
      if (l.item_id !== null) line.itemId = l.item_id;
      if (l.discount !== null) line.discount = JSON.parse(l.discount) as Discount;
      return line;
    }),
    saleDiscount: r.sale_discount === null ? null : (JSON.parse(r.sale_discount) as Discount),
    subtotal: r.subtotal,
    lineDiscounts: r.line_discounts,
    saleDiscountAmount: r.sale_discount_amount,
    discounts: r.line_discounts + r.sale_discount_amount,
    net: r.net,
    dpp: r.dpp,
    ppn: r.ppn,
    pbjt: r.pbjt,
    service: r.service,
    total: r.total,
    taxLines: JSON.parse(r.categories) as CategoryTax[],
    tenders: tenders.map((t) => {
      const tender: SaleTender = {
        no: t.tender_no,
        kind: t.kind,
        state: t.state,
        amount: t.amount,
        handed: t.handed,
        change: t.change,
        rounding: t.rounding,
      };
      if (t.method_id !== null) tender.methodId = t.method_id;
      if (t.order_id !== null) tender.orderId = t.order_id;
      if (t.reference !== null) tender.reference = t.reference;
      if (t.late_payment === 1) tender.latePayment = true;
      return tender;
    }),
    rounding: r.rounding,
    change: r.change,
    paid: tenders.filter((t) => t.state === 'paid').reduce((a, t) => a + t.amount, 0),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
  if (r.staff_id !== null) view.staffId = r.staff_id;
  if (r.staff_name !== null) view.staffName = r.staff_name;
  if (r.customer_name !== null) view.customerName = r.customer_name;
  if (r.phone !== null) view.phone = r.phone;
  if (r.completed_at !== null) view.completedAt = r.completed_at;
  if (r.tax_settings !== null) view.taxSettings = storedTaxSettings(r.tax_settings);
  return view;
}
