import type { Lang } from '../../common/app-info';
import type { PaymentMethod } from '../../common/payment-methods';
import { neutralise } from './columns';
import type { ExportRow } from './order-query';
import type { ZoneClock } from './zone-time';

/** A closed store day of the export: its orders' range (UTC ISO, [from, to)) and the closing's last event. */
export interface ClosedDay {
  from: string;
  to: string;
  lastEventSeq: number;
}

/** A CSV record: every cell a string, or null for an empty cell; amounts as digits. */
export type CsvCells = (string | number | null)[];
/**
 * An XLSX row: text cells, number cells (amounts), date cells (times), boolean cells (flags). An empty cell is
 * `undefined`, for which exceljs makes no cell object at all (a null would still get one, written as nothing).
 */
export type XlsxCells = (string | number | boolean | Date | undefined)[];

const text = (value: string | null): string | null => (value === null ? null : neutralise(value));
/** An id the database holds as a number (staff) or JSON may give as one (a VA number): written as text. */
const idText = (value: string | number | null): string | null => (value === null ? null : neutralise(String(value)));
const cellText = (value: string | null): string | undefined => (value === null ? undefined : neutralise(value));
const cellId = (value: string | number | null): string | undefined =>
  value === null ? undefined : neutralise(String(value));

/**
 * Turns rows of EXPORT_SQL into cells, in the order of EXPORT_COLUMNS. One instance per export: it holds the
 * method labels in the export's language and the store's zone.
 */
export class RowCells {
  private readonly labels: Map<string, string>;
  private readonly staff: Map<number, string> | undefined;

  constructor(
    methods: readonly PaymentMethod[],
    lang: Lang,
    private readonly zone: ZoneClock,
    staffNames?: readonly { id: number; name: string }[],
    private readonly closed: readonly ClosedDay[] = [],
  ) {
    this.labels = new Map(methods.map((m) => [m.id, m.label[lang]]));
    this.staff = staffNames && new Map(staffNames.map((s) => [s.id, s.name]));
  }

  /** The order's day was closed, and the order changed since (its last event came after the closing's). */
  private changedAfterClosing(r: ExportRow): boolean {
    const day = this.closed.find((c) => r[1] >= c.from && r[1] < c.to);
    return day !== undefined && r[20] !== null && r[20] > day.lastEventSeq;
  }

  /** The store's name for who sold it, else the log's own. */
  private staffName(r: ExportRow): string | null {
    return (r[14] !== null ? this.staff?.get(r[14]) : undefined) ?? r[15];
  }

  csv(r: ExportRow): CsvCells {
    const zone = this.zone;
    return [
      text(r[0]),
      zone.withOffset(r[1]),
      r[2] === null ? null : zone.withOffset(r[2]),
      r[3] === null ? null : zone.withOffset(r[3]),
      text(r[4]),
      text(r[5]),
      r[6],
      text(r[7]),
      text(this.labels.get(r[7]) ?? null),
      text(r[8]),
      r[9] === 1 ? 'true' : 'false',
      text(r[10]),
      idText(r[11]),
      text(r[12]),
      text(r[13]),
      idText(r[14]),
      text(this.staffName(r)),
      text(r[16]),
      text(r[17]),
      text(r[18]),
      r[19] === 1 ? 'true' : 'false',
      this.changedAfterClosing(r) ? 'true' : 'false',
    ];
  }

  xlsx(r: ExportRow): XlsxCells {
    const zone = this.zone;
    return [
      cellText(r[0]),
      zone.wallDate(r[1]),
      r[2] === null ? undefined : zone.wallDate(r[2]),
      r[3] === null ? undefined : zone.wallDate(r[3]),
      cellText(r[4]),
      cellText(r[5]),
      r[6],
      cellText(r[7]),
      cellText(this.labels.get(r[7]) ?? null),
      cellText(r[8]),
      r[9] === 1,
      cellText(r[10]),
      cellId(r[11]),
      cellText(r[12]),
      cellText(r[13]),
      cellId(r[14]),
      cellText(this.staffName(r)),
      cellText(r[16]),
      cellText(r[17]),
      cellText(r[18]),
      r[19] === 1,
      this.changedAfterClosing(r),
    ];
  }
}
