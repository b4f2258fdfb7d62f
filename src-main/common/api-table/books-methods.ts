import { z } from 'zod';
import { ORDER_STATES } from '../order';
import { reasonSchema } from '../order-policy';
import type { PrintResult, ReceiptView } from '../print-result';
import type { AttentionItem, AttentionResult, DayReport, DeskPage, DownloadTicket, OrderDetail } from '../reports';
import { MANAGER, returns, type ApiRow } from './row';
import { day, exportRange, orderId, session } from './shared-args';

/**
 * The manager's books: the order desk, the attention queue, the day's report and closing, the export
 * (docs/end-of-day.md, docs/export.md).
 */
export const BOOKS_METHODS = {
  deskOrders: {
    access: MANAGER,
    args: z.tuple([
      session,
      z
        .object({
          from: day,
          to: day,
          state: z.enum(ORDER_STATES).optional(),
          methodId: z.string().min(1).max(64).optional(),
          staffId: z.number().int().positive().optional(),
          search: z.string().max(64).optional(),
          limit: z.number().int().min(1).max(500).optional(),
          offset: z.number().int().min(0).optional(),
        })
        .strict(),
    ]),
    result: returns<DeskPage>(),
  },
  orderDetail: {
    access: MANAGER,
    args: z.tuple([session, orderId]),
    result: returns<OrderDetail>(),
  },
  attentionQueue: {
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<AttentionItem[]>(),
  },
  resolveAttention: {
    access: MANAGER,
    args: z.tuple([
      session,
      z.union([orderId, z.number().int().positive()]),
      z.enum(['check', 'mark_paid', 'cancel', 'acknowledge', 'set_aside']),
      reasonSchema,
    ]),
    result: returns<AttentionResult>(),
  },
  dayReport: {
    access: MANAGER,
    args: z.tuple([session, day]),
    result: returns<DayReport>(),
  },
  closeDay: {
    access: MANAGER,
    args: z.tuple([session, day]),
    result: returns<DayReport>(),
  },
  dayReportHtml: {
    access: MANAGER,
    args: z.tuple([session, day]),
    result: returns<ReceiptView>(),
  },
  printDayReport: {
    access: MANAGER,
    args: z.tuple([session, day]),
    result: returns<PrintResult>(),
  },
  prepareExport: {
    access: MANAGER,
    args: z.tuple([session, exportRange]),
    result: returns<DownloadTicket>(),
  },
} as const satisfies Record<string, ApiRow>;
