// The manager's catalogue screen's state (state/catalogue-editor.svelte.ts) against a fake API: the list's pages and
// its search (an answer overtaken by a later one dropped), the form checked before sending (price, check digit) and
// the server's issues kept by field, deactivation, the import's chunks, dry run and import, and the export.
import { describe, expect, test } from 'vitest';
import { withCheckDigit } from '../../../src-main/common/barcode';
import type { Product } from '../../../src-main/common/product';
import {
  CATALOGUE_CHUNK_CHARS,
  type CatalogueImportResult,
  type CataloguePage,
} from '../../../src-main/common/product-form';
import type { DownloadTicket } from '../../../src-main/common/reports';
import type { ExportDelivery } from '../../../src-renderer/src/api/client';
import { barcodesOf, base64Chunks } from '../../../src-renderer/src/state/catalogue-editor.svelte';
import { ManagerSession } from '../../../src-renderer/src/state/manager-session.svelte';
import { fakeClient, MANAGER, managerSession, managerView, tillStatus } from './fake-client';

const TOKEN = managerSession().token;
const NOW = Date.parse('2026-03-10T03:00:00.000Z');
const TEH = withCheckDigit('899276110001');

const product = (n: number, over: Partial<Product> = {}): Product => ({
  id: String(n),
  sku: `P${String(n).padStart(3, '0')}`,
  name: `Produk ${n}`,
  barcodes: [],
  category: '',
  price: 1000 + n,
  taxCategory: 'ppn',
  active: true,
  ...over,
});

function page(offset: number, total: number, search = ''): CataloguePage {
  const count = search ? Math.min(total, 3) : Math.max(0, Math.min(50, total - offset));
  return {
    products: Array.from({ length: count }, (_, i) => product(offset + i)),
    total,
    offset,
    search,
    defaultTaxCategory: 'exempt',
  };
}

async function open(deliver?: (ticket: DownloadTicket) => Promise<ExportDelivery>) {
  const client = fakeClient();
  const fake = client.fake;
  fake.on('unlockManager', () => ({ ok: true, session: managerSession() })).on('managerView', () => managerView());
  fake.on('catalogueList', (_token, query) => page(query.offset ?? 0, 120, query.search ?? ''));
  const manager = new ManagerSession({
    api: fake.api,
    till: () => tillStatus(),
    now: () => NOW,
    deliverExport: deliver ?? ((ticket) => client.deliverExport(ticket)),
  });
  manager.pick(MANAGER.id);
  manager.pin.setText('97531864');
  expect(await manager.unlock()).toBe(true);
  const catalogue = manager.editors!.catalogue;
  manager.selectSection('catalogue');
  await Promise.resolve();
  return { client, fake, catalogue, manager };
}

describe('the list', () => {
  test('opens on the first page of 50; next and previous step by 50; no previous on the first', async () => {
    const { fake, catalogue } = await open();
    await catalogue.load(0);
    expect(catalogue.page?.products).toHaveLength(50);
    expect(catalogue.hasPrevious).toBe(false);
    expect(catalogue.hasNext).toBe(true);
    await catalogue.nextPage();
    await catalogue.nextPage();
    expect(catalogue.page?.offset).toBe(100);
    expect(catalogue.page?.products).toHaveLength(20);
    expect(catalogue.hasNext).toBe(false);
    await catalogue.previousPage();
    expect(catalogue.page?.offset).toBe(50);
    expect(fake.callsOf('catalogueList').slice(-3)).toEqual([
      [TOKEN, { offset: 50 }],
      [TOKEN, { offset: 100 }],
      [TOKEN, { offset: 50 }],
    ]);
  });

  test('a search asks once the typing pauses; an answer overtaken by a later one is dropped', async () => {
    const { fake, catalogue } = await open();
    await catalogue.load(0);
    const first = fake.hold('catalogueList');
    const firstLoad = catalogue.load(0);
    await first.called;
    const second = catalogue.load(50);
    await second;
    first.resolve(page(0, 999));
    await firstLoad;
    expect(catalogue.page?.total).toBe(120);
    expect(catalogue.page?.offset).toBe(50);

    catalogue.setSearch('kop');
    catalogue.setSearch('kopi');
    expect(catalogue.search).toBe('kopi');
    await new Promise((r) => setTimeout(r, 200));
    expect(fake.callsOf('catalogueList').at(-1)).toEqual([TOKEN, { search: 'kopi' }]);
    expect(fake.callsOf('catalogueList').filter((c) => c[1].search === 'kop')).toEqual([]);
    expect(catalogue.hasNext).toBe(false);
  });
});

describe('the form', () => {
  test("a new product starts with the store's default tax; a bad price and check digit are named before sending", async () => {
    const { fake, catalogue } = await open();
    await catalogue.load(0);
    catalogue.startNew();
    expect(catalogue.draft.taxCategory).toBe('exempt');
    catalogue.set('sku', 'TEH');
    catalogue.set('name', 'Teh');
    catalogue.set('price', '18,5');
    const wrong = TEH.slice(0, -1) + String((Number(TEH.at(-1)) + 1) % 10);
    catalogue.set('barcodes', `${wrong}\n${TEH}`);
    expect(await catalogue.save()).toBe(false);
    expect(fake.callsOf('saveProduct')).toEqual([]);
    expect(catalogue.priceProblem).toBe(true);
    expect(catalogue.issuesOf('barcodes')).toMatchObject([
      { rule: 'barcode_check_digit', params: { code: wrong, expected: Number(TEH.at(-1)) } },
    ]);
    expect(catalogue.firstProblem).toBe('barcodes');
    // Typing in a field clears its issue only.
    catalogue.set('barcodes', TEH);
    expect(catalogue.issuesOf('barcodes')).toEqual([]);
    expect(catalogue.priceProblem).toBe(true);
  });

  test('sends the typed product (price as people write it, barcodes one a line); the server’s issues stay by field', async () => {
    const { fake, catalogue } = await open();
    await catalogue.load(0);
    fake.on('saveProduct', () => ({
      ok: false,
      issues: [
        {
          field: 'sku',
          rule: 'sku_duplicate',
          message: 'sku: taken',
          params: { otherSku: 'KOPI', otherName: 'Kopi' },
        },
      ],
    }));
    catalogue.startNew();
    catalogue.set('sku', ' kopi ');
    catalogue.set('name', 'Kopi tubruk');
    catalogue.set('price', 'Rp 18.000');
    catalogue.set('barcodes', `${TEH}, 036000291452`);
    catalogue.set('taxCategory', 'ppn');
    expect(await catalogue.save()).toBe(false);
    expect(fake.callsOf('saveProduct')).toEqual([
      [
        TOKEN,
        {
          id: null,
          product: {
            sku: 'kopi',
            name: 'Kopi tubruk',
            barcodes: [TEH, '036000291452'],
            category: '',
            price: 18_000,
            taxCategory: 'ppn',
            active: true,
          },
        },
      ],
    ]);
    expect(catalogue.issuesOf('sku')).toMatchObject([{ rule: 'sku_duplicate', params: { otherName: 'Kopi' } }]);
    expect(catalogue.editing).not.toBeNull();

    const saved = product(7, { sku: 'KOPI-T', name: 'Kopi tubruk', price: 18_000 });
    fake.on('saveProduct', () => ({ ok: true, product: saved, created: true }));
    catalogue.set('sku', 'KOPI-T');
    expect(await catalogue.save()).toBe(true);
    expect(catalogue.editing).toBeNull();
    expect(catalogue.notice).toEqual({ kind: 'added', name: 'Kopi tubruk' });
    // The list shows it: searched by its SKU.
    expect(catalogue.search).toBe('KOPI-T');
    expect(fake.callsOf('catalogueList').at(-1)).toEqual([TOKEN, { search: 'KOPI-T' }]);
  });

  test('an edit keeps the product’s id and its gateway item id; deactivation changes its row in place', async () => {
    const { fake, catalogue } = await open();
    await catalogue.load(0);
    const pulsa = product(3, { sku: 'PULSA-50', name: 'Pulsa 50.000', price: 51_500, itemId: 'PULSA-50' });
    fake.on('saveProduct', (_t, input) => ({
      ok: true,
      product: { ...pulsa, price: input.product.price },
      created: false,
    }));
    catalogue.startEdit(pulsa);
    expect(catalogue.draft.price).toBe('51500');
    catalogue.set('price', '52.000');
    expect(await catalogue.save()).toBe(true);
    expect(fake.callsOf('saveProduct')[0]![1]).toMatchObject({
      id: '3',
      product: { price: 52_000, itemId: 'PULSA-50' },
    });
    expect(catalogue.notice).toEqual({ kind: 'saved', name: 'Pulsa 50.000' });

    await catalogue.load(0);
    const row = catalogue.page!.products[1]!;
    fake.on('setProductActive', (_t, id, active) => ({ ok: true, product: { ...row, active }, created: false }));
    expect(await catalogue.setActive(row, false)).toBe(true);
    expect(fake.callsOf('setProductActive')).toEqual([[TOKEN, row.id, false]]);
    expect(catalogue.page!.products[1]!.active).toBe(false);
    expect(catalogue.notice).toEqual({ kind: 'deactivated', name: row.name });
  });
});

describe('the import', () => {
  test('the file goes in base64 chunks under the call limit, then the dry run; Import after a clean one', async () => {
    const { fake, catalogue } = await open();
    await catalogue.load(0);
    const bytes = new Uint8Array(100_000).map((_, i) => i % 251);
    let n = 0;
    const received: number[] = [];
    fake.on('catalogueUpload', (_t, chunk) => {
      received.push(...Buffer.from(chunk.data, 'base64'));
      n++;
      return { ok: true, uploadId: 'U'.repeat(24), bytes: received.length };
    });
    const dry: CatalogueImportResult = {
      ok: true,
      dryRun: true,
      format: 'csv',
      rows: 3,
      created: 1,
      updated: 1,
      unchanged: 1,
    };
    fake.on('catalogueImport', (_t, req) => (req.dryRun ? dry : { ...dry, dryRun: false }));
    await catalogue.pickFile('produk.csv', bytes);
    expect(n).toBe(3);
    expect(received).toEqual([...bytes]);
    for (const [, chunk] of fake.callsOf('catalogueUpload'))
      expect(chunk.data.length).toBeLessThanOrEqual(CATALOGUE_CHUNK_CHARS);
    expect(fake.callsOf('catalogueUpload').map(([, c]) => c.uploadId)).toEqual([null, 'U'.repeat(24), 'U'.repeat(24)]);
    expect(catalogue.importStage).toEqual({ kind: 'checked', name: 'produk.csv', result: dry });

    expect(await catalogue.importNow()).toBe(true);
    expect(fake.callsOf('catalogueImport')).toEqual([
      [TOKEN, { uploadId: 'U'.repeat(24), dryRun: true }],
      [TOKEN, { uploadId: 'U'.repeat(24), dryRun: false }],
    ]);
    expect(catalogue.importStage).toMatchObject({ kind: 'imported', result: { dryRun: false, created: 1 } });
  });

  test('a dry run with issues offers no Import; an empty or too large file is refused without a call', async () => {
    const { fake, catalogue } = await open();
    fake.on('catalogueUpload', () => ({ ok: true, uploadId: 'U'.repeat(24), bytes: 10 }));
    const issues: CatalogueImportResult = {
      ok: false,
      format: 'csv',
      issues: [{ line: 3, column: 'barcode', rule: 'barcode_check_digit', message: 'x' }],
      moreIssues: 0,
    };
    fake.on('catalogueImport', () => issues);
    await catalogue.pickFile('salah.csv', new TextEncoder().encode('sku,name,price\n'));
    expect(catalogue.importStage).toEqual({ kind: 'checked', name: 'salah.csv', result: issues });
    expect(await catalogue.importNow()).toBe(false);
    expect(fake.callsOf('catalogueImport')).toHaveLength(1);

    const before = fake.callsOf('catalogueUpload').length;
    await catalogue.pickFile('kosong.csv', new Uint8Array(0));
    expect(catalogue.importStage).toMatchObject({ kind: 'refused', problem: 'empty' });
    await catalogue.pickFile('besar.csv', new Uint8Array(33 * 1024 * 1024));
    expect(catalogue.importStage).toMatchObject({ kind: 'refused', problem: 'too_large' });
    expect(fake.callsOf('catalogueUpload')).toHaveLength(before);
  });
});

describe('the export', () => {
  test("CSV with ';' and a BOM by default, XLSX without; the ticket handed over to be saved", async () => {
    const delivered: DownloadTicket[] = [];
    const { fake, catalogue } = await open(async (ticket) => {
      delivered.push(ticket);
      return { kind: 'downloaded', filename: ticket.filename };
    });
    const ticket = { downloadId: 'AbCdEfGhIjKlMnOpQrStUvWx', filename: 'loket-products-2026-03-10.csv' };
    fake.on('prepareCatalogueExport', () => ticket);
    expect(await catalogue.exportFile()).toBe(true);
    catalogue.setExportFormat('xlsx');
    expect(await catalogue.exportFile()).toBe(true);
    expect(fake.callsOf('prepareCatalogueExport')).toEqual([
      [TOKEN, { format: 'csv', delimiter: ';', bom: true }],
      [TOKEN, { format: 'xlsx' }],
    ]);
    expect(delivered).toEqual([ticket, ticket]);
    expect(catalogue.exported).toEqual({ kind: 'downloaded', filename: ticket.filename });
  });
});

describe('helpers', () => {
  test('barcodes split on lines, spaces, commas, semicolons and |; chunks are whole base64 quanta', () => {
    expect(barcodesOf(' 1\n2, 3;4|5  ')).toEqual(['1', '2', '3', '4', '5']);
    const bytes = new Uint8Array(36_001).fill(65);
    const chunks = base64Chunks(bytes);
    expect(chunks.map((c) => c.length)).toEqual([48_000, 4]);
    expect(Buffer.from(chunks.join(''), 'base64')).toEqual(Buffer.from(bytes));
  });
});
