import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { ApiHandlers, CatalogueApiMethod } from '../../common/api';
import type { ProductFields } from '../../common/product';
import {
  CATALOGUE_PAGE_SIZE,
  CATALOGUE_UPLOAD_MAX_BYTES,
  checkProductInput,
  type CataloguePage,
  type CatalogueImportResult,
  type CatalogueUploadResult,
  type ProductInput,
  type ProductSaveResult,
} from '../../common/product-form';
import { dayIn } from '../../common/gateway-time';
import type { DownloadTicket } from '../../common/reports';
import type { TaxCategory } from '../../common/tax';
import { staffActor, type AuditLog } from '../audit/audit-log';
import type { Clock } from '../ports';
import type { AccessControl } from '../staff/access';
import { writeCatalogueCsv, writeCatalogueXlsx } from './catalogue-export';
import { importCatalogue } from './catalogue-import';
import { MAX_SEARCH_LIMIT, type ProductStore } from './product-store';

/** An import file waits this long between its first chunk and its import (the dry run, then Import). */
export const UPLOAD_TTL_MS = 10 * 60_000;

export interface CatalogueServiceDeps {
  products: ProductStore;
  access: AccessControl;
  audit: AuditLog;
  clock: Clock;
  /** The store's default tax category (tax settings): an import row's empty `tax`, a new product's. */
  defaultTaxCategory: () => TaxCategory;
  /** The store's time zone: the export's file is named for the store's day. */
  timeZone: () => string;
  /** Hands a file to the downloads (host/downloads.ts): fetched once, within its ticket's time. */
  prepareFile: (file: {
    filename: string;
    contentType: string;
    write: (out: Writable) => Promise<void>;
  }) => DownloadTicket;
}

interface Upload {
  chunks: Buffer[];
  bytes: number;
  expires: number;
  /** Who sent it: another manager's session may not import it. */
  staffId: number;
}

/**
 * The manager's catalogue (docs/catalogue.md, "In the app"): the product list and its search, adding and changing a
 * product, an import file's dry run and import, and the export as a download. Every method takes the manager's
 * session first. Each product saved is an event of the catalogue (product_events, with the manager's name) and an
 * audit record, in one transaction; an import is all or nothing (ProductStore.importProducts) and audited as the
 * CLI's is.
 *
 * An import file crosses the API in base64 chunks (`catalogueUpload`, CATALOGUE_CHUNK_CHARS each: browser mode reads
 * at most 64 KiB a call), up to CATALOGUE_UPLOAD_MAX_BYTES, held in memory for UPLOAD_TTL_MS on the clock; then
 * `catalogueImport` reads it once for the dry run and again for the import, and forgets it once imported.
 */
export class CatalogueService implements Pick<ApiHandlers, CatalogueApiMethod> {
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly deps: CatalogueServiceDeps) {}

  catalogueList(token: string, query: { search?: string; offset?: number }): CataloguePage {
    this.deps.access.requireManager(token);
    const { products } = this.deps;
    const total = products.count({ includeInactive: true });
    const search = (query.search ?? '').trim();
    const defaultTaxCategory = this.deps.defaultTaxCategory();
    if (search !== '')
      return {
        products: products.search(search, MAX_SEARCH_LIMIT, { includeInactive: true }),
        total,
        offset: 0,
        search,
        defaultTaxCategory,
      };
    const offset = Math.min(query.offset ?? 0, Math.max(0, total - 1));
    return { products: products.page(offset, CATALOGUE_PAGE_SIZE), total, offset, search, defaultTaxCategory };
  }

  saveProduct(token: string, input: { id: string | null; product: ProductInput }): ProductSaveResult {
    const me = this.deps.access.requireManager(token);
    const checked = checkProductInput(input.product);
    if (!checked.ok) return checked;
    return this.store(me, input.id, checked.fields);
  }

  setProductActive(token: string, id: string, active: boolean): ProductSaveResult {
    const me = this.deps.access.requireManager(token);
    const product = this.deps.products.get(id);
    if (!product)
      return { ok: false, issues: [{ field: 'sku', rule: 'not_found', message: `product ${id}: no such product` }] };
    const { id: _id, ...fields } = product;
    return this.store(me, id, { ...fields, active });
  }

  catalogueUpload(token: string, chunk: { uploadId: string | null; data: string }): CatalogueUploadResult {
    const me = this.deps.access.requireManager(token);
    const now = this.now();
    for (const [id, u] of this.uploads) if (u.expires < now) this.uploads.delete(id);
    const bytes = Buffer.from(chunk.data, 'base64');
    let uploadId = chunk.uploadId;
    let upload: Upload | undefined;
    if (uploadId === null) {
      // One file a manager at a time: a new one drops the last one picked, so picking again and again holds no more.
      for (const [id, u] of this.uploads) if (u.staffId === me.id) this.uploads.delete(id);
      uploadId = randomBytes(18).toString('base64url');
      upload = { chunks: [], bytes: 0, expires: now + UPLOAD_TTL_MS, staffId: me.id };
      this.uploads.set(uploadId, upload);
    } else {
      upload = this.uploads.get(uploadId);
      if (!upload || upload.staffId !== me.id)
        return { ok: false, problem: 'gone', maxBytes: CATALOGUE_UPLOAD_MAX_BYTES };
    }
    if (upload.bytes + bytes.length > CATALOGUE_UPLOAD_MAX_BYTES) {
      this.uploads.delete(uploadId);
      return { ok: false, problem: 'too_large', maxBytes: CATALOGUE_UPLOAD_MAX_BYTES };
    }
    upload.chunks.push(bytes);
    upload.bytes += bytes.length;
    return { ok: true, uploadId, bytes: upload.bytes };
  }

  async catalogueImport(token: string, request: { uploadId: string; dryRun: boolean }): Promise<CatalogueImportResult> {
    const me = this.deps.access.requireManager(token);
    const upload = this.uploads.get(request.uploadId);
    if (!upload || upload.staffId !== me.id || upload.expires < this.now()) {
      this.uploads.delete(request.uploadId);
      return { ok: false, problem: 'gone' };
    }
    const parsed = await importCatalogue(Buffer.concat(upload.chunks), {
      defaultTaxCategory: this.deps.defaultTaxCategory(),
    });
    if (!parsed.ok)
      return {
        ok: false,
        format: parsed.format,
        issues: parsed.issues.map((i) => ({
          line: i.line,
          column: i.column,
          rule: i.rule,
          message: i.message,
          ...(i.params ? { params: i.params } : {}),
        })),
        moreIssues: parsed.moreIssues,
      };
    const format = parsed.format ?? 'csv';
    const outcome = this.deps.products.importProducts(parsed.products, {
      actor: me.name,
      ...(request.dryRun ? { dryRun: true } : {}),
    });
    if (!outcome.ok)
      return {
        ok: false,
        format,
        issues: outcome.issues.map((i) => ({ line: null, column: 'barcode', rule: i.rule, message: i.message })),
        moreIssues: 0,
      };
    const { created, updated, unchanged } = outcome;
    if (!request.dryRun) {
      this.uploads.delete(request.uploadId);
      this.deps.audit.record({
        actor: staffActor(me),
        action: 'catalogue.imported',
        detail: { format, rows: parsed.products.length, created, updated, unchanged },
      });
    }
    return { ok: true, dryRun: request.dryRun, format, rows: parsed.products.length, created, updated, unchanged };
  }

  prepareCatalogueExport(
    token: string,
    request: { format: 'csv' | 'xlsx'; delimiter?: ',' | ';'; bom?: boolean },
  ): DownloadTicket {
    const me = this.deps.access.requireManager(token);
    const { products } = this.deps;
    const day = dayIn(this.deps.clock.now(), this.deps.timeZone());
    this.deps.audit.record({
      actor: staffActor(me),
      action: 'catalogue.exported',
      detail: { format: request.format, products: products.count({ includeInactive: true }) },
    });
    return this.deps.prepareFile({
      filename: `loket-products-${day}.${request.format}`,
      contentType:
        request.format === 'csv'
          ? 'text/csv; charset=utf-8'
          : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      // Read when fetched, page by page (ProductStore.all): 100,000 products never sit in memory.
      write: async (out) =>
        void (request.format === 'xlsx'
          ? await writeCatalogueXlsx(products.all(), out)
          : await writeCatalogueCsv(
              products.all(),
              { delimiter: request.delimiter ?? ',', bom: request.bom ?? false },
              out,
            )),
    });
  }

  private store(me: { id: number; name: string }, id: string | null, fields: ProductFields): ProductSaveResult {
    const saved = this.deps.products.save(id, fields, {
      actor: me.name,
      also: (s) =>
        this.deps.audit.record({
          actor: staffActor(me),
          action: s.created ? 'product.added' : 'product.changed',
          field: s.product.sku.slice(0, 64),
          detail: s.created
            ? { name: s.product.name, price: s.product.price }
            : { name: s.product.name, changed: s.changed.join(', ') },
        }),
    });
    return saved.ok ? { ok: true, product: saved.saved.product, created: saved.saved.created } : saved;
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }
}
