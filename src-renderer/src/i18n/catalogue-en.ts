import type { ProductIssueParams } from '../../../src-main/common/product-form';
import { formatRupiah } from '../../../src-main/common/money';
import type { CatalogueMessages } from './catalogue-id';

/** The manager's catalogue screen in English (the same keys as catalogue-id.ts). */
export const catalogueEn: CatalogueMessages = {
  title: 'Products',
  reload: 'Reload',
  intro: 'What the cashier sells: found by name, SKU or barcode, or scanned.',
  search: 'Search products',
  searchHint: 'Name, SKU or barcode.',
  total: (n) => `${n.toLocaleString('en-US')} products in the catalogue`,
  showing: (from, to, total) =>
    `Showing ${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`,
  found: (n, max) => (n >= max ? `The first ${max} matches; search more precisely to see others.` : `${n} found.`),
  noMatch: (text) => `No product matches "${text}".`,
  empty: 'No products yet. Add one, or import a file.',
  loading: 'Loading…',
  list: 'Products',
  columns: {
    sku: 'SKU',
    name: 'Name',
    barcodes: 'Barcodes',
    category: 'Category',
    price: 'Price',
    tax: 'Tax',
    active: 'Status',
    actions: 'Actions',
  },
  taxes: { ppn: 'PPN (VAT)', pbjt: 'PBJT', exempt: 'Exempt' },
  active: 'Active',
  inactive: 'Inactive',
  previous: 'Previous',
  next: 'Next',
  add: 'Add a product',
  edit: 'Edit',
  editLabel: (name) => `Edit ${name}`,
  deactivate: 'Deactivate',
  deactivateLabel: (name) => `Deactivate ${name}`,
  activate: 'Activate',
  activateLabel: (name) => `Activate ${name}`,
  notices: {
    added: (name) => `${name} added.`,
    saved: (name) => `${name} saved.`,
    deactivated: (name) => `${name} deactivated: no longer sold.`,
    activated: (name) => `${name} activated again.`,
  },
  form: {
    addTitle: 'New product',
    editTitle: (name) => `Edit: ${name}`,
    sku: 'SKU',
    skuHint: "The store's code for it, unique (letter case ignored).",
    name: 'Name',
    nameHint: 'Printed on the receipt.',
    barcodes: 'Barcodes',
    barcodesHint: 'EAN-13, EAN-8 or UPC-A; one a line. May be empty.',
    category: 'Category',
    categoryHint: 'E.g. Drinks. May be empty.',
    price: 'Price (Rp)',
    priceHint: 'Whole rupiah, e.g. 18000 or 18.000.',
    priceRule: 'Write the price in whole rupiah, e.g. 18000 or 18.000, without cents.',
    taxCategory: 'Tax category',
    activeLabel: 'Active (sold at the till)',
    save: 'Save',
    saving: 'Saving…',
    cancel: 'Cancel',
  },
  rule: (rule: string, p: ProductIssueParams = {}) => {
    const code = p.code !== undefined ? `${p.code}: ` : '';
    switch (rule) {
      case 'required':
        return 'Required.';
      case 'sku':
        return `1 to ${p.max ?? 40} characters, without spaces at either end.`;
      case 'sku_duplicate':
        return p.otherName !== undefined
          ? `This SKU is already ${p.otherName}'s (SKU ${p.otherSku}); each product has its own.`
          : `This SKU is on ${p.otherLine !== undefined ? `line ${p.otherLine}` : 'another line'} already; each product has its own.`;
      case 'name':
        return `1 to ${p.max ?? 80} characters, without control characters.`;
      case 'barcode_digits':
        return `${code}a barcode is digits only (if Excel wrote it like 8.99E+12, format the column as Text).`;
      case 'barcode_length':
        return `${code}a barcode has 13 digits (EAN-13), 12 (UPC-A) or 8 (EAN-8)${p.length !== undefined ? `; this has ${p.length}` : ''}.`;
      case 'barcode_check_digit':
        return p.expected !== undefined
          ? `${code}the check digit (the last one) should be ${p.expected}: a digit is mistyped.`
          : `${code}the check digit (the last one) is wrong: a digit is mistyped.`;
      case 'barcode_duplicate':
        return p.otherName !== undefined
          ? `${code}already the barcode of ${p.otherName} (SKU ${p.otherSku}); a barcode finds one product.`
          : p.otherLine !== undefined
            ? `${code}already the barcode of line ${p.otherLine}; a barcode finds one product.`
            : `${code}a barcode is there twice; a barcode finds one product.`;
      case 'barcode_count':
        return `At most ${p.max ?? 20} barcodes.`;
      case 'category':
        return `At most ${p.max ?? 40} characters, without spaces at either end.`;
      case 'price':
        return `Whole rupiah from 0 to ${formatRupiah(p.max ?? 10_000_000_000)}, without cents, e.g. 18000.`;
      case 'tax':
        return "ppn, pbjt or exempt (empty: the store's default category).";
      case 'active':
        return '1 or 0, yes or no, ya or tidak (empty: active).';
      case 'item_id':
        return `1 to ${p.max ?? 50} characters without spaces.`;
      case 'cell':
        return 'The cell holds a spreadsheet error (e.g. #N/A).';
      case 'columns':
        return 'This line has another number of fields than the header.';
      case 'header':
        return 'The header must name the columns sku, name and price (and may have barcode, category, tax, active), each once.';
      case 'file':
        return 'The file cannot be read or is empty: save it as "CSV UTF-8" or XLSX, with a header and products.';
      case 'not_found':
        return 'This product is no longer in the catalogue; reload the list.';
      default:
        return "Breaks a rule of the catalogue's file.";
    }
  },
  import: {
    title: 'Import from a file',
    intro:
      'A CSV or Excel (XLSX) file with the columns sku, name, price (and barcode, category, tax, active). ' +
      'It is checked first; then all of it is imported, or nothing.',
    pick: 'Pick a CSV or XLSX file',
    limit: (mb) => `At most ${mb} MB.`,
    uploading: (name) => `Sending ${name}…`,
    checking: (name) => `Checking ${name}…`,
    importing: (name) => `Importing ${name}…`,
    wouldImport: (name, rows, created, updated, unchanged) =>
      `${name}: ${rows} rows, no issues. Importing adds ${created} products, changes ${updated}, and ${unchanged} stay the same.`,
    importNow: 'Import',
    imported: (rows, created, updated, unchanged) =>
      `Imported ${rows} rows: ${created} new, ${updated} changed, ${unchanged} unchanged.`,
    issues: (name, n) =>
      `${name}: ${n} ${n === 1 ? 'issue' : 'issues'}. Nothing was imported; fix the file and pick it again.`,
    more: (n) => `… and ${n} more.`,
    where: (line, column, xlsx) =>
      line === null
        ? column
          ? `Column ${column}`
          : 'The file'
        : `${xlsx ? 'Row' : 'Line'} ${line}${column ? `, ${column}` : ''}`,
    tooLarge: (mb) => `The file is larger than ${mb} MB: split it into several.`,
    empty: 'The file is empty.',
    gone: 'Loket no longer has the file (over 10 minutes, or imported already): pick it again.',
    another: 'Pick another file',
  },
  export: {
    title: 'Export to a file',
    intro: 'Every product (active or not), in the format the import reads.',
    formats: { csv: 'CSV (Excel set to Indonesian)', xlsx: 'Excel (XLSX)' },
    format: 'Format',
    run: 'Export products',
    running: 'Preparing the file…',
    downloaded: (file) => `${file} downloaded; see the browser's downloads folder.`,
    saved: (path) => `Saved: ${path}`,
    notSaved: 'The file was not saved.',
  },
};
