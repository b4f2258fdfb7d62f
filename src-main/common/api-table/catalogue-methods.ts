import { z } from 'zod';
import {
  CATALOGUE_CHUNK_CHARS,
  type CatalogueImportResult,
  type CataloguePage,
  type CatalogueUploadResult,
  type ProductSaveResult,
} from '../product-form';
import type { DownloadTicket } from '../reports';
import { MANAGER, returns, type ApiRow } from './row';
import { session } from './shared-args';

/**
 * The manager's catalogue (docs/catalogue.md, "In the app"; core/products/catalogue-service.ts). The form's fields
 * are checked by the service (common/product-form.ts), which names each field and rule: here only their shapes.
 */
export const CATALOGUE_METHODS = {
  catalogueList: {
    access: MANAGER,
    args: z.tuple([
      session,
      z.object({ search: z.string().max(200).optional(), offset: z.number().int().min(0).optional() }).strict(),
    ]),
    result: returns<CataloguePage>(),
  },
  saveProduct: {
    access: MANAGER,
    args: z.tuple([
      session,
      z
        .object({
          id: z.string().min(1).max(20).nullable(),
          product: z
            .object({
              sku: z.string().max(400),
              name: z.string().max(800),
              barcodes: z.array(z.string().max(64)).max(100),
              category: z.string().max(400),
              price: z.number(),
              taxCategory: z.string().max(40),
              active: z.boolean(),
              itemId: z.string().max(400).optional(),
            })
            .strict(),
        })
        .strict(),
    ]),
    result: returns<ProductSaveResult>(),
  },
  setProductActive: {
    access: MANAGER,
    args: z.tuple([session, z.string().min(1).max(20), z.boolean()]),
    result: returns<ProductSaveResult>(),
  },
  catalogueUpload: {
    access: MANAGER,
    args: z.tuple([
      session,
      z
        .object({
          uploadId: z.string().min(16).max(64).nullable(),
          data: z.base64().max(CATALOGUE_CHUNK_CHARS),
        })
        .strict(),
    ]),
    result: returns<CatalogueUploadResult>(),
  },
  catalogueImport: {
    access: MANAGER,
    args: z.tuple([session, z.object({ uploadId: z.string().min(16).max(64), dryRun: z.boolean() }).strict()]),
    result: returns<CatalogueImportResult>(),
  },
  prepareCatalogueExport: {
    access: MANAGER,
    args: z.tuple([
      session,
      z
        .object({
          format: z.enum(['csv', 'xlsx']),
          delimiter: z.enum([',', ';']).optional(),
          bom: z.boolean().optional(),
        })
        .strict(),
    ]),
    result: returns<DownloadTicket>(),
  },
} as const satisfies Record<string, ApiRow>;
