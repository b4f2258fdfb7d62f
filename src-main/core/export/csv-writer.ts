import { finished } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { DrainWaiter, settled } from './streams';

/**
 * The one CSV writer (docs/export.md): the books' orders, takings, sale lines, refunds and tenders, the store book's
 * export and the catalogue's all write through it, so a file of any of them is quoted, ended and streamed the same
 * way. RFC 4180: a header line, CRLF line ends, a field quoted (its quotes doubled) when it holds the delimiter, a
 * quote or a CR LF.
 */

/** A field: text, a number (its digits), or null for an empty field. */
export type CsvCell = string | number | null | undefined;

export interface CsvOptions {
  delimiter: ',' | ';';
  /** Start with UTF-8's byte order mark, so that Excel reads the file as UTF-8. */
  bom: boolean;
}

/** UTF-8's byte order mark, written first when asked for (Excel then reads the file as UTF-8). */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const RECORD_END = '\r\n';
/** Text gathered into chunks of about this many characters before it is written: one write per chunk, not per row. */
const CHUNK_CHARS = 64 * 1024;

/**
 * One record: the fields joined by the delimiter, CRLF after it; a field quoted (its quotes doubled) when it holds
 * the delimiter, a quote or a CR LF; null is an empty field, a number its digits. Byte for byte what csv-stringify 6
 * writes with these options (test/node/csv-record.test.ts compares them), in one loop with no callback per field: the
 * export spent more time in csv-stringify's per-field machinery than in reading the rows. (csv-stringify leaves a
 * lone LF or CR unquoted when the record delimiter is given, and so does this.)
 */
export function csvRecord(cells: readonly CsvCell[], delimiter: ',' | ';', needsQuotes: RegExp): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) line += delimiter;
    const cell = cells[i];
    if (cell === null || cell === undefined || cell === '') continue;
    const value = typeof cell === 'string' ? cell : String(cell);
    line += needsQuotes.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
  }
  return line + RECORD_END;
}

/** What makes a field need quotes with `delimiter` (as csv-stringify decides it: see csvRecord). */
export function quoteRule(delimiter: ',' | ';'): RegExp {
  return delimiter === ',' ? /[",]|\r\n/ : /[";]|\r\n/;
}

/**
 * The header and one record per row into `out`, which is ended; resolves once `out` has finished, with the number of
 * rows and bytes written. The rows are pulled (from SQLite, say) only as fast as `out` takes the text: the records are
 * gathered into chunks of about 64 KiB, and when `out`'s buffer is full the loop waits for its 'drain'. If `out`
 * fails, it is destroyed and the promise rejects.
 */
export async function writeCsvRows<R>(
  rows: Iterable<R>,
  header: readonly string[],
  cells: (row: R) => readonly CsvCell[],
  options: CsvOptions,
  out: Writable,
): Promise<{ rows: number; bytes: number }> {
  const { delimiter } = options;
  const needsQuotes = quoteRule(delimiter);
  const done = settled(finished(out));
  const drain = new DrainWaiter(done);
  let bytes = 0;
  let count = 0;
  const write = async (chunk: string | Buffer) => {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (!out.write(chunk)) await drain.wait(out);
  };
  try {
    if (options.bom) await write(BOM);
    let chunk = csvRecord(header, delimiter, needsQuotes);
    for (const row of rows) {
      count++;
      chunk += csvRecord(cells(row), delimiter, needsQuotes);
      if (chunk.length >= CHUNK_CHARS) {
        await write(chunk);
        chunk = '';
      }
    }
    if (chunk !== '') await write(chunk);
  } catch (err) {
    out.destroy(err as Error);
    await done.catch(() => undefined);
    throw err;
  }
  out.end();
  await done;
  return { rows: count, bytes };
}
