import { reasonSchema, REASON_RULE } from '../../common/order-policy';
import { cashRefund, planRefund, refundable, type RefundableSale, type RefundRequest } from '../../common/refund';
import {
  REFUND_HOWS,
  type RefundableView,
  type RefundFieldIssue,
  type RefundHow,
  type RefundSaleInput,
  type RefundSaleResult,
  type RefundView,
} from '../../common/refund-doc';
import { refundTax } from '../../common/refund-tax';
import type { SaleView } from '../../common/sale';
import { tenderKind } from '../../common/tender-kinds';
import type { StaffSummary } from '../../common/staff';
import type { TaxCategory } from '../../common/tax';
import { Uuidv7Generator } from '../../db/uuidv7';
import { staffActor, type AuditActor, type AuditLog } from '../audit/audit-log';
import type { Clock } from '../ports';
import type { SaleSettings } from '../settings/sale-settings';
import { NoOpenShiftError, type CashLedger } from '../shifts/cash-ledger';
import type { DrawerPort } from '../shifts/drawer';
import { ShiftRuleError } from '../shifts/errors';
import type { PinCheckResult } from '../staff/access';
import type { RefundStore } from './refund-store';
import type { SaleStore } from './sale-store';

/**
 * Refunds of paid sales (docs/tenders.md, "Refunds"): what is left to refund of a sale, and a refund — whole, or by
 * lines and quantities — with a reason and a manager's PIN, its money back in cash from the drawer (through the
 * shift's cash ledger: an open shift is needed, and the drawer must hold it) or recorded as refunded outside Loket
 * (the aggregator has no refund call). The amounts are refund.ts's, the tax given back refund-tax.ts's; the refund,
 * its lines, events and outbox rows and the cash movement are written in one transaction, after the earlier refunds
 * are read again under its write lock, so two refunds at once can never give back more than was paid. The sale and
 * its orders are never changed.
 *
 * Decided here:
 * - Only a completed sale is refunded (one still being paid is voided instead).
 * - `outside` is for a sale a gateway or "other" tender paid part of; a sale paid in cash alone goes back in cash.
 *   Cash may go back for any sale (a QRIS sale refunded from the drawer).
 * - The request is checked before the PIN, so a mistake in the lines does not use up the manager's PIN attempts.
 * - At the command line, without `--manager`, the machine's account approves, as every manager action there does.
 */

export interface RefundServiceDeps {
  sales: SaleStore;
  refunds: RefundStore;
  settings: () => SaleSettings;
  terminalId: () => string;
  training: boolean;
  clock: Clock;
  till?: () => { staff: StaffSummary | null };
  approveAsManager?: (staffId: number, pin: string) => Promise<PinCheckResult>;
  /** The audit log of the order log's own database: a refund's approval commits with the refund. */
  audit?: AuditLog;
  cashLedger?: CashLedger;
  /** The cash drawer, opened once a cash refund has committed. */
  drawer?: DrawerPort;
}

const ids = new Uuidv7Generator();

export class RefundService {
  constructor(private readonly deps: RefundServiceDeps) {}

  /** What is left to refund of a sale, and its refunds so far; null when there is no such sale. */
  refundableOf(input: { saleId: string }): RefundableView | null {
    const sale = this.deps.sales.get(input.saleId);
    return sale ? this.viewOf(sale) : null;
  }

  refund(input: { refundId: string }): RefundView | null {
    return this.deps.refunds.get(input.refundId) ?? null;
  }

  /** The receipt of a refund went to the printer: the next one is a copy (docs/receipts.md, one original). */
  receiptPrinted(refundId: string, copy: boolean): void {
    this.deps.refunds.noteReceipt(refundId, this.deps.clock.now().toISOString(), copy);
  }

  receiptIssued(refundId: string): boolean {
    return this.deps.refunds.receiptIssued(refundId);
  }

  /** The serial of a sale's struk (`T01-000042`), for its refunds' receipts: "No. struk asal". */
  saleSerialOf(saleId: string): string | undefined {
    return this.deps.sales.serialOf(saleId);
  }

  /**
   * Refunds lines of a sale (or all that is left). `commandLine`: the machine's account approves when no manager's
   * PIN is given (the command line only; the API always asks for the PIN).
   */
  async refundSale(input: RefundSaleInput, commandLine?: AuditActor): Promise<RefundSaleResult> {
    const sale = this.deps.sales.get(input.saleId);
    if (!sale)
      return refused([{ field: 'saleId', rule: 'not_found', message: `saleId: no sale ${input.saleId} in this log` }]);
    const issues: RefundFieldIssue[] = [];
    if (sale.state !== 'completed')
      issues.push({
        field: 'saleId',
        rule: 'not_completed',
        message: `saleId: sale ${sale.id} is ${sale.state}; only a completed sale is refunded (one still being paid is voided)`,
        params: { state: sale.state },
      });
    const reason = reasonSchema.safeParse(input.reason);
    if (!reason.success) issues.push({ field: 'reason', rule: 'reason', message: REASON_RULE });
    const hows = howsOf(sale);
    if (!REFUND_HOWS.includes(input.how))
      issues.push({ field: 'how', rule: 'how', message: `how: cash or outside (got ${JSON.stringify(input.how)})` });
    else if (!hows.includes(input.how))
      issues.push({
        field: 'how',
        rule: 'outside_needs_digital',
        message: 'how: outside is for a sale paid by a gateway payment or another tender; this one was paid in cash',
      });
    const request: RefundRequest =
      input.lines === undefined ? { kind: 'whole' } : { kind: 'lines', lines: input.lines };
    const first = planRefund(refundableSaleOf(sale), this.deps.refunds.soFar(sale.id).qty, request);
    if (!first.ok) issues.push(...first.issues.map((i) => withParams(i, sale, input.lines)));
    if (issues.length > 0) return refused(issues);

    let approvedBy: { staffId?: number; name: string };
    let approver: AuditActor;
    if (input.managerPin) {
      if (!this.deps.approveAsManager)
        return refused([{ field: 'managerPin', rule: 'unavailable', message: 'managerPin: cannot be checked here' }]);
      const checked = await this.deps.approveAsManager(input.managerPin.staffId, input.managerPin.pin);
      if (!checked.ok)
        return refused([
          {
            field: 'managerPin',
            rule: checked.reason,
            message: `managerPin: not accepted (${checked.reason})`,
            ...('retryAfterMs' in checked && checked.retryAfterMs !== undefined
              ? { params: { retryAfterMs: checked.retryAfterMs } }
              : {}),
          },
        ]);
      approvedBy = { staffId: checked.staff.id, name: checked.staff.name };
      approver = staffActor(checked.staff);
    } else if (commandLine) {
      approvedBy = { name: commandLine.name };
      approver = commandLine;
    } else {
      return refused([
        {
          field: 'managerPin',
          rule: 'pin_required',
          message: "managerPin: a refund needs a manager's PIN (the manager's staff id and PIN)",
        },
      ]);
    }

    const staff = this.deps.till?.().staff ?? null;
    const actor = staff?.name ?? (commandLine ? commandLine.name : 'cashier');
    const refundId = ids.next(this.deps.clock.now().getTime());
    const at = this.deps.clock.now().toISOString();
    const methodId = sale.tenders.find((t) => tenderKind(t.kind).sendsOrder && t.state === 'paid')?.methodId;
    let refund: RefundView;
    try {
      refund = this.deps.sales.db
        .transaction(() => {
          // Read again under the write lock: another refund of this sale may have committed since the check above.
          const soFar = this.deps.refunds.soFar(sale.id);
          const planned = planRefund(refundableSaleOf(sale), soFar.qty, request);
          if (!planned.ok) throw new Refused(planned.issues.map((i) => withParams(i, sale, input.lines)));
          const plan = planned.refund;
          const cash =
            input.how === 'cash'
              ? cashRefund(soFar.cashMoney, plan.money, this.deps.settings().cash.rounding)
              : { handedBack: plan.money, rounding: 0 };
          const ledger = this.deps.cashLedger;
          let shiftId: string | undefined;
          if (input.how === 'cash') {
            if (!ledger) throw new NoOpenShiftError();
            shiftId = ledger.openShiftId();
          }
          const byLine = new Map(sale.lines.map((l) => [l.lineId, l]));
          const now = new Map<TaxCategory, number>();
          for (const l of plan.lines) {
            const c = byLine.get(l.lineId)!.taxCategory;
            now.set(c, (now.get(c) ?? 0) + l.amount);
          }
          const tax = refundTax(
            sale.taxLines,
            sale.lines.map((l) => ({ category: l.taxCategory, total: l.total })),
            soFar.amountByCategory,
            now,
          );
          const written = this.deps.refunds.create(
            {
              id: refundId,
              saleId: sale.id,
              terminalId: this.deps.terminalId(),
              training: this.deps.training,
              how: input.how,
              methodId: input.how === 'outside' ? methodId : undefined,
              shiftId,
              reason: reason.data!,
              lines: plan.lines.map((l) => ({
                saleLineNo: l.position,
                lineId: l.lineId,
                name: byLine.get(l.lineId)!.name,
                qty: l.qty,
                amount: l.amount,
              })),
              amount: plan.amount,
              rounding: plan.rounding,
              money: plan.money,
              cashRounding: cash.rounding,
              paidBack: cash.handedBack,
              tax,
              complete: plan.complete,
              staffId: staff?.id,
              staffName: staff?.name,
              approvedBy,
              at,
            },
            { actor, ...(staff ? { staffId: staff.id } : {}) },
          );
          // The drawer pays it: the shift's movement in this same transaction (refused when the drawer is short).
          if (input.how === 'cash' && cash.handedBack > 0)
            ledger!.record({
              type: 'cash_refund',
              amount: cash.handedBack,
              shiftId: shiftId!,
              documentId: refundId,
              at,
              staffId: staff?.id ?? null,
            });
          // The approval's audit entry commits with the refund it approves (a kill cannot keep one without the other).
          this.deps.audit?.record({
            actor: approver,
            action: 'refund.approved',
            detail: {
              refundId,
              saleId: sale.id,
              how: written.how,
              paidBack: written.paidBack,
              lines: written.lines.map((l) => ({ line: l.saleLineNo, qty: l.qty })),
            },
          });
          return written;
        })
        .immediate();
    } catch (err) {
      if (err instanceof Refused) return refused(err.issues);
      if (err instanceof NoOpenShiftError) return refused([{ field: 'how', rule: err.rule, message: err.message }]);
      if (err instanceof ShiftRuleError && err.issues.length > 0)
        return refused(
          err.issues.map((i) => ({ field: 'how', rule: i.rule, message: i.message.replace(/^amount: /, 'how: ') })),
        );
      throw err;
    }
    // Committed: the drawer opens for the cash going back (awaited: the command line's process waits for the pulse).
    const drawer =
      refund.how === 'cash' && refund.paidBack > 0 ? await this.deps.drawer?.open('cash_refund') : undefined;
    return { ok: true, refund, refundable: this.viewOf(sale), ...(drawer ? { drawer } : {}) };
  }

  private viewOf(sale: SaleView): RefundableView {
    const refunds = this.deps.refunds.ofSale(sale.id);
    const left = refundable(refundableSaleOf(sale), this.deps.refunds.soFar(sale.id).qty);
    const hows = howsOf(sale);
    const byLine = new Map(sale.lines.map((l) => [l.lineId, l]));
    const paid = sale.total + sale.rounding;
    const r = left.ok
      ? left.refundable
      : { lines: [], amountRefunded: 0, moneyRefunded: 0, moneyLeft: paid, amountLeft: sale.total };
    return {
      saleId: sale.id,
      saleState: sale.state,
      refundable: sale.state === 'completed' && r.lines.some((l) => l.qtyLeft > 0),
      total: sale.total,
      paid,
      lines: r.lines.map((l) => ({
        ...l,
        name: byLine.get(l.lineId)?.name ?? '',
        unitPrice: byLine.get(l.lineId)?.unitPrice ?? 0,
      })),
      amountRefunded: r.amountRefunded,
      moneyRefunded: r.moneyRefunded,
      moneyLeft: r.moneyLeft,
      hows,
      defaultHow: sale.tenders.some((t) => tenderKind(t.kind).intoDrawer) ? 'cash' : 'outside',
      refunds,
    };
  }
}

class Refused extends Error {
  constructor(readonly issues: RefundFieldIssue[]) {
    super(issues.map((i) => i.message).join('; '));
  }
}

function refused(issues: RefundFieldIssue[]): RefundSaleResult {
  return { ok: false, issues };
}

/** The sale as refund.ts reads it: each line's total, the total, and what was paid (total + cash rounding). */
export function refundableSaleOf(sale: SaleView): RefundableSale {
  return {
    lines: sale.lines.map((l) => ({ lineId: l.lineId, qty: l.qty, total: l.total })),
    total: sale.total,
    paid: sale.total + sale.rounding,
  };
}

/** Cash always; outside when a tender of a kind refunded outside Loket (a gateway payment, a slip) paid part of it. */
function howsOf(sale: SaleView): RefundHow[] {
  return sale.tenders.some((t) => tenderKind(t.kind).refundsOutside && t.state === 'paid')
    ? ['cash', 'outside']
    : ['cash'];
}

/** A line's issue with its numbers (the line's place, what is left, what was asked), for a screen to word it. */
function withParams(
  issue: { field: string; rule: string; message: string },
  sale: SaleView,
  lines: RefundSaleInput['lines'],
): RefundFieldIssue {
  const m = /^lines\[(\d+)\]/.exec(issue.field);
  const asked = m ? lines?.[Number(m[1])] : undefined;
  const line = asked ? sale.lines.find((l) => l.lineId === asked.lineId) : undefined;
  const left = /at most (\d+) left/.exec(issue.message);
  const params: Record<string, number | string> = {};
  if (line) params.position = line.lineNo;
  if (asked && typeof asked.qty === 'number') params.asked = asked.qty;
  if (left) params.left = Number(left[1]);
  return { ...issue, ...(Object.keys(params).length > 0 ? { params } : {}) };
}
