import { parse } from 'csv-parse/sync';
import { decodeStrictUtf8 } from '../http/strict-json-bytes';
import { CatalogueRows, type ImportOptions, type RowsResult } from './catalogue-rows';

/**
 * A catalogue CSV file: UTF-8 with or without a byte-order mark, fields separated by `;` or `,` — whichever the
 * header line has more of outside quotes (Indonesian Excel writes `;`, English Excel `,`) — quoted as RFC 4180 says,
 * lines ending in CR LF or LF. A quote inside an unquoted field is taken as it is (a 5" screen).
 *
 * Lines are named as a text editor numbers them: a record with a line break inside a quoted field is named by the
 * line it starts on.
 */

export type Delimiter = ';' | ',';

/** The delimiter of the header line (the first line that is not empty, up to its line break outside quotes). */
export function detectDelimiter(text: string): Delimiter {
  let semicolons = 0;
  let commas = 0;
  let quoted = false;
  let i = 0;
  while (text[i] === '\n' || text[i] === '\r') i++; // empty lines before the header
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted) {
      if (c === '\n' || c === '\r') break;
      if (c === ';') semicolons++;
      else if (c === ',') commas++;
    }
  }
  return semicolons > commas ? ';' : ',';
}

const CR = 0x0d;
const LF = 0x0a;

/**
 * Line numbers as a text editor counts them (CR LF, CR or LF ends a line), walked along the bytes as csv-parse
 * reports where each record ends (`info.bytes`): its own line count is off after a CR LF inside quotes.
 */
class LineCounter {
  private pos = 0;
  private line = 1;

  constructor(private readonly bytes: Uint8Array) {}

  /** The line where the next record starts (after any empty lines), then moves to the end of it, at `end`. */
  record(end: number): number {
    const start = this.nextStart();
    while (this.pos < end) this.step();
    return start;
  }

  private nextStart(): number {
    const b = this.bytes;
    while (this.pos < b.length && (b[this.pos] === CR || b[this.pos] === LF)) this.step();
    return this.line;
  }

  private step(): void {
    const c = this.bytes[this.pos++];
    if (c === LF || (c === CR && this.bytes[this.pos] !== LF)) this.line++;
  }
}

/**
 * The line of the quote that opens a field and is never closed, read the way RFC 4180 reads quotes (csv-parse's
 * error does not say where the field began, and its byte counts are not reliable after such an error).
 */
export function unclosedQuoteLine(bytes: Uint8Array, delimiter: Delimiter): number | null {
  const QUOTE = 0x22;
  const d = delimiter.charCodeAt(0);
  let line = 1;
  let quoted = false;
  let fieldStart = true;
  let opened = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    const lineEnd = c === LF || (c === CR && bytes[i + 1] !== LF);
    if (quoted) {
      if (c === QUOTE) {
        if (bytes[i + 1] === QUOTE) i++;
        else quoted = false;
      } else if (lineEnd) line++;
    } else if (c === QUOTE && fieldStart) {
      quoted = true;
      opened = line;
      fieldStart = false;
    } else {
      fieldStart = c === d || c === CR || c === LF;
      if (lineEnd) line++;
    }
  }
  return quoted ? opened : null;
}

export function readCatalogueCsv(
  bytes: Uint8Array,
  options: ImportOptions = {},
): RowsResult & { delimiter: Delimiter | null } {
  const rows = new CatalogueRows('line', options);
  const text = decodeStrictUtf8(bytes);
  if (text === undefined) {
    rows.issue(null, null, 'file', 'the file is not UTF-8 text: save it as "CSV UTF-8" (or as XLSX)');
    return { ...rows.result(), delimiter: null };
  }
  const hasBom = text.charCodeAt(0) === 0xfeff;
  const delimiter = detectDelimiter(hasBom ? text.slice(1) : text);
  // The bytes, not the text, so that csv-parse's `info.bytes` are offsets into them.
  const body = hasBom ? bytes.subarray(3) : bytes;
  const input = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const parseOptions = { delimiter, relax_column_count: true, relax_quotes: true };
  try {
    // Without csv-parse's `info`, which doubles its time: each line is a record (an empty line an empty one), so a
    // record's line is its index + 1 — unless a quoted field holds a line break, which the second pass handles.
    const records = parse(input, parseOptions) as string[][];
    if (!records.some((r) => r.some((f) => f.includes('\n') || f.includes('\r'))))
      records.forEach((record, i) => rows.row(record, i + 1));
    else {
      const withInfo = parse(input, { ...parseOptions, info: true, skip_empty_lines: true }) as unknown as {
        info: { bytes: number };
        record: string[];
      }[];
      const lines = new LineCounter(body);
      for (const { info, record } of withInfo) rows.row(record, lines.record(info.bytes));
    }
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e.code === 'CSV_QUOTE_NOT_CLOSED')
      rows.issue(unclosedQuoteLine(body, delimiter), null, 'file', 'a field opens a quote (") that is never closed');
    else rows.issue(null, null, 'file', `the CSV cannot be read: ${e.message ?? String(err)}`);
  }
  return { ...rows.result(), delimiter };
}
