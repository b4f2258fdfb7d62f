import { z } from 'zod';
import type { PrintResult, ReceiptView } from '../print-result';
import { REFUND_HOWS, type RefundableView, type RefundSaleResult } from '../refund-doc';
import { CASHIER, returns, type ApiRow } from './row';
import { managerPin } from './shared-args';

/**
 * Refunds (docs/tenders.md, "Stored refunds"; core/sales/refund-api.ts): at the till, with a manager's PIN.
 */
export const REFUND_METHODS = {
  refundableOf: {
    access: CASHIER,
    args: z.tuple([z.object({ saleId: z.string().min(1).max(40) }).strict()]),
    result: returns<RefundableView | null>(),
  },
  refundSale: {
    access: CASHIER,
    args: z.tuple([
      z
        .object({
          saleId: z.string().min(1).max(40),
          lines: z
            .array(z.object({ lineId: z.string().min(1).max(100), qty: z.number() }).strict())
            .max(500)
            .optional(),
          reason: z.string().max(1000),
          how: z.enum(REFUND_HOWS),
          managerPin,
        })
        .strict(),
    ]),
    result: returns<RefundSaleResult>(),
  },
  refundReceipt: {
    access: CASHIER,
    args: z.tuple([
      z
        .object({
          refundId: z.string().min(1).max(40),
          paper: z.union([z.literal(58), z.literal(80)]),
          copy: z.boolean().optional(),
        })
        .strict(),
    ]),
    result: returns<ReceiptView>(),
  },
  printRefundReceipt: {
    access: CASHIER,
    args: z.tuple([z.object({ refundId: z.string().min(1).max(40), copy: z.boolean().optional() }).strict()]),
    result: returns<PrintResult>(),
  },
} as const satisfies Record<string, ApiRow>;
