import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { COLUMN_NAMES } from './columns';
import type { ExportRow } from './order-query';
import type { RowCells } from './row-cells';
import { DrainWaiter, settled } from './streams';

export interface CsvOptions {
  delimiter: ',' | ';';
  bom: boolean;
}

/**
 * RFC 4180 through csv-stringify's stream API: a header line, CRLF line ends, a field quoted (with its
 * quotes doubled) when it holds the delimiter, a quote, CR or LF. The rows are pulled from SQLite only as fast
 * as `out` takes the text: when the stringifier's buffer is full, the loop waits for its 'drain'.
 */
export async function writeCsv(
  rows: Iterable<ExportRow>,
  cells: RowCells,
  options: CsvOptions,
  out: Writable,
): Promise<{ rows: number; bytes: number }> {
  const stringifier = stringify({
    delimiter: options.delimiter,
    bom: options.bom,
    header: true,
    columns: [...COLUMN_NAMES],
    record_delimiter: '\r\n',
    // Records waiting to be turned into text, and text waiting for `out`: together the export's buffer.
    writableHighWaterMark: 256,
    readableHighWaterMark: 64 * 1024,
  });
  let bytes = 0;
  stringifier.on('data', (chunk: Buffer) => (bytes += chunk.length));
  const done = settled(pipeline(stringifier, out));
  const drain = new DrainWaiter(done);
  let count = 0;
  try {
    for (const row of rows) {
      count++;
      if (!stringifier.write(cells.csv(row))) await drain.wait(stringifier);
    }
  } catch (err) {
    stringifier.destroy(err as Error);
    await done.catch(() => undefined);
    throw err;
  }
  stringifier.end();
  await done;
  return { rows: count, bytes };
}
