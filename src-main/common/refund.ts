import { formatRupiah } from './money';
import { mulDivHalfUp, requireSafeInteger } from './money-math';
import { roundCash, type CashRounding } from './cash';

/**
 * Refunds: how much of a paid sale can still be refunded, and what a refund of a whole sale or of some lines and
 * quantities gives back. Pure; the refund document (linked to the sale and its lines, with a reason and a manager's
 * PIN), its storage and its receipt are built on it. docs/tenders.md has the rules with examples.
 *
 * A line's amount is its `total` from computeSale (its share of the sale's total, taxes and service included; the
 * line totals sum to the sale's total T). Refunding k more of its n units, when `before` were refunded already:
 *   amount(j) = round(total × j / n)           (cumulative, half-up)
 *   this refund's amount = amount(before + k) − amount(before)
 * so refunding a line in parts sums exactly to its total, whatever the parts.
 *
 * A sale paid with cash rounding was paid P = T + rounding (|rounding| < Rp100). What goes back is shared the same
 * cumulative way over the whole sale: with C the sum of line amounts refunded so far (this refund included),
 *   money(C) = round(C × P / T)                (money(T) = P; 0 when T = 0)
 *   this refund's money = money(C after) − money(C before);  its rounding line = money − amount
 * so the refunds of a sale never give back more than P, and all of them give back exactly P.
 *
 * A refund paid back in cash, when the store rounds cash, is rounded down to Rp100 cumulatively over the sale's
 * cash refunds: handed back = floorTo100(cash money so far, this included) − floorTo100(cash money before). Down,
 * even when the store rounds to the nearest, because rounding a refund up could give back more than was paid; and
 * cumulative, so the drawer keeps at most Rp99 of a sale however many refunds it takes.
 *
 * Decided here (not in the lead's notes): the line amount is the line's total rather than its net (they are the same
 * with prices including tax and no service charge; otherwise the customer paid the tax added on top, and gets it
 * back); the share of the sale's rounding; the cash refund's rounding above.
 */

/** What a refund reads of a sale's line (LineFigures from computeSale has these). */
export interface RefundableLine {
  lineId: string;
  qty: number;
  /** What the customer paid for the line: its share of the sale's total. */
  total: number;
}

export interface RefundableSale {
  lines: readonly RefundableLine[];
  /** The sale's total T (Σ line totals). */
  total: number;
  /** What was paid P: the total plus the cash rounding line. */
  paid: number;
}

/** Quantities already refunded (from the sale's earlier refund documents; a line may appear in several). */
export interface RefundedQty {
  lineId: string;
  qty: number;
}

export type RefundRequest = { kind: 'whole' } | { kind: 'lines'; lines: readonly { lineId: string; qty: number }[] };

export type RefundRule = 'sale' | 'previous' | 'lines' | 'line_id' | 'qty' | 'nothing_left';

export interface RefundIssue {
  /** `lines[0].qty`, `lines[1].lineId`, `sale.paid`, `previous[2].qty`, `sale`. */
  field: string;
  rule: RefundRule;
  /** For a person: "line 3: at most 2 left to refund (asked for 3)". Lines are counted from 1, as on the receipt. */
  message: string;
}

export interface LineLeft {
  lineId: string;
  /** The line's place in the sale, from 1. */
  position: number;
  qty: number;
  refundedQty: number;
  qtyLeft: number;
  amountLeft: number;
}

export interface Refundable {
  lines: LineLeft[];
  /** Σ line amounts refunded so far (C), and what is left of T. */
  amountRefunded: number;
  amountLeft: number;
  /** Money given back so far, and what is left of P. */
  moneyRefunded: number;
  moneyLeft: number;
}

export interface RefundLine {
  lineId: string;
  position: number;
  qty: number;
  amount: number;
}

export interface RefundPlan {
  lines: RefundLine[];
  /** Σ of the lines' amounts. */
  amount: number;
  /** The refund's share of the sale's cash rounding: money − amount. */
  rounding: number;
  /** What goes back to the customer (before the rounding of a cash refund: cashRefund). */
  money: number;
  /** Nothing of the sale is left to refund after this one. */
  complete: boolean;
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));
const isWhole = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;

/** amount(j) of a line of `total` over `n` units: round(total × j / n). */
export function cumulativeLineAmount(total: number, n: number, j: number): number {
  requireSafeInteger('cumulativeLineAmount', 'n', n, 1);
  if (!Number.isSafeInteger(j) || j < 0 || j > n)
    throw new RangeError(`cumulativeLineAmount: j must be a whole number from 0 to n = ${n} (got ${j})`);
  return mulDivHalfUp(total, j, n);
}

/** money(C) of a sale of total T paid P: round(C × P / T). */
export function cumulativeMoney(c: number, total: number, paid: number): number {
  if (total === 0) return 0;
  return mulDivHalfUp(c, paid, total);
}

interface Checked {
  byId: Map<string, { line: RefundableLine; position: number; refunded: number }>;
}

function checkSale(
  sale: RefundableSale,
  previous: readonly RefundedQty[],
): { ok: true; c: Checked } | { ok: false; issues: RefundIssue[] } {
  const issues: RefundIssue[] = [];
  const byId: Checked['byId'] = new Map();
  if (!sale || !Array.isArray(sale.lines))
    return { ok: false, issues: [{ field: 'sale.lines', rule: 'sale', message: 'sale.lines: a list of lines' }] };
  let sum = 0;
  sale.lines.forEach((line, i) => {
    const at = `sale.lines[${i}]`;
    if (typeof line?.lineId !== 'string' || line.lineId === '' || byId.has(line.lineId))
      issues.push({
        field: `${at}.lineId`,
        rule: 'sale',
        message: `${at}.lineId: a line id of its own (got ${show(line?.lineId)})`,
      });
    if (!isWhole(line?.qty, 1))
      issues.push({
        field: `${at}.qty`,
        rule: 'sale',
        message: `${at}.qty: a whole number, 1 or more (got ${show(line?.qty)})`,
      });
    if (!isWhole(line?.total, 0))
      issues.push({
        field: `${at}.total`,
        rule: 'sale',
        message: `${at}.total: a whole number of rupiah, 0 or more (got ${show(line?.total)})`,
      });
    else sum += line.total;
    if (typeof line?.lineId === 'string' && !byId.has(line.lineId))
      byId.set(line.lineId, { line, position: i + 1, refunded: 0 });
  });
  if (!isWhole(sale.total, 0) || (issues.length === 0 && sum !== sale.total))
    issues.push({
      field: 'sale.total',
      rule: 'sale',
      message: `sale.total: the sum of the lines' totals, ${formatRupiah(sum)} (got ${show(sale.total)})`,
    });
  if (!isWhole(sale.paid, 0) || Math.abs(sale.paid - sale.total) > 99 || (sale.total === 0 && sale.paid !== 0))
    issues.push({
      field: 'sale.paid',
      rule: 'sale',
      message: `sale.paid: the sale's total plus its cash rounding line, within Rp99 of ${show(sale.total)} (got ${show(sale.paid)})`,
    });
  if (issues.length > 0) return { ok: false, issues };
  for (const [i, p] of (previous ?? []).entries()) {
    const entry = typeof p?.lineId === 'string' ? byId.get(p.lineId) : undefined;
    if (!entry) {
      issues.push({
        field: `previous[${i}].lineId`,
        rule: 'previous',
        message: `previous[${i}].lineId: the sale has no line ${show(p?.lineId)}`,
      });
      continue;
    }
    if (!isWhole(p.qty, 1) || entry.refunded + p.qty > entry.line.qty) {
      issues.push({
        field: `previous[${i}].qty`,
        rule: 'previous',
        message: `previous[${i}].qty: line ${entry.position} has ${entry.line.qty - entry.refunded} left, so an earlier refund of ${show(p.qty)} cannot be`,
      });
      continue;
    }
    entry.refunded += p.qty;
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, c: { byId } };
}

function amountSoFar(c: Checked): number {
  let sum = 0;
  for (const { line, refunded } of c.byId.values()) sum += cumulativeLineAmount(line.total, line.qty, refunded);
  return sum;
}

/** What is left to refund of `sale`, after the `previous` refunds. */
export function refundable(
  sale: RefundableSale,
  previous: readonly RefundedQty[],
): { ok: true; refundable: Refundable } | { ok: false; issues: RefundIssue[] } {
  const checked = checkSale(sale, previous);
  if (!checked.ok) return checked;
  const lines: LineLeft[] = [...checked.c.byId.values()].map(({ line, position, refunded }) => ({
    lineId: line.lineId,
    position,
    qty: line.qty,
    refundedQty: refunded,
    qtyLeft: line.qty - refunded,
    amountLeft: line.total - cumulativeLineAmount(line.total, line.qty, refunded),
  }));
  const amountRefunded = amountSoFar(checked.c);
  const moneyRefunded = cumulativeMoney(amountRefunded, sale.total, sale.paid);
  return {
    ok: true,
    refundable: {
      lines,
      amountRefunded,
      amountLeft: sale.total - amountRefunded,
      moneyRefunded,
      moneyLeft: sale.paid - moneyRefunded,
    },
  };
}

/** A refund of `sale` (whole: everything left; or the lines and quantities asked for), after the `previous` ones. */
export function planRefund(
  sale: RefundableSale,
  previous: readonly RefundedQty[],
  request: RefundRequest,
): { ok: true; refund: RefundPlan } | { ok: false; issues: RefundIssue[] } {
  const checked = checkSale(sale, previous);
  if (!checked.ok) return checked;
  const { byId } = checked.c;
  const asked: { entry: NonNullable<ReturnType<Checked['byId']['get']>>; qty: number }[] = [];
  const issues: RefundIssue[] = [];

  if (request?.kind === 'whole') {
    for (const entry of byId.values())
      if (entry.line.qty > entry.refunded) asked.push({ entry, qty: entry.line.qty - entry.refunded });
    if (asked.length === 0)
      return {
        ok: false,
        issues: [
          { field: 'sale', rule: 'nothing_left', message: 'sale: nothing is left to refund; it was refunded in full' },
        ],
      };
  } else if (request?.kind === 'lines' && Array.isArray(request.lines)) {
    if (request.lines.length === 0)
      return {
        ok: false,
        issues: [{ field: 'lines', rule: 'lines', message: 'lines: name at least one line to refund' }],
      };
    const named = new Set<string>();
    request.lines.forEach((r, i) => {
      const entry = typeof r?.lineId === 'string' ? byId.get(r.lineId) : undefined;
      if (!entry) {
        issues.push({
          field: `lines[${i}].lineId`,
          rule: 'line_id',
          message: `lines[${i}].lineId: the sale has no line ${show(r?.lineId)}`,
        });
        return;
      }
      const line = `line ${entry.position}`;
      if (named.has(r.lineId)) {
        issues.push({
          field: `lines[${i}].lineId`,
          rule: 'line_id',
          message: `${line}: named twice; give its quantity once`,
        });
        return;
      }
      named.add(r.lineId);
      const left = entry.line.qty - entry.refunded;
      if (!isWhole(r.qty, 1)) {
        issues.push({
          field: `lines[${i}].qty`,
          rule: 'qty',
          message: `${line}: the quantity is a whole number, 1 or more (got ${show(r.qty)})`,
        });
        return;
      }
      if (left === 0) {
        issues.push({ field: `lines[${i}].qty`, rule: 'nothing_left', message: `${line}: refunded in full already` });
        return;
      }
      if (r.qty > left) {
        issues.push({
          field: `lines[${i}].qty`,
          rule: 'qty',
          message: `${line}: at most ${left} left to refund (asked for ${r.qty})`,
        });
        return;
      }
      asked.push({ entry, qty: r.qty });
    });
    if (issues.length > 0) return { ok: false, issues };
  } else {
    return {
      ok: false,
      issues: [
        {
          field: 'request',
          rule: 'lines',
          message: "request: { kind: 'whole' } or { kind: 'lines', lines: [{ lineId, qty }] }",
        },
      ],
    };
  }

  const before = amountSoFar(checked.c);
  const lines: RefundLine[] = asked
    .sort((a, b) => a.entry.position - b.entry.position)
    .map(({ entry, qty }) => ({
      lineId: entry.line.lineId,
      position: entry.position,
      qty,
      amount:
        cumulativeLineAmount(entry.line.total, entry.line.qty, entry.refunded + qty) -
        cumulativeLineAmount(entry.line.total, entry.line.qty, entry.refunded),
    }));
  const amount = lines.reduce((a, l) => a + l.amount, 0);
  const money =
    cumulativeMoney(before + amount, sale.total, sale.paid) - cumulativeMoney(before, sale.total, sale.paid);
  const qtyLeft =
    [...byId.values()].reduce((a, e) => a + e.line.qty - e.refunded, 0) - lines.reduce((a, l) => a + l.qty, 0);
  return { ok: true, refund: { lines, amount, rounding: money - amount, money, complete: qtyLeft === 0 } };
}

export interface CashRefund {
  /** Cash handed back for this refund. */
  handedBack: number;
  /** handedBack − money: the cash refund's rounding line. */
  rounding: number;
}

/**
 * The cash handed back for a refund of `money`, when `before` is the money of the sale's earlier cash refunds and the
 * store rounds cash by `mode` (off: exactly `money`; down or nearest: down to Rp100, cumulatively, see above).
 */
export function cashRefund(before: number, money: number, mode: CashRounding): CashRefund {
  requireSafeInteger('cashRefund', 'before', before);
  requireSafeInteger('cashRefund', 'money', money);
  if (mode === 'off') return { handedBack: money, rounding: 0 };
  const handedBack = roundCash(before + money, 'down') - roundCash(before, 'down');
  return { handedBack, rounding: handedBack - money };
}
