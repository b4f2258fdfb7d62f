import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatRupiah } from '../common/money';
import { CATALOGUE_UPLOAD_MAX_BYTES } from '../common/product-form';
import { loadItemCatalogue } from '../core/catalogue';
import { ExportFileExistsError, writeFileAtomically } from '../core/export/export-file';
import { writeCatalogueCsv, writeCatalogueXlsx } from '../core/products/catalogue-export';
import { importCatalogue } from '../core/products/catalogue-import';
import { MAX_SEARCH_LIMIT, ProductStore } from '../core/products/product-store';
import { systemClock } from '../core/ports';
import { loadTaxSettings } from '../core/settings/sale-settings';
import type { StoreBooks } from '../runtime';
import { cliUser, defaultIo, readStore, withStore, type Io, type StoreOptions } from './cli-support';
import { EXIT, UsageError } from './exit-codes';

export { CATALOGUE_USAGE } from './sale-usage';

export interface CatalogueCommandOptions extends StoreOptions {
  /** The quick items that become products the first time (tests pass their own). */
  itemsPath?: string;
}

/** The catalogue of the store's books; the quick items become products once, when the books may be written. */
export function openCatalogue(store: StoreBooks, itemsPath?: string): ProductStore {
  const products = new ProductStore(store.db, systemClock);
  if (store.writable)
    products.seedQuickItems(loadItemCatalogue(itemsPath), loadTaxSettings(store.settings).defaultCategory);
  return products;
}

export async function runCatalogueCommand(
  argv: string[],
  options: CatalogueCommandOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'import':
      return importFile(rest, options, io);
    case 'export':
      return exportFile(rest, options, io);
    case 'list':
      return list(rest, options, io);
    default:
      throw new UsageError(`catalogue: unknown subcommand ${JSON.stringify(sub ?? '')}; use import, export or list`);
  }
}

async function importFile(argv: string[], options: CatalogueCommandOptions, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { 'dry-run': { type: 'boolean' }, json: { type: 'boolean' } },
  });
  const path = positionals[0];
  if (!path) throw new UsageError('catalogue import: FILE: is required (a CSV or XLSX file)');
  if (positionals.length > 1) throw new UsageError('catalogue import: one FILE at a time');
  const bytes = readImportFile(path);
  return withStore(options, async (store) => {
    const products = openCatalogue(store, options.itemsPath);
    const parsed = await importCatalogue(bytes, {
      defaultTaxCategory: loadTaxSettings(store.settings).defaultCategory,
    });
    for (const w of parsed.warnings) io.err(`note: ${w}\n`);
    if (!parsed.ok) {
      for (const issue of parsed.issues) io.err(`${issue.message} [${issue.rule}]\n`);
      if (parsed.moreIssues > 0) io.err(`… and ${parsed.moreIssues} more issue(s)\n`);
      io.err('nothing was imported\n');
      if (values.json)
        io.out(JSON.stringify({ ok: false, issues: parsed.issues, moreIssues: parsed.moreIssues }, null, 2) + '\n');
      return EXIT.INVALID_INPUT;
    }
    const actor = cliUser(options.env);
    const outcome = products.importProducts(parsed.products, {
      actor: actor.name,
      ...(values['dry-run'] ? { dryRun: true } : {}),
    });
    if (!outcome.ok) {
      for (const issue of outcome.issues) io.err(`${issue.message} [${issue.rule}]\n`);
      io.err('nothing was imported\n');
      if (values.json) io.out(JSON.stringify({ ok: false, issues: outcome.issues }, null, 2) + '\n');
      return EXIT.INVALID_INPUT;
    }
    const { created, updated, unchanged } = outcome;
    if (!values['dry-run'])
      store.audit.record({
        actor,
        action: 'catalogue.imported',
        detail: { format: parsed.format, rows: parsed.products.length, created, updated, unchanged },
      });
    if (values.json)
      io.out(
        JSON.stringify({ ok: true, dryRun: values['dry-run'] === true, created, updated, unchanged }, null, 2) + '\n',
      );
    else {
      const total = products.count({ includeInactive: true }) + (values['dry-run'] ? created : 0);
      io.out(
        `${values['dry-run'] ? 'would import' : 'imported'} ${parsed.products.length} product(s) (${parsed.format}): ` +
          `${created} new, ${updated} changed, ${unchanged} unchanged; ${total} in the catalogue\n`,
      );
    }
    return EXIT.OK;
  });
}

const MIB = 1024 * 1024;

/** The refusal of a file over the limit, naming its size (when it has one) and the limit. */
function tooLarge(path: string, size?: number): UsageError {
  const what = size === undefined ? 'is' : `is ${(size / MIB).toFixed(1)} MiB (${size} bytes),`;
  return new UsageError(
    `FILE: ${what} more than the ${CATALOGUE_UPLOAD_MAX_BYTES / MIB} MiB (${CATALOGUE_UPLOAD_MAX_BYTES} bytes) ` +
      `a catalogue file may be; nothing was imported: ${path}`,
  );
}

/**
 * The import file's bytes, at most CATALOGUE_UPLOAD_MAX_BYTES (the app's limit too): its size is checked before a
 * byte is read, so a file of 50 MB is refused without holding it (or the rows it would become) in memory; and the
 * read stops past the limit for what has no size to check (a pipe) or grew meanwhile.
 */
function readImportFile(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new UsageError(`FILE: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}): ${path}`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new UsageError(`FILE: cannot be read (EISDIR): ${path}`);
    if (stat.size > CATALOGUE_UPLOAD_MAX_BYTES) throw tooLarge(path, stat.size);
    const chunks: Buffer[] = [];
    const chunk = Buffer.alloc(MIB);
    let used = 0;
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      used += n;
      if (used > CATALOGUE_UPLOAD_MAX_BYTES) throw tooLarge(path);
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return Buffer.concat(chunks, used);
  } finally {
    closeSync(fd);
  }
}

async function exportFile(argv: string[], options: CatalogueCommandOptions, io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      out: { type: 'string' },
      format: { type: 'string' },
      delimiter: { type: 'string' },
      bom: { type: 'boolean' },
      force: { type: 'boolean' },
    },
  });
  if (!values.out) throw new UsageError('--out: is required (the file to write)');
  const format = values.format ?? (extname(values.out).toLowerCase() === '.xlsx' ? 'xlsx' : 'csv');
  if (format !== 'csv' && format !== 'xlsx')
    throw new UsageError(`--format: csv or xlsx (got ${JSON.stringify(values.format)})`);
  const delimiter = values.delimiter ?? ',';
  if (delimiter !== ',' && delimiter !== ';')
    throw new UsageError(`--delimiter: , or ; (got ${JSON.stringify(delimiter)})`);
  if (format === 'xlsx' && (values.delimiter !== undefined || values.bom))
    throw new UsageError('--delimiter and --bom: for csv only');
  const out = resolve(values.out);
  return readStore(options, async (store) => {
    const products = new ProductStore(store.db, systemClock);
    try {
      const { rows } = await writeFileAtomically(
        out,
        (stream) =>
          format === 'xlsx'
            ? writeCatalogueXlsx(products.all(), stream)
            : writeCatalogueCsv(products.all(), { delimiter, bom: values.bom === true }, stream),
        { force: values.force === true },
      );
      io.out(`${rows} product(s) written to ${out} (${format})\n`);
      return EXIT.OK;
    } catch (err) {
      if (err instanceof ExportFileExistsError) {
        io.err(`--out: ${err.message}\n`);
        return EXIT.INVALID_INPUT;
      }
      const code = (err as NodeJS.ErrnoException).code;
      if (code && ['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EROFS'].includes(code)) {
        io.err(`--out: cannot be written (${code}): ${out}\n`);
        return EXIT.INVALID_INPUT;
      }
      throw err;
    }
  });
}

async function list(argv: string[], options: CatalogueCommandOptions, io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { search: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
  });
  let limit = 50;
  if (values.limit !== undefined) {
    if (!/^\d+$/.test(values.limit) || Number(values.limit) < 1 || Number(values.limit) > MAX_SEARCH_LIMIT)
      throw new UsageError(
        `--limit: a whole number from 1 to ${MAX_SEARCH_LIMIT} (got ${JSON.stringify(values.limit)})`,
      );
    limit = Number(values.limit);
  }
  return readStore(options, async (store) => {
    const products = new ProductStore(store.db, systemClock).search(values.search ?? '', limit);
    if (values.json) io.out(JSON.stringify(products, null, 2) + '\n');
    else {
      for (const p of products)
        io.out(
          `${p.sku.padEnd(16)} ${p.name.padEnd(36)} ${formatRupiah(p.price).padStart(14)}  ${p.taxCategory.padEnd(6)} ` +
            `${p.category}${p.barcodes.length ? `  ${p.barcodes.join('|')}` : ''}\n`,
        );
      io.out(`${products.length} product(s)${values.search ? ` matching ${JSON.stringify(values.search)}` : ''}\n`);
    }
    return EXIT.OK;
  });
}
