import { z } from 'zod';
import { reasonSchema } from '../order-policy';
import type { PrintResult, ReceiptView } from '../print-result';
import type { Product } from '../product';
import {
  cartSchema,
  chargeSaleInputSchema,
  type Cart,
  type ChargeSaleResult,
  type SaleQuote,
  type SaleView,
} from '../sale';
import { CASHIER, returns, type ApiRow } from './row';
import { orderId } from './shared-args';

/**
 * The sale at the counter (docs/sale.md): the catalogue as the cashier finds it, the cart, its figures, charging.
 */
export const SALE_METHODS = {
  searchProducts: {
    access: CASHIER,
    args: z.tuple([
      z.object({ text: z.string().max(200), limit: z.number().int().min(1).max(200).optional() }).strict(),
    ]),
    result: returns<Product[]>(),
  },
  productByCode: {
    access: CASHIER,
    args: z.tuple([z.object({ code: z.string().max(64) }).strict()]),
    result: returns<Product | null>(),
  },
  currentCart: {
    access: CASHIER,
    args: z.tuple([]),
    result: returns<Cart>(),
  },
  // The customer display follows the cart as it is rung up.
  saveCart: {
    access: CASHIER,
    args: z.tuple([z.object({ cart: cartSchema }).strict()]),
    result: returns<Cart>(),
    pushesDisplay: true,
  },
  quoteSale: {
    access: CASHIER,
    args: z.tuple([z.object({ cart: cartSchema }).strict()]),
    result: returns<SaleQuote>(),
  },
  chargeSale: {
    access: CASHIER,
    args: z.tuple([chargeSaleInputSchema]),
    result: returns<ChargeSaleResult>(),
    charge: true,
    // A sale paid in cash or other only has no order to take the display: its change goes there instead.
    showsPaidSale: true,
  },
  saleOf: {
    access: CASHIER,
    args: z.tuple([z.object({ orderId }).strict()]),
    result: returns<SaleView | null>(),
  },
  sale: {
    access: CASHIER,
    args: z.tuple([z.object({ saleId: z.string().min(1).max(40) }).strict()]),
    result: returns<SaleView | null>(),
  },
  voidSale: {
    access: CASHIER,
    args: z.tuple([z.object({ saleId: z.string().min(1).max(40), reason: reasonSchema }).strict()]),
    result: returns<SaleView>(),
  },
  // The struk of a sale: its HTML for the screen's print (58, 80 mm or A4), or printed on the printer set up.
  saleReceipt: {
    access: CASHIER,
    args: z.tuple([
      z
        .object({
          saleId: z.string().min(1).max(40),
          paper: z.union([z.literal(58), z.literal(80), z.literal('A4')]),
          copy: z.boolean(),
        })
        .strict(),
    ]),
    result: returns<ReceiptView>(),
  },
  printSaleReceipt: {
    access: CASHIER,
    args: z.tuple([z.object({ saleId: z.string().min(1).max(40), copy: z.boolean() }).strict()]),
    result: returns<PrintResult>(),
  },
} as const satisfies Record<string, ApiRow>;
