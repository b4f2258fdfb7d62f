import type { Database } from 'better-sqlite3';
import type { Lang } from '../../common/app-info';
import type { PaymentMethod } from '../../common/payment-methods';
import type { SalesFigures, Takings } from '../../common/reports';
import { salesFigures } from './sales-figures';
import { dbOf, stmt, type Books } from './sql';
import { tenderKind } from '../../common/tender-kinds';
import { byStaffName, staffNamer, type StaffNames } from './staff-names';

/**
 * The money the store took (docs/end-of-day.md, "Money taken"): the one definition, as one SQL text (`TAKEN`) that
 * the day's figures add up (`takings`) and the export writes row by row (`takingRows`: the Takings sheet, export
 * --takings, the manager's CSV), so the day report, its closing, the workbook, the CSV and the screens agree to the
 * rupiah by construction.
 *
 * Money taken = the **paid tenders of the completed sales** created in the days, plus each **paid gateway order of
 * those days that has no sale** (an order made before every charge was a sale: no sale_tenders row names it), as a
 * gateway tender of its method. A cash tender counts at its amount: what it applied to the sale, its cash rounding
 * line included and the change not — the money the drawer kept, as the shift's expected cash counts it — so the sum
 * is the completed sales' total + rounding (what the customers paid), plus the old orders. Not in it: voided sales
 * (their cash went back), sales still being paid (their money may not come), late payments (at the gateway, for a
 * manager to settle: ReportFigures.latePaid), and refunds (counted on the day they are made, beside it).
 */

export interface TakingsOptions {
  /** The training log's (training = 1) or the store's books (training = 0). */
  training: boolean;
  /** The catalogue: the gateway methods' order and names. */
  methods: readonly PaymentMethod[];
  staffNames: StaffNames;
  /** The language of the method names and of "nobody signed in": the store's. */
  lang: Lang;
}

function hasSales(db: Database): boolean {
  return (
    stmt<[], number>(db, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'sale_tenders'")
      .pluck()
      .get()! > 0
  );
}

/**
 * What is money taken, in [@from, @to) of the books @training: a paid tender of a completed sale; a paid order that no
 * sale tender names. The two conditions are the definition; the figures and the rows below select from them.
 */
const SALE_TAKEN = `s.created_at >= @from AND s.created_at < @to AND s.training = @training
      AND s.state = 'completed' AND t.state = 'paid'`;
// `+o.state`: the state is not to choose the index (orders_state_created would read each paid order's row from the
// table): the day's range of orders_day_report holds every column the figures need, so they never touch the table.
const ORDER_TAKEN = (withSales: boolean) =>
  `o.created_at >= @from AND o.created_at < @to AND o.training = @training AND +o.state = 'paid'` +
  (withSales ? ' AND NOT EXISTS (SELECT 1 FROM sale_tenders x WHERE x.order_id = o.id)' : '');

/**
 * Each money taken, as `columns` (the figures need fewer than the export's rows): one row per paid tender of a
 * completed sale, and one per paid order without a sale. A log without the sale tables (read-only, of an older
 * version) has only orders.
 */
function takenSql(withSales: boolean, columns: 'figures' | 'rows'): string {
  const rows = columns === 'rows';
  const sales = `SELECT 0 AS withoutSale, s.id AS saleId, t.order_id AS orderId, ${rows ? 's.created_at AS at, t.tender_no AS tenderNo,' : ''}
      t.kind AS kind, t.method_id AS methodId, t.amount AS amount, s.staff_id AS staffId, s.staff_name AS staffName
      ${rows ? ', s.terminal_id AS terminalId' : ''}
    FROM sales s JOIN sale_tenders t ON t.sale_id = s.id
    WHERE ${SALE_TAKEN}`;
  const orders = `SELECT 1 AS withoutSale, NULL AS saleId, o.id AS orderId, ${rows ? 'o.created_at AS at, 1 AS tenderNo,' : ''}
      'gateway' AS kind, o.method_id AS methodId, o.amount AS amount, o.staff_id AS staffId,
      ${rows ? '(SELECT st.name FROM staff st WHERE st.id = o.staff_id)' : 'NULL'} AS staffName
      ${rows ? ', o.terminal_id AS terminalId' : ''}
    FROM orders o
    WHERE ${ORDER_TAKEN(withSales)}`;
  return withSales
    ? `${sales}
    UNION ALL
    ${orders}`
    : orders;
}

interface Span {
  from: string;
  to: string;
  training: 0 | 1;
}

const span = (range: { from: Date; to: Date }, training: boolean): Span => ({
  from: range.from.toISOString(),
  to: range.to.toISOString(),
  training: training ? 1 : 0,
});

/** The money taken in the store days of `range` (UTC [from, to)), by tender and by the staff who sold. */
export function takings(books: Books, range: { from: Date; to: Date }, options: TakingsOptions): Takings {
  const db = dbOf(books);
  const withSales = hasSales(db);
  const taken = takenSql(withSales, 'figures');
  const p = span(range, options.training);
  // One pass over the money taken, by tender and by the staff who sold (an old order is one sale of its own)…
  const groups = stmt<Span, TakenGroup>(
    db,
    `SELECT kind, methodId, withoutSale, staffId, MAX(staffName) AS staffName, COUNT(*) AS count,
       SUM(amount) AS amount FROM (${taken}) GROUP BY kind, methodId, withoutSale, staffId`,
  ).all(p);
  // …and the sales per member of staff: a sale's tenders may be of several kinds, but it is one sale.
  const sales = withSales
    ? stmt<Span, { staffId: number | null; count: number }>(
        db,
        `SELECT s.staff_id AS staffId, COUNT(DISTINCT s.id) AS count FROM sales s JOIN sale_tenders t ON t.sale_id = s.id
         WHERE ${SALE_TAKEN} GROUP BY s.staff_id`,
      ).all(p)
    : [];
  const staff = new Map<number | null, { staffName: string | null; count: number; amount: number }>();
  for (const g of groups) {
    const line = staff.get(g.staffId) ?? { staffName: null, count: 0, amount: 0 };
    line.amount += g.amount;
    if (g.withoutSale) line.count += g.count;
    line.staffName ??= g.staffName;
    staff.set(g.staffId, line);
  }
  for (const s of sales) staff.get(s.staffId)!.count += s.count;

  const catalogue = new Map(options.methods.map((m, i) => [m.id, i]));
  const kindOrder = { cash: 0, other: 1, gateway: 2 } as const;
  const byTender = new Map<string, Takings['byTender'][number]>();
  const withoutSale = { count: 0, amount: 0 };
  for (const g of groups) {
    // The books' group of a tender is its kind's (common/tender-kinds/): a gateway tender's, its method.
    const key = tenderKind(g.kind).bookKey({ kind: g.kind, ...(g.methodId !== null ? { methodId: g.methodId } : {}) });
    const line = byTender.get(key) ?? {
      kind: g.kind,
      ...(g.kind === 'gateway' && g.methodId !== null
        ? {
            methodId: g.methodId,
            label: options.methods.find((m) => m.id === g.methodId)?.label[options.lang] ?? g.methodId,
          }
        : {}),
      count: 0,
      amount: 0,
    };
    line.count += g.count;
    line.amount += g.amount;
    byTender.set(key, line);
    if (g.withoutSale) {
      withoutSale.count += g.count;
      withoutSale.amount += g.amount;
    }
  }
  const tenderLines = [...byTender.values()].sort((a, b) => {
    if (a.kind !== b.kind) return kindOrder[a.kind] - kindOrder[b.kind];
    const ia = catalogue.get(a.methodId ?? '') ?? Infinity;
    const ib = catalogue.get(b.methodId ?? '') ?? Infinity;
    const ma = a.methodId ?? '';
    const mb = b.methodId ?? '';
    return ia !== ib ? ia - ib : ma < mb ? -1 : ma > mb ? 1 : 0;
  });
  const named = staffNamer(options.staffNames, options.lang);
  const name = (id: number | null) => named(id, staff.get(id)?.staffName);
  const staffLines = [...staff.keys()].sort(byStaffName(name)).map((id) => {
    const s = staff.get(id)!;
    return { staffId: id, name: name(id), count: s.count, amount: s.amount };
  });
  return {
    amount: tenderLines.reduce((a, t) => a + t.amount, 0),
    count: staffLines.reduce((a, s) => a + s.count, 0),
    byTender: tenderLines,
    byStaff: staffLines,
    withoutSale,
  };
}

interface TakenGroup {
  kind: 'cash' | 'gateway' | 'other';
  methodId: string | null;
  withoutSale: 0 | 1;
  staffId: number | null;
  staffName: string | null;
  count: number;
  amount: number;
}

/** The day's sales with the money taken (what a day report and its closing keep: DayReport.sales, closing.sales). */
export function salesTaken(books: Books, range: { from: Date; to: Date }, options: TakingsOptions): SalesFigures {
  const db = dbOf(books);
  return { ...salesFigures(db, range, options.training), taken: takings(db, range, options) };
}

/** One money taken as the export writes it (TAKEN's columns, in its order). */
export type TakingRow = [
  withoutSale: 0 | 1,
  saleId: string | null,
  orderId: string | null,
  at: string,
  tenderNo: number,
  kind: string,
  methodId: string | null,
  amount: number,
  staffId: number | null,
  staffName: string | null,
  terminalId: string,
];

/**
 * Every money taken in [from, to) (UTC), oldest sale (or old order) first and a sale's tenders in their order, read
 * as they are written (a statement's iterator): the rows that `takings` adds up.
 */
export function takingRows(
  db: Database,
  range: { from: Date; to: Date },
  training: boolean,
): IterableIterator<TakingRow> {
  return db
    .prepare<Span, TakingRow>(
      `SELECT * FROM (${takenSql(hasSales(db), 'rows')}) ORDER BY at, COALESCE(saleId, orderId), tenderNo`,
    )
    .raw()
    .iterate(span(range, training)) as IterableIterator<TakingRow>;
}
