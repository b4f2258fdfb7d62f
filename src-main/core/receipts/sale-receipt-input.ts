import type { Order } from '../../common/order';
import type { RefundPlan } from '../../common/refund';
import type { Discount } from '../../common/sale-line';
import type { LineFigures, SaleFigures } from '../../common/sale-totals';
import type { TaxSettings } from '../../common/tax';

/**
 * What the struk of a sale and of a refund are printed from: the stored sale as the sale's persistence keeps it.
 * Every amount here was computed once, by computeSale (common/sale-totals.ts), cash.ts and refund.ts, and stored;
 * the struk prints these figures and never works one out again (sale-receipt.ts), so paper and books cannot drift.
 * Times are UTC ISO-8601; they are shown in the store's zone.
 */

/** A line of the sale: what computeSale gave for it, and what the cart said of it (its name, its unit price). */
export interface SaleReceiptLine extends LineFigures {
  name: string;
  unitPrice: number;
  /** The line's discount as the cashier gave it (a percentage is printed with its rate). */
  discount?: Discount | undefined;
}

/** A gateway tender's order: what the struk shows of it, as an order's receipt does (receipt-model.ts). */
export type SaleReceiptOrder = Pick<
  Order,
  | 'id'
  | 'state'
  | 'methodId'
  | 'kind'
  | 'instruction'
  | 'customerName'
  | 'phone'
  | 'gatewayTransactionId'
  | 'rejection'
  | 'paidAt'
  | 'training'
>;

/** A tender of the sale, in the order it was taken; amounts as cash.ts's planTenders gave them. */
export type SaleReceiptTender =
  | {
      kind: 'cash';
      /** What the tender paid of the sale (TenderStep.applied: handed − change). */
      applied: number;
      handed: number;
      change: number;
      /** The cash rounding line (TenderStep.rounding: negative when rounded down); 0 when none. */
      rounding: number;
    }
  | { kind: 'gateway'; applied: number; order: SaleReceiptOrder }
  | {
      kind: 'other';
      applied: number;
      reference: string;
      /** What it was, when the cashier said: a card terminal's slip or a bank transfer. */
      via?: 'card' | 'transfer' | undefined;
    };

/** The store as its struk names it (settings: store, receipt header and footer). */
export interface SaleReceiptStore {
  name: string;
  address?: string | undefined;
  /** The store's own lines under its name and address, up to 3. */
  headerText?: string | undefined;
  /** Replaces the closing "Terima kasih", up to 3 lines. */
  footerText?: string | undefined;
}

export interface SaleReceiptInput {
  saleId: string;
  /** The sale's serial number (the tax invoice's number for a PKP store). */
  serial: string;
  createdAt: string;
  /** When the last tender was paid; absent while the sale is not paid in full. */
  completedAt?: string | undefined;
  lines: SaleReceiptLine[];
  /** The sale discount as the cashier gave it. */
  saleDiscount?: Discount | null | undefined;
  /** computeSale's figures for the sale (its `lines` are not read: `lines` above carries them with their names). */
  figures: Omit<SaleFigures, 'lines'>;
  /** The tax settings the sale was computed with (rates and the DPP factor are printed; `pkp` for the invoice). */
  tax: TaxSettings;
  tenders: SaleReceiptTender[];
  /** Who sold it. */
  staff?: { id: string | number; name?: string | undefined } | undefined;
  training: boolean;
  store: SaleReceiptStore;
}

/** Builds a struk line from a cart line and computeSale's figures for it (matched by line id). */
export function saleReceiptLines(
  cart: readonly { lineId: string; name: string; unitPrice: number; discount?: Discount | undefined }[],
  figures: readonly LineFigures[],
): SaleReceiptLine[] {
  return figures.map((f) => {
    const line = cart.find((l) => l.lineId === f.lineId);
    if (!line) throw new RangeError(`saleReceiptLines: the cart has no line ${JSON.stringify(f.lineId)}`);
    return { ...f, name: line.name, unitPrice: line.unitPrice, discount: line.discount };
  });
}

/** How a refund's money went back. */
export type RefundReceiptPayout =
  /** From the drawer; `handedBack` and `rounding` as refund.ts's cashRefund gave them. */
  | { kind: 'cash'; handedBack: number; rounding: number }
  /** Refunded outside Loket (the aggregator has no refund call): by the tender's method, e.g. a QRIS transfer. */
  | { kind: 'outside'; methodId?: string | undefined };

export interface RefundReceiptInput {
  refundId: string;
  /** The original sale. */
  saleId: string;
  saleSerial?: string | undefined;
  /** When the refund was made (UTC ISO). */
  at: string;
  /** planRefund's result for this refund. */
  plan: RefundPlan;
  /** The sale's lines, for their names (matched by line id). */
  saleLines: readonly { lineId: string; name: string; qty: number }[];
  payout: RefundReceiptPayout;
  /**
   * The tax the refund gives back, part of its amount (refund-tax.ts's split of the sale's stored tax lines, as the
   * refund stored it); absent or all 0: no tax block.
   */
  tax?: { dpp: number; ppn: number; pbjt: number; service: number } | undefined;
  reason: string;
  staff?: { id: string | number; name?: string | undefined } | undefined;
  /** The manager whose PIN allowed it. */
  approvedBy?: { id: string | number; name?: string | undefined } | undefined;
  training: boolean;
  store: SaleReceiptStore;
}
