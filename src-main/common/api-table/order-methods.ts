import { z } from 'zod';
import type { AppInfo } from '../app-info';
import type { ChargeResult, CurrentSale } from '../charge-result';
import type { DisplayState } from '../display';
import { ORDER_STATES, type Order } from '../order';
import { reasonSchema } from '../order-policy';
import type { PaymentMethod } from '../payment-methods';
import type { PrintResult, ReceiptView } from '../print-result';
import type { CatalogueItem } from '../product';
import { CASHIER, returns, type ApiRow } from './row';
import { orderId } from './shared-args';

export const chargeInputSchema = z
  .object({
    methodId: z.string().min(1).max(64),
    amount: z.number(),
    itemName: z.string().max(200),
    itemId: z.string().max(50).optional(),
    customerName: z.string().max(200).optional(),
    phone: z.string().max(40).optional(),
    api: z.enum(['v1', 'v2']).optional(),
  })
  .strict();
export type ChargeInput = z.infer<typeof chargeInputSchema>;

/**
 * The order service's methods (core/app-service.ts): the till's payment methods and quick items, a gateway order's
 * life at the counter (create, cancel, retry, show on the display), its receipts and slips, the sale in progress.
 */
export const ORDER_METHODS = {
  appInfo: {
    access: CASHIER,
    args: z.tuple([]),
    result: returns<AppInfo>(),
  },
  listMethods: {
    access: CASHIER,
    args: z.tuple([]),
    result: returns<PaymentMethod[]>(),
  },
  listItems: {
    access: CASHIER,
    args: z.tuple([]),
    result: returns<CatalogueItem[]>(),
  },
  createOrder: {
    access: CASHIER,
    args: z.tuple([chargeInputSchema]),
    result: returns<ChargeResult>(),
    charge: true,
  },
  getOrder: {
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<Order | null>(),
  },
  listOrders: {
    access: CASHIER,
    args: z.tuple([
      z
        .object({
          date: z
            .string()
            .regex(/^\d{4}-\d{2}-\d{2}$/)
            .optional(),
          state: z.enum(ORDER_STATES).optional(),
        })
        .strict(),
    ]),
    result: returns<Order[]>(),
  },
  cancelOrder: {
    access: CASHIER,
    args: z.tuple([orderId, reasonSchema]),
    result: returns<Order>(),
  },
  retryOrder: {
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<ChargeResult>(),
    charge: true,
  },
  simulatePayment: {
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<Order>(),
  },
  showOnDisplay: {
    access: CASHIER,
    args: z.tuple([orderId.nullable()]),
    result: returns<DisplayState>(),
  },
  displayState: {
    access: ['cashier', 'display'],
    args: z.tuple([]),
    result: returns<DisplayState>(),
  },
  receipt: {
    access: CASHIER,
    args: z.tuple([orderId, z.object({ paper: z.union([z.literal(58), z.literal(80)]), copy: z.boolean() }).strict()]),
    result: returns<ReceiptView>(),
  },
  printReceipt: {
    access: CASHIER,
    args: z.tuple([orderId, z.object({ copy: z.boolean() }).strict()]),
    result: returns<PrintResult>(),
  },
  /** The payment slip of a VA or store-code order waiting for payment (docs/receipts.md, "The payment slip"). */
  paymentSlip: {
    access: CASHIER,
    args: z.tuple([orderId, z.object({ paper: z.union([z.literal(58), z.literal(80)]) }).strict()]),
    result: returns<ReceiptView>(),
  },
  printPaymentSlip: {
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<PrintResult>(),
  },
  currentSale: {
    access: CASHIER,
    args: z.tuple([]),
    result: returns<CurrentSale | null>(),
  },
  parkSale: {
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<null>(),
  },
  // Late payments shown at the till at once, until the cashier has seen them (docs/orders.md, "Cancelling").
  latePayments: {
    access: CASHIER,
    args: z.tuple([]),
    result: returns<Order[]>(),
  },
  acknowledgeLatePayment: {
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<Order>(),
  },
} as const satisfies Record<string, ApiRow>;
