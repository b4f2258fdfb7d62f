import type { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { ApiError } from '../common/api';
import type { PaymentMethod } from '../common/payment-methods';
import { reason } from '../common/reasons';
import type { DownloadTicket } from '../common/reports';
import type { LoketSettings } from '../common/settings';
import type { StaffSummary } from '../common/staff';
import type { StoreDayReport, StoreLinkView } from '../common/store-book';
import { staffActor, type AuditLog } from '../core/audit/audit-log';
import type { ExportRequest } from '../core/books-service';
import type { Clock } from '../core/ports';
import { AppSync, type AppSyncOptions } from './app-sync';
import { NotEnrolledError } from './credentials';
import { closeQuietly, describePgError, type PgClient } from './pg-connect';
import { StoreUrlError } from './pg-url';
import { exportStore } from './store-export';
import { storeDayReport } from './store-report';

/**
 * The store book over the API (docs/store-book.md, "What the manager sees"): the link for the cashier's header, and
 * the manager's whole-store day report and export, read from any enrolled terminal with this terminal's own role
 * (its SELECT on the store's views), on a connection made for the call and ended after it. The till's own books
 * stay where they are (core/books-service.ts); these are the "Whole store" side of the manager's day and export.
 */

export interface StoreViewHost {
  requireManager(token: string): StaffSummary;
  audit: AuditLog;
  settings(): LoketSettings;
  methods(): readonly PaymentMethod[];
  clock: Clock;
  log?: (line: string) => void;
}

/** A whole-store export waiting to be fetched, as the host's downloads are (app-host.ts, Download). */
export interface StoreDownload {
  filename: string;
  contentType: string;
  write(out: Writable): Promise<void>;
}

/** A prepared export must be fetched within this long (as the till's own). */
const DOWNLOAD_TTL_MS = 10 * 60_000;

interface Prepared {
  filename: string;
  expires: number;
  request: ExportRequest;
  timeZone: string;
  lang: LoketSettings['lang'];
  methods: readonly PaymentMethod[];
}

export class StoreBookService {
  private readonly downloads = new Map<string, Prepared>();

  constructor(
    private readonly sync: AppSync,
    private readonly host: StoreViewHost,
  ) {}

  /** The cashier's header: anyone at the till may see it (no session). */
  storeLink(): StoreLinkView {
    return this.sync.link();
  }

  async storeDayReport(token: string, day: string): Promise<StoreDayReport> {
    this.host.requireManager(token);
    const s = this.host.settings();
    return this.withStoreBook((client) => storeDayReport(client, day, { methods: this.host.methods(), lang: s.lang }));
  }

  /**
   * The whole store's export of the days, fetched once as the till's own (GET /api/download/{id}); the store book
   * is read when it is fetched. Its days are the store book's zone (its report's).
   */
  async prepareStoreExport(token: string, request: ExportRequest): Promise<DownloadTicket> {
    const me = this.host.requireManager(token);
    const timeZone = await this.withStoreBook(async (client) => {
      const zone = (
        await client.query<{ time_zone: string }>('SELECT time_zone FROM loket.stores WHERE code = loket.store_code()')
      ).rows[0]?.time_zone;
      if (!zone)
        throw new ApiError('unavailable', 'the store book names no store of its own', reason('store.unreachable'));
      return zone;
    });
    const now = this.host.clock.now().getTime();
    for (const [id, d] of this.downloads) if (d.expires < now) this.downloads.delete(id);
    const downloadId = randomBytes(18).toString('base64url');
    const span = request.from === request.to ? request.from : `${request.from}_${request.to}`;
    const filename = `loket-store-orders-${span}.${request.format}`;
    const s = this.host.settings();
    this.downloads.set(downloadId, {
      filename,
      expires: now + DOWNLOAD_TTL_MS,
      request,
      timeZone,
      lang: s.lang,
      methods: this.host.methods(),
    });
    this.host.audit.record({
      actor: staffActor(me),
      action: 'orders.exported',
      detail: { from: request.from, to: request.to, format: request.format, file: filename, store: true },
    });
    return { downloadId, filename };
  }

  /** An export prepared by prepareStoreExport, taken once; undefined when it is not one of these. */
  takeDownload(id: string): StoreDownload | undefined {
    const entry = this.downloads.get(id);
    this.downloads.delete(id);
    if (!entry || entry.expires < this.host.clock.now().getTime()) return undefined;
    const { request } = entry;
    return {
      filename: entry.filename,
      contentType:
        request.format === 'csv'
          ? 'text/csv; charset=utf-8'
          : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      write: async (out) =>
        void (await this.withStoreBook(async (client) => {
          const summary =
            request.format === 'xlsx'
              ? (
                  await storeDayReport(client, request.from, {
                    methods: entry.methods,
                    lang: entry.lang,
                    to: request.to,
                  })
                ).figures
              : undefined;
          return exportStore(
            client,
            {
              from: request.from,
              to: request.to,
              timeZone: entry.timeZone,
              format: request.format,
              ...(request.delimiter ? { delimiter: request.delimiter } : {}),
              bom: request.bom ?? false,
              methods: entry.methods,
              lang: entry.lang,
              ...(summary ? { summary } : {}),
            },
            out,
          );
        })),
    };
  }

  downloadName(id: string): string | undefined {
    const entry = this.downloads.get(id);
    return entry && entry.expires >= this.host.clock.now().getTime() ? entry.filename : undefined;
  }

  /** `fn` on a connection of this terminal's role; a store book not set up or not reachable is a clear refusal. */
  private async withStoreBook<T>(fn: (client: PgClient) => Promise<T>): Promise<T> {
    let client: PgClient | undefined;
    try {
      try {
        client = await this.sync.connect();
      } catch (err) {
        if (err instanceof NotEnrolledError || err instanceof StoreUrlError || !this.sync.enrolled)
          throw new ApiError('unavailable', `store book: ${(err as Error).message}`, reason('store.not_enrolled'));
        this.host.log?.(`store book: ${describePgError(err)}`);
        throw new ApiError(
          'unavailable',
          `the store book cannot be reached: ${describePgError(err)}`,
          reason('store.unreachable'),
        );
      }
      return await fn(client);
    } finally {
      await closeQuietly(client);
    }
  }
}

/** What a host runs of the store book: the sync in the background, and its API methods. */
export interface AppStoreBook {
  readonly sync: AppSync;
  readonly service: StoreBookService;
  stop(): Promise<void>;
}

/** The store book in a host (app-host.ts): the sync, started when this data folder is enrolled, and its API. */
export function startAppStoreBook(options: AppSyncOptions & StoreViewHost): AppStoreBook {
  const sync = AppSync.start(options);
  const service = new StoreBookService(sync, options);
  return { sync, service, stop: () => sync.stop() };
}
