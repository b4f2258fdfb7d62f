import type { Lang } from '../../common/app-info';
import type { PaymentMethod } from '../../common/payment-methods';
import type { DayShift, RefundFigures, ReportFigures, SalesFigures } from '../../common/reports';
import { figures } from './day-report';
import { dayShifts } from './day-shifts';
import { refundFigures } from './refund-figures';
import { dbOf, storeDays, type Books } from './sql';
import type { StaffNames } from './staff-names';
import { salesTaken } from './takings';

/**
 * The books of a range of store days, as the workbook's summary sheet shows them (docs/export.md, "XLSX"): the money
 * taken and the sales (takings.ts), the refunds, the shifts opened on the days, and the gateway orders' figures — each
 * from the day report's own functions, so the summary is the report's figures of the same days to the rupiah.
 */
export interface RangeBooks {
  figures: ReportFigures;
  sales: SalesFigures;
  refunds: RefundFigures;
  shifts: DayShift[];
}

export interface RangeOptions {
  timeZone: string;
  methods: readonly PaymentMethod[];
  staffNames: StaffNames;
  training: boolean;
  lang: Lang;
}

export function rangeBooks(books: Books, fromDay: string, toDay: string, options: RangeOptions): RangeBooks {
  const db = dbOf(books);
  const range = storeDays(fromDay, toDay, options.timeZone);
  return {
    figures: figures(db, fromDay, toDay, options.timeZone, options.methods, options.staffNames, options),
    sales: salesTaken(db, range, options),
    refunds: refundFigures(db, range, options.training),
    shifts: dayShifts(db, fromDay, toDay),
  };
}
