// The manager's catalogue over the API, against a real host on a real SQLite data folder (docs/catalogue.md, "In the
// app"): the list and its search, a product added and changed (each an event and an audit record with the manager's
// name), the import's chunks, dry run and all-or-nothing import, and the export fetched once as a download.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import type { ApiEnvelope } from '../../src-main/common/api';
import { withCheckDigit } from '../../src-main/common/barcode';
import {
  CATALOGUE_CHUNK_CHARS,
  CATALOGUE_PAGE_SIZE,
  type CatalogueImportResult,
  type ProductInput,
} from '../../src-main/common/product-form';
import { importCatalogue } from '../../src-main/core/products/catalogue-import';
import { startWebHost } from '../../src-main/web/web-host';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';

const PIN = '97531864';
let dir: { path: string; remove(): void };
let host: AppHost;
let clock: FakeClock;
let session = '';

beforeEach(async () => {
  dir = tempDir('loket-catalogue-');
  clock = new FakeClock();
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, clock });
  session = (await host.app.setupManager({ name: 'Bu Sri', pin: PIN })).token;
});
afterEach(async () => {
  await host.close();
  dir.remove();
});

const KOPI = withCheckDigit('899276111111');
const product = (over: Partial<ProductInput> = {}): ProductInput => ({
  sku: 'TEH-BOTOL',
  name: 'Teh botol 350 ml',
  barcodes: [KOPI],
  category: 'Minuman',
  price: 6000,
  taxCategory: 'ppn',
  active: true,
  ...over,
});

/** The file as the screen sends it: base64 chunks, then the import. */
async function upload(bytes: Buffer): Promise<string> {
  let uploadId: string | null = null;
  const text = bytes.toString('base64');
  // Whole base64 quanta per chunk: 4 characters are 3 bytes.
  for (let at = 0; at < text.length; at += CATALOGUE_CHUNK_CHARS) {
    const r = await host.app.catalogueUpload(session, { uploadId, data: text.slice(at, at + CATALOGUE_CHUNK_CHARS) });
    if (!r.ok) throw new Error(`upload refused: ${r.problem}`);
    uploadId = r.uploadId;
  }
  return uploadId!;
}

async function read(downloadId: string): Promise<Buffer> {
  const download = host.app.takeDownload(downloadId)!;
  const chunks: Buffer[] = [];
  await download.write(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(chunks);
}

describe('the product list', () => {
  it("pages every product (active or not) by SKU, and a search finds inactive ones too (the cashier's does not)", async () => {
    const rows = ['sku,name,price,active'];
    for (let i = 0; i < 120; i++)
      rows.push(`P${String(i).padStart(3, '0')},Produk ${i},${1000 + i},${i === 7 ? 0 : 1}`);
    const id = await upload(Buffer.from(rows.join('\n')));
    expect(await host.app.catalogueImport(session, { uploadId: id, dryRun: false })).toMatchObject({
      ok: true,
      created: 120,
    });
    const first = await host.app.catalogueList(session, {});
    // The 8 quick items of resources/items.json became products too.
    expect(first.total).toBe(128);
    expect(first.products).toHaveLength(CATALOGUE_PAGE_SIZE);
    const page3 = await host.app.catalogueList(session, { offset: 100 });
    expect(page3.offset).toBe(100);
    expect(page3.products).toHaveLength(28);
    const skus = [...first.products, ...(await host.app.catalogueList(session, { offset: 50 })).products].map(
      (p) => p.sku,
    );
    expect(skus).toEqual([...skus].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const found = await host.app.catalogueList(session, { search: 'P007' });
    expect(found.products[0]).toMatchObject({ sku: 'P007', active: false });
    expect(await host.app.searchProducts({ text: 'P007' })).toEqual([]);
  });

  it('refuses a session that is not a manager’s', async () => {
    await expect((async () => host.app.catalogueList('x'.repeat(32), {}))()).rejects.toMatchObject({ code: 'locked' });
  });
});

describe('a product from the form', () => {
  it('is added, found at the cashier, changed and deactivated: each an event and an audit record by the manager', async () => {
    const added = await host.app.saveProduct(session, { id: null, product: product() });
    expect(added).toMatchObject({ ok: true, created: true, product: { sku: 'TEH-BOTOL', barcodes: [KOPI] } });
    const id = (added as { product: { id: string } }).product.id;
    expect(await host.app.productByCode({ code: KOPI })).toMatchObject({ id, price: 6000 });

    expect(await host.app.saveProduct(session, { id, product: product({ price: 6500 }) })).toMatchObject({
      ok: true,
      created: false,
      product: { price: 6500 },
    });
    expect((await host.app.searchProducts({ text: 'teh bot' }))[0]).toMatchObject({ id, price: 6500 });
    expect(await host.app.setProductActive(session, id, false)).toMatchObject({ ok: true, product: { active: false } });
    expect(await host.app.productByCode({ code: KOPI })).toBeNull();

    const db = new Database(join(dir.path, 'data', 'loket.db'), { readonly: true });
    try {
      const events = db
        .prepare('SELECT type, actor, payload FROM product_events WHERE product_id = ? ORDER BY seq')
        .all(Number(id)) as { type: string; actor: string; payload: string }[];
      expect(events.map((e) => [e.type, e.actor])).toEqual([
        ['created', 'Bu Sri'],
        ['updated', 'Bu Sri'],
        ['updated', 'Bu Sri'],
      ]);
      expect(JSON.parse(events[2]!.payload)).toMatchObject({ price: 6500, active: false });
    } finally {
      db.close();
    }
    const audit = (await host.app.auditLog(session, { limit: 10 })).filter((e) => e.action.startsWith('product.'));
    expect(audit.map((e) => [e.action, e.actor.name, e.field, e.detail])).toEqual([
      ['product.changed', 'Bu Sri', 'TEH-BOTOL', { name: 'Teh botol 350 ml', changed: 'active' }],
      ['product.changed', 'Bu Sri', 'TEH-BOTOL', { name: 'Teh botol 350 ml', changed: 'price' }],
      ['product.added', 'Bu Sri', 'TEH-BOTOL', { name: 'Teh botol 350 ml', price: 6000 }],
    ]);
  });

  it('names each field and rule: a bad check digit (with the digit it should be), a duplicate SKU or barcode', async () => {
    const bad = KOPI.slice(0, -1) + String((Number(KOPI.at(-1)) + 1) % 10);
    const refused = await host.app.saveProduct(session, {
      id: null,
      product: product({ sku: '', name: ' ', barcodes: [bad, '12345'], price: 18.5, taxCategory: 'vat' }),
    });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.issues.map((i) => [i.field, i.rule, i.params])).toEqual([
      ['sku', 'required', undefined],
      ['name', 'required', undefined],
      ['barcodes', 'barcode_check_digit', { code: bad, expected: Number(KOPI.at(-1)) }],
      ['barcodes', 'barcode_length', { code: '12345', length: 5 }],
      ['price', 'price', { max: 10_000_000_000 }],
      ['taxCategory', 'tax', undefined],
    ]);

    await host.app.saveProduct(session, { id: null, product: product() });
    const twice = await host.app.saveProduct(session, {
      id: null,
      product: product({ sku: 'teh-botol', name: 'Lain', barcodes: [KOPI] }),
    });
    expect(!twice.ok && twice.issues.map((i) => [i.field, i.rule, i.params])).toEqual([
      ['sku', 'sku_duplicate', { otherSku: 'TEH-BOTOL', otherName: 'Teh botol 350 ml' }],
      ['barcodes', 'barcode_duplicate', { code: KOPI, otherSku: 'TEH-BOTOL', otherName: 'Teh botol 350 ml' }],
    ]);
    expect((await host.app.catalogueList(session, { search: 'Lain' })).products).toEqual([]);
  });

  it('keeps a UPC-A as its EAN-13, and a change that changes nothing writes nothing', async () => {
    const upc = '036000291452';
    const saved = await host.app.saveProduct(session, { id: null, product: product({ barcodes: [upc] }) });
    expect(saved).toMatchObject({ ok: true, product: { barcodes: ['0036000291452'] } });
    const id = (saved as { product: { id: string } }).product.id;
    await host.app.saveProduct(session, { id, product: product({ barcodes: ['0036000291452'] }) });
    const audit = (await host.app.auditLog(session, { limit: 10 })).filter((e) => e.action.startsWith('product.'));
    expect(audit.map((e) => e.action)).toEqual(['product.added']);
  });
});

describe('the import', () => {
  it('a bad check digit: the dry run names its line, column and rule, and the import imports nothing', async () => {
    const bad = KOPI.slice(0, -1) + String((Number(KOPI.at(-1)) + 3) % 10);
    const id = await upload(Buffer.from(`sku;name;barcode;price\nA1;Kopi;${KOPI};18000\nA2;Teh;${bad};8000\n`));
    const dry = await host.app.catalogueImport(session, { uploadId: id, dryRun: true });
    expect(dry).toMatchObject({
      ok: false,
      format: 'csv',
      issues: [
        {
          line: 3,
          column: 'barcode',
          rule: 'barcode_check_digit',
          params: { code: bad, expected: Number(KOPI.at(-1)) },
        },
      ],
    });
    expect(await host.app.catalogueImport(session, { uploadId: id, dryRun: false })).toMatchObject({ ok: false });
    expect((await host.app.catalogueList(session, {})).total).toBe(8);
  });

  it('a good file: the dry run counts and changes nothing; the import adds and changes, audited, then the upload is gone', async () => {
    const id = await upload(
      Buffer.from(
        [
          'sku,name,price,item_id',
          'KOPI-SUSU,Kopi susu,19000,KOPI-SUSU',
          'NEW-1,Baru,5000,',
          'ES-TEH,Es teh manis,8000,ES-TEH',
        ].join('\n'),
      ),
    );
    const dry = await host.app.catalogueImport(session, { uploadId: id, dryRun: true });
    expect(dry).toEqual({ ok: true, dryRun: true, format: 'csv', rows: 3, created: 1, updated: 1, unchanged: 1 });
    expect((await host.app.catalogueList(session, {})).total).toBe(8);
    const done = await host.app.catalogueImport(session, { uploadId: id, dryRun: false });
    expect(done).toMatchObject({ ok: true, dryRun: false, created: 1, updated: 1 });
    expect((await host.app.catalogueList(session, {})).total).toBe(9);
    expect(await host.app.productByCode({ code: 'kopi-susu' })).toMatchObject({ price: 19000 });
    expect(await host.app.catalogueImport(session, { uploadId: id, dryRun: false })).toEqual({
      ok: false,
      problem: 'gone',
    });
    const audit = await host.app.auditLog(session, { limit: 5 });
    expect(audit[0]).toMatchObject({
      action: 'catalogue.imported',
      actor: { name: 'Bu Sri' },
      detail: { rows: 3, created: 1, updated: 1 },
    });
  });

  it("a manager's next file replaces their last one", async () => {
    const first = await upload(Buffer.from('sku,name,price\nX,Y,1\n'));
    const second = await upload(Buffer.from('sku,name,price\nX,Y,2\n'));
    expect(await host.app.catalogueImport(session, { uploadId: first, dryRun: true })).toEqual({
      ok: false,
      problem: 'gone',
    });
    expect(await host.app.catalogueImport(session, { uploadId: second, dryRun: true })).toMatchObject({ ok: true });
  });

  it('an upload is gone after 10 minutes on the clock', async () => {
    const id = await upload(Buffer.from('sku,name,price\nX,Y,1\n'));
    clock.advance(11 * 60_000);
    const staffId = (await host.app.tillStatus()).staffList[0]!.id;
    const unlocked = await host.app.unlockManager(staffId, PIN);
    session = (unlocked as { session: { token: string } }).session.token;
    const result: CatalogueImportResult = await host.app.catalogueImport(session, { uploadId: id, dryRun: true });
    expect(result).toEqual({ ok: false, problem: 'gone' });
  });

  it("one chunk fits browser mode's 64 KiB a call; a chunk that is not base64 is refused", async () => {
    const staticDir = join(dir.path, 'renderer');
    mkdirSync(staticDir);
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html>');
    const web = await startWebHost({ app: host.app, staticDir, port: 0 });
    try {
      const token = new URLSearchParams(web.cashierUrl.split('?')[1]).get('token')!;
      const post = async (data: string) => {
        const res = await fetch(`${web.url}/api/call/catalogueUpload`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ args: [session, { uploadId: null, data }] }),
        });
        return (await res.json()) as ApiEnvelope<{ ok: boolean; bytes: number }>;
      };
      const full = Buffer.alloc((CATALOGUE_CHUNK_CHARS / 4) * 3, 0x41).toString('base64');
      expect(full).toHaveLength(CATALOGUE_CHUNK_CHARS);
      expect(await post(full)).toMatchObject({
        ok: true,
        result: { ok: true, bytes: (CATALOGUE_CHUNK_CHARS / 4) * 3 },
      });
      expect(await post('not base64!')).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    } finally {
      await web.close();
    }
  });
});

describe('the export', () => {
  it('CSV and XLSX, fetched once, import back to the same products; audited', async () => {
    await host.app.saveProduct(session, { id: null, product: product() });
    const csv = await host.app.prepareCatalogueExport(session, { format: 'csv', delimiter: ';', bom: true });
    expect(csv.filename).toBe('loket-products-2025-03-14.csv');
    const bytes = await read(csv.downloadId);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(host.app.takeDownload(csv.downloadId)).toBeUndefined();
    const back = await importCatalogue(bytes);
    expect(back.ok && back.products.find((p) => p.sku === 'TEH-BOTOL')).toMatchObject({
      barcodes: [KOPI],
      price: 6000,
    });
    expect(back.ok && back.products).toHaveLength(9);

    const xlsx = await host.app.prepareCatalogueExport(session, { format: 'xlsx' });
    expect(xlsx.filename).toMatch(/\.xlsx$/);
    const book = await importCatalogue(await read(xlsx.downloadId));
    expect(book).toMatchObject({ ok: true, format: 'xlsx' });
    expect((await host.app.auditLog(session, { limit: 2 })).map((e) => e.action)).toEqual([
      'catalogue.exported',
      'catalogue.exported',
    ]);
  });
});
