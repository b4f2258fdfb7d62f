import { z } from 'zod';
import type { StoreDayReport, StoreLinkView } from '../store-book';
import type { DownloadTicket } from '../reports';
import { CASHIER, MANAGER, returns, type ApiRow } from './row';
import { day, exportRange, session } from './shared-args';

/**
 * The store book (docs/store-book.md): the link for the cashier's header (anyone at the till), and the whole
 * store's day report and export for the manager, read from the store's PostgreSQL.
 */
export const STORE_BOOK_METHODS = {
  storeLink: {
    access: CASHIER,
    args: z.tuple([]),
    result: returns<StoreLinkView>(),
  },
  storeDayReport: {
    access: MANAGER,
    args: z.tuple([session, day]),
    result: returns<StoreDayReport>(),
  },
  prepareStoreExport: {
    access: MANAGER,
    args: z.tuple([session, exportRange]),
    result: returns<DownloadTicket>(),
  },
} as const satisfies Record<string, ApiRow>;
