import { planTenders, type CashRounding, type TenderInput } from '../../../src-main/common/cash';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import { cashRefund, planRefund, type RefundRequest } from '../../../src-main/common/refund';
import { refundTax } from '../../../src-main/common/refund-tax';
import type { Discount, SaleLine } from '../../../src-main/common/sale-line';
import { computeSale } from '../../../src-main/common/sale-totals';
import { taxSettingsSchema, type TaxCategory, type TaxSettings } from '../../../src-main/common/tax';
import type {
  RefundReceiptInput,
  SaleReceiptInput,
  SaleReceiptOrder,
  SaleReceiptStore,
  SaleReceiptTender,
} from '../../../src-main/core/receipts/sale-receipt-input';
import { saleReceiptLines } from '../../../src-main/core/receipts/sale-receipt-input';

/**
 * Sales for the struk's tests, built the way the sale's side builds them: the cart through computeSale, the tenders
 * through planTenders, a refund through planRefund and cashRefund. Nothing is computed here by hand.
 */

export const QRIS: PaymentMethod = {
  id: 'qris_dynamic',
  kind: 'qris',
  provider: 'QRIS',
  label: { id: 'QRIS (semua aplikasi)', en: 'QRIS (any app)' },
  requiresCustomerName: false,
  requiresPhone: false,
  hasShortCode: false,
  returnsBackUrl: true,
  enabled: true,
  minAmount: 1000,
  maxAmount: 10_000_000,
};

export const GOPAY: PaymentMethod = {
  ...QRIS,
  id: 'ewallet_gopay',
  kind: 'ewallet_qr_redirect',
  provider: 'GoPay',
  label: { id: 'GoPay', en: 'GoPay' },
};

export const METHODS: readonly PaymentMethod[] = [QRIS, GOPAY];

export const STORE: SaleReceiptStore = {
  name: 'Toko Sinar Jaya',
  address: 'Jl. Merdeka 17, Bandung',
  headerText: 'Buka 07.00–22.00',
};

/** A gateway tender in the test: the method, and the order's details (its id and amount come from the plan). */
export type TenderDraft =
  | { kind: 'cash'; handed: number }
  | { kind: 'gateway'; method: PaymentMethod; amount?: number; order?: Partial<SaleReceiptOrder> }
  | { kind: 'other'; reference: string; amount?: number; via?: 'card' | 'transfer' };

export interface SaleDraft {
  lines: SaleLine[];
  saleDiscount?: Discount;
  tax?: Partial<Record<keyof TaxSettings, unknown>>;
  rounding?: CashRounding;
  tenders: TenderDraft[];
  training?: boolean;
  staff?: SaleReceiptInput['staff'];
  store?: SaleReceiptStore;
  saleId?: string;
  serial?: string;
}

/** A paid gateway order of this sale's n-th tender. */
function order(method: PaymentMethod, n: number, over: Partial<SaleReceiptOrder> = {}): SaleReceiptOrder {
  return {
    id: `T01-20261122-18295500${n}-7F3K`,
    state: 'paid',
    methodId: method.id,
    kind: method.kind,
    instruction: { type: 'qr', qrString: '00020101021226' },
    gatewayTransactionId: `GW-88123${n}`,
    paidAt: '2026-11-22T18:31:05Z',
    training: false,
    ...over,
  };
}

export function buildSaleInput(draft: SaleDraft): SaleReceiptInput {
  const tax = taxSettingsSchema.parse(draft.tax ?? {});
  const computed = computeSale(draft.lines, draft.saleDiscount, tax);
  if (!computed.ok) throw new Error(computed.issues.map((i) => i.message).join('\n'));
  const { lines: lineFigures, ...figures } = computed.sale;
  const inputs: TenderInput[] = draft.tenders.map((t) =>
    t.kind === 'cash'
      ? t
      : t.kind === 'gateway'
        ? { kind: 'gateway', methodId: t.method.id, amount: t.amount }
        : { kind: 'other', reference: t.reference, amount: t.amount },
  );
  const planned = planTenders(figures.total, inputs, draft.rounding ?? 'off');
  if (!planned.ok) throw new Error(planned.issues.map((i) => i.message).join('\n'));
  const tenders: SaleReceiptTender[] = planned.plan.steps.map((step, i) => {
    const t = draft.tenders[i]!;
    if (t.kind === 'cash')
      return { kind: 'cash', applied: step.applied, handed: step.handed, change: step.change, rounding: step.rounding };
    if (t.kind === 'gateway') return { kind: 'gateway', applied: step.applied, order: order(t.method, i + 1, t.order) };
    return { kind: 'other', applied: step.applied, reference: t.reference, via: t.via };
  });
  return {
    saleId: draft.saleId ?? '01JDX7Q3M2S8T01-0042',
    serial: draft.serial ?? 'T01-2026-000042',
    createdAt: '2026-11-22T18:29:40Z',
    completedAt: planned.plan.complete ? '2026-11-22T18:31:05Z' : undefined,
    lines: saleReceiptLines(draft.lines, lineFigures),
    saleDiscount: draft.saleDiscount,
    figures,
    tax,
    tenders,
    staff: draft.staff ?? { id: 3, name: 'Sari' },
    training: draft.training ?? false,
    store: draft.store ?? STORE,
  };
}

/** The refund of `request` of a sale built by buildSaleInput, paid back in cash or outside Loket. */
export function buildRefundInput(
  sale: SaleReceiptInput,
  request: RefundRequest,
  how: { kind: 'cash'; rounding: CashRounding } | { kind: 'outside'; methodId?: string },
  reason = 'Barang rusak (kemasan bocor)',
): RefundReceiptInput {
  const rounding = sale.tenders.reduce((a, t) => a + (t.kind === 'cash' ? t.rounding : 0), 0);
  const planned = planRefund(
    { lines: sale.lines, total: sale.figures.total, paid: sale.figures.total + rounding },
    [],
    request,
  );
  if (!planned.ok) throw new Error(planned.issues.map((i) => i.message).join('\n'));
  const plan = planned.refund;
  // The tax it gives back, as the refund service works it out (the first refund of the sale: nothing before).
  const now = new Map<TaxCategory, number>();
  for (const l of plan.lines) {
    const category = sale.lines.find((x) => x.lineId === l.lineId)!.taxCategory;
    now.set(category, (now.get(category) ?? 0) + l.amount);
  }
  const lineTotals = sale.lines.map((l) => ({ category: l.taxCategory, total: l.total }));
  const { net: _net, ...tax } = refundTax(sale.figures.categories, lineTotals, new Map(), now);
  return {
    refundId: 'R-T01-2026-000007',
    saleId: sale.saleId,
    saleSerial: sale.serial,
    at: '2026-11-22T20:05:00Z',
    plan,
    saleLines: sale.lines,
    payout: how.kind === 'cash' ? { kind: 'cash', ...cashRefund(0, plan.money, how.rounding) } : how,
    tax,
    reason,
    staff: { id: 3, name: 'Sari' },
    approvedBy: { id: 1, name: 'Pak Budi' },
    training: sale.training,
    store: sale.store,
  };
}
