import { z } from 'zod';
import type { ChargeFailure } from './charge-result';
import type { Order } from './order';
import type { Product } from './product';
import { discountSchema, saleLineSchema, type Discount, type SaleLine } from './sale-line';
import type { DiscountOverLimit, SaleFigures } from './sale-totals';
import { pinSchema } from './staff';
import type { CategoryTax, TaxCategory, TaxSettings } from './tax';
import type { CashRounding } from './cash';
import type { DrawerResult } from './shifts';

/**
 * The sale as the API carries it (docs/sale.md): the cart being rung up, a quote of its figures, charging it with
 * one or more tenders, and the stored sale with its lines and tenders. The server recomputes every figure
 * (common/sale-totals.ts, computeSale) from the lines and the store's tax settings; a catalogue line's name, price
 * and tax category are the catalogue's, whatever the caller sent.
 */

export const MAX_CART_LINES = 500;
export const SALE_STATES = ['open', 'tendering', 'completed', 'voided'] as const;
export type SaleState = (typeof SALE_STATES)[number];

/** The cart being rung up at a till, stored as it changes (a reload or a restart never loses a line). */
/**
 * The idempotency key of the sale a cart becomes (made by the client when the cart starts, kept with the stored cart):
 * a charge with a key already charged answers that sale again, never a second one (a double tap, a browser's retry,
 * two tabs of one till). A new cart, or a cart rung up again after a refusal, gets a new key.
 */
export const saleKeySchema = z
  .string()
  .min(8, { error: 'saleKey: 8 to 64 letters, digits or dashes' })
  .max(64, { error: 'saleKey: 8 to 64 letters, digits or dashes' })
  .regex(/^[A-Za-z0-9-]+$/, { error: 'saleKey: 8 to 64 letters, digits or dashes' });

export const cartSchema = z
  .object({
    lines: z.array(saleLineSchema).max(MAX_CART_LINES, { error: `at most ${MAX_CART_LINES} lines` }),
    saleDiscount: discountSchema.nullable().optional(),
    saleKey: saleKeySchema.optional(),
  })
  .strict();
/**
 * The cart a charge sends: as the cart, but a line's name is checked by the charge itself (the counter quotes the cart
 * again), so a typed item without a name comes back as its field's issue beside the gateway order's own (the amount
 * out of the method's range, the phone), all at once, rather than as an argument refused at the door.
 */
export const chargeCartSchema = cartSchema.extend({
  lines: z
    .array(saleLineSchema.extend({ name: z.string().max(400) }))
    .max(MAX_CART_LINES, { error: `at most ${MAX_CART_LINES} lines` }),
});

export interface Cart {
  lines: SaleLine[];
  saleDiscount?: Discount | null | undefined;
  saleKey?: string | undefined;
}

/** A tender as the caller asks for it (common/cash.ts, TenderInput): cash handed, a gateway method, or other. */
export const tenderInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('cash'), handed: z.number() }).strict(),
  z.object({ kind: z.literal('gateway'), methodId: z.string().min(1).max(64), amount: z.number().optional() }).strict(),
  z.object({ kind: z.literal('other'), reference: z.string().max(400), amount: z.number().optional() }).strict(),
]);

/** A manager's approval of a discount above the limit: their staff id and PIN (checked, audited, never stored). */
export const managerPinSchema = z.object({ staffId: z.number().int().positive(), pin: pinSchema }).strict();

export const chargeSaleInputSchema = z
  .object({
    cart: chargeCartSchema,
    /** One gateway tender of this method for the whole sale (issue 19's sale); or `tenders`. */
    methodId: z.string().min(1).max(64).optional(),
    tenders: z.array(tenderInputSchema).min(1).max(10).optional(),
    customerName: z.string().max(200).optional(),
    phone: z.string().max(40).optional(),
    managerPin: managerPinSchema.optional(),
    /** The gateway's V2 (the payment data) or V1 (a token for its hosted page) for the gateway tender. */
    api: z.enum(['v1', 'v2']).optional(),
  })
  .strict();
export type ChargeSaleInput = z.infer<typeof chargeSaleInputSchema>;

/** A field of the cart or the tenders that breaks a rule: `lines[2].qty`, `tenders[0].handed`, `managerPin`. */
export interface SaleFieldIssue {
  field: string;
  rule: string;
  message: string;
}

/** The figures of a cart as the server computes them, and what a charge of it would need. */
export type SaleQuote =
  | {
      ok: true;
      figures: SaleFigures;
      /** The cart's lines as they would be sold (a catalogue line with the catalogue's name, price and category). */
      lines: SaleLine[];
      /** Discounts above the manager-set limits: a charge needs a manager's PIN for them. */
      overLimit: DiscountOverLimit[];
      /** The gateway's item_name of a charge of this cart. */
      itemName: string;
      /** The store's cash rounding (settings: cash.rounding), so the tender screen shows the change before charging. */
      cashRounding?: CashRounding;
    }
  | { ok: false; issues: SaleFieldIssue[] };

/** A line as sold: the product's snapshot and the line's figures. */
export interface SoldLine {
  lineNo: number;
  lineId: string;
  productId?: string;
  sku?: string;
  barcode?: string;
  name: string;
  /** The product's category in the catalogue (the books' figures by category); '' for none or a free line. */
  category: string;
  unitPrice: number;
  qty: number;
  taxCategory: TaxCategory;
  itemId?: string;
  discount?: Discount;
  gross: number;
  lineDiscount: number;
  saleDiscount: number;
  net: number;
  total: number;
}

export const TENDER_KINDS = ['cash', 'gateway', 'other'] as const;
export type TenderKind = (typeof TENDER_KINDS)[number];
export type TenderState = 'pending' | 'paid' | 'failed';

export interface SaleTender {
  no: number;
  kind: TenderKind;
  /** cash and other: paid when recorded; gateway: pending until its order is paid, failed when it ends unpaid. */
  state: TenderState;
  methodId?: string;
  orderId?: string;
  reference?: string;
  /** What the tender pays of the sale (a settling cash tender: the rounded due). */
  amount: number;
  handed: number;
  change: number;
  rounding: number;
  /**
   * A gateway tender that failed (its sale voided) and was then paid at the gateway after all: the money is there for a
   * voided sale, a late payment for the manager, as its order's (the tender stays `failed`, the sale `voided`).
   */
  latePayment?: true;
}

export interface SaleView {
  id: string;
  state: SaleState;
  terminalId: string;
  training: boolean;
  staffId?: number;
  staffName?: string;
  customerName?: string;
  phone?: string;
  lines: SoldLine[];
  saleDiscount: Discount | null;
  subtotal: number;
  lineDiscounts: number;
  saleDiscountAmount: number;
  discounts: number;
  net: number;
  dpp: number;
  ppn: number;
  pbjt: number;
  service: number;
  total: number;
  /** The tax lines, one per tax category the sale has lines of (common/tax.ts). */
  taxLines: CategoryTax[];
  /**
   * The tax settings the sale was computed with: its struk, reprints, reports and exports read these (docs/tax.md,
   * "A sale keeps its tax settings"). Absent for a sale stored before Loket kept them, which is read with the
   * store's settings now.
   */
  taxSettings?: TaxSettings;
  tenders: SaleTender[];
  /** The cash rounding line (its own line, never silent; negative when rounded down). */
  rounding: number;
  change: number;
  /** Σ of the paid tenders' amounts; the sale is completed when it reaches total + rounding. */
  paid: number;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
}

/**
 * What chargeSale answers: what createOrder answers (the order of the gateway tender, when there is one), with the
 * sale. A refusal before anything was written has no sale (`saleId: null`), and `issues` names each field and rule.
 */
export type ChargeSaleResult =
  | { ok: true; saleId: string; sale: SaleView; order: Order | null; drawer?: DrawerResult; replayed?: true }
  | {
      ok: false;
      saleId: string | null;
      sale: SaleView | null;
      order?: Order;
      failure: ChargeFailure;
      issues?: SaleFieldIssue[];
      /** The answer of a charge made before with the same saleKey (nothing new was written or sent). */
      replayed?: true;
    };

/** The cart of a sale, to ring it up again (a charge the gateway refused: the cashier picks another method). */
export function cartOf(sale: SaleView): Cart {
  return {
    lines: sale.lines.map((l) => {
      const line: SaleLine = {
        lineId: l.lineId,
        name: l.name,
        unitPrice: l.unitPrice,
        qty: l.qty,
        taxCategory: l.taxCategory,
      };
      if (l.productId !== undefined) line.productId = l.productId;
      if (l.sku !== undefined) line.sku = l.sku;
      if (l.barcode !== undefined) line.barcode = l.barcode;
      if (l.itemId !== undefined) line.fixedDenomination = { itemId: l.itemId };
      if (l.discount !== undefined) line.discount = l.discount;
      return line;
    }),
    saleDiscount: sale.saleDiscount,
  };
}

/** A catalogue product as a new cart line of `qty` (the screens and the CLI ring up a scanned product so). */
export function lineOfProduct(product: Product, lineId: string, qty = 1, barcode?: string): SaleLine {
  const line: SaleLine = {
    lineId,
    productId: product.id,
    sku: product.sku,
    name: product.name,
    unitPrice: product.price,
    qty,
    taxCategory: product.taxCategory,
  };
  if (barcode !== undefined) line.barcode = barcode;
  if (product.itemId !== undefined) line.fixedDenomination = { itemId: product.itemId };
  return line;
}
