import type { Lang } from '../../common/app-info';

/**
 * The shape of a printed report (docs/end-of-day.md, "Printing the report"): the day's report (report-model.ts), a
 * shift's X/Z report (core/shifts/shift-report-doc.ts) and the sections they are made of (sales-section.ts) fill it
 * in; the A4 page (report-html.ts) and the receipt printer (report-escpos.ts) lay it out. Types only, in a module of
 * their own, so that the builders and the renderers depend on the shape and not on each other.
 */

export interface ReportColumn {
  label: string;
  align: 'left' | 'right';
  /** Kept on one line (a time). */
  nowrap?: boolean;
}

/** One entry as the receipt printer shows it: the label left and the value right, details under it. */
export interface PaperEntry {
  label: string;
  value?: string;
  detail?: string[];
  strong?: boolean;
}

export type ReportSectionKey =
  | 'summary'
  | 'byMethod'
  | 'byState'
  | 'byStaff'
  | 'attention'
  | 'afterClosing'
  // The money taken, by tender and by staff (taken-section.ts): what the day's report leads with.
  | 'taken'
  | 'takenByStaff'
  // The day's sales (sales-section.ts): the figures and tax summary, by category, top sellers.
  | 'sales'
  | 'salesByCategory'
  | 'topSellers'
  // The day's shifts with their cash variance; and the sections of a shift's X/Z report (core/shifts/shift-report-doc.ts).
  | 'shifts'
  | 'shiftTenders'
  | 'shiftCash'
  | 'shiftMovements'
  | 'shiftCount';

export interface ReportSection {
  key: ReportSectionKey;
  title: string;
  /** A sentence under the title. */
  note?: string;
  /** The A4 page's table. */
  columns: ReportColumn[];
  rows: string[][];
  /** A total row, in bold. */
  total?: string[];
  /** The same content, for narrow paper. */
  paper: PaperEntry[];
  /** What is shown when there are no rows. */
  empty: string;
}

export interface ReportDoc {
  lang: Lang;
  header: { storeName: string; storeAddress?: string };
  title: string;
  /** The day and the zone it is counted in. */
  day: { label: string; value: string };
  /** Impossible-to-miss marks: the training log, a day not closed yet. */
  marks: { kind: 'training' | 'open'; text: string }[];
  closed: boolean;
  /** Closed when, by whom, with how many items open; or "not closed". */
  status: { label: string; value: string }[];
  sections: ReportSection[];
  printedAt: { label: string; value: string };
}

export interface ReportContext {
  storeName: string;
  storeAddress?: string;
  lang: Lang;
  printedAt: Date;
}
