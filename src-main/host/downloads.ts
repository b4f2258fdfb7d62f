import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { DownloadTicket } from '../common/reports';
import type { ExportRequest } from '../core/books-service';
import { csvTable, exportBooks, type BooksExport } from '../core/export/export-file';
import type { Clock } from '../core/ports';

/** A prepared export must be fetched within this long. */
export const DOWNLOAD_TTL_MS = 10 * 60_000;

/** An export waiting to be fetched: written straight to the caller's stream, once. */
export interface Download {
  filename: string;
  contentType: string;
  write(out: Writable): Promise<void>;
}

/** What an export is prepared from: the order log in use now, and the store's settings and staff then. */
export interface DownloadSource {
  dbPath: string;
  training: boolean;
  export: Omit<BooksExport, keyof ExportRequest | 'training'>;
}

type Ticket =
  | { filename: string; expires: number; export: BooksExport; dbPath: string }
  /** Any other file (the catalogue's export): its type and how it is written, decided when it was prepared. */
  | { filename: string; expires: number; file: Omit<Download, 'filename'> };

/**
 * Exports prepared and not yet fetched: each fetched once, within DOWNLOAD_TTL_MS of being prepared (on the injected
 * clock). Each holds the books it was prepared from (the log, its kind and the store's settings then): a switch
 * between training and live in between must not put live orders into a file named for training, or the reverse.
 */
export class Downloads {
  private readonly tickets = new Map<string, Ticket>();

  constructor(private readonly clock: Clock) {}

  prepare(request: ExportRequest, source: DownloadSource): DownloadTicket {
    const now = this.now();
    for (const [id, t] of this.tickets) if (t.expires < now) this.tickets.delete(id);
    const downloadId = randomBytes(18).toString('base64url');
    const span = request.from === request.to ? request.from : `${request.from}_${request.to}`;
    // The file says what it holds: a workbook is the day's books; a CSV one table, the orders unless asked.
    const { table, ...range } = request;
    const csv = request.format === 'csv' ? (table ?? 'orders') : undefined;
    const what = csv === undefined ? 'books' : csv === 'lines' ? 'sale-lines' : csv;
    const filename = `loket-${what}-${span}${source.training ? '-training' : ''}.${request.format}`;
    this.tickets.set(downloadId, {
      filename,
      expires: now + DOWNLOAD_TTL_MS,
      dbPath: source.dbPath,
      export: { ...range, ...(csv ? csvTable(csv) : {}), ...source.export, training: source.training },
    });
    return { downloadId, filename };
  }

  /** A file of another kind than the books' export (the catalogue's), fetched the same way: once, in time. */
  prepareFile(file: Download): DownloadTicket {
    const now = this.now();
    for (const [id, t] of this.tickets) if (t.expires < now) this.tickets.delete(id);
    const downloadId = randomBytes(18).toString('base64url');
    this.tickets.set(downloadId, {
      filename: file.filename,
      expires: now + DOWNLOAD_TTL_MS,
      file: { contentType: file.contentType, write: file.write },
    });
    return { downloadId, filename: file.filename };
  }

  /** The export, taken once: a second take, or one after its time, finds nothing. */
  take(id: string): Download | undefined {
    const entry = this.tickets.get(id);
    this.tickets.delete(id);
    if (!entry || entry.expires < this.now()) return undefined;
    if ('file' in entry) return { filename: entry.filename, ...entry.file };
    return {
      filename: entry.filename,
      contentType:
        entry.export.format === 'csv'
          ? 'text/csv; charset=utf-8'
          : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      // A connection of its own, read-only: the export reads one snapshot while the till goes on selling.
      write: async (out) => void (await exportBooks(entry.dbPath, entry.export, out)),
    };
  }

  /** The file name of an export prepared and not yet taken nor expired (the desktop app's save dialog starts with it). */
  name(id: string): string | undefined {
    const entry = this.tickets.get(id);
    return entry && entry.expires >= this.now() ? entry.filename : undefined;
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}
