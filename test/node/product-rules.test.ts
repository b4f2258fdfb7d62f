// A product's field rules are written once (common/product-rules.ts): the manager's form (checkProductInput), the
// catalogue file's import (CatalogueRows) and the stored product's schema (productFieldsSchema) refuse the same
// values, with the same rule and numbers.
import { describe, expect, it } from 'vitest';
import { productFieldsSchema } from '../../src-main/common/product';
import { checkProductInput, type ProductInput } from '../../src-main/common/product-form';
import { CatalogueRows, type ColumnName } from '../../src-main/core/products/catalogue-rows';

const GOOD: ProductInput = {
  sku: 'KOPI-SUSU',
  name: 'Kopi susu',
  barcodes: ['8992761111113'],
  category: 'Minuman',
  price: 18_000,
  taxCategory: 'ppn',
  active: true,
};

/** Each field's bad values, and the import's column for that field. */
const CASES: { field: keyof ProductInput; column: ColumnName; values: unknown[] }[] = [
  { field: 'sku', column: 'sku', values: ['', 'S'.repeat(41), 'A\u0007B'] },
  { field: 'name', column: 'name', values: ['', 'N'.repeat(81), 'Kopi\u0007'] },
  { field: 'category', column: 'category', values: ['c'.repeat(41), 'Min\u0007uman'] },
  { field: 'price', column: 'price', values: [-1, 10_000_000_001] },
  { field: 'taxCategory', column: 'tax', values: ['vat'] },
  { field: 'itemId', column: 'item_id', values: ['has space', 'I'.repeat(51)] },
  {
    field: 'barcodes',
    column: 'barcode',
    values: [['4006381333932'], ['12345'], ['89912x4'], Array.from({ length: 21 }, () => '8992761111113')],
  },
];

function formIssue(field: keyof ProductInput, value: unknown) {
  const checked = checkProductInput({ ...GOOD, [field]: value });
  if (checked.ok) return undefined;
  return checked.issues.map(({ rule, params }) => ({ rule, params }))[0];
}

function importIssue(column: ColumnName, value: unknown) {
  const rows = new CatalogueRows('line');
  const columns: ColumnName[] = ['sku', 'name', 'barcode', 'category', 'price', 'tax', 'item_id'];
  rows.row(columns, 1);
  const cells: Record<ColumnName, unknown> = {
    sku: GOOD.sku,
    name: GOOD.name,
    barcode: GOOD.barcodes.join('|'),
    category: GOOD.category,
    price: String(GOOD.price),
    tax: GOOD.taxCategory,
    active: null,
    item_id: null,
  };
  // A file writes a price as text and several barcodes in one cell, separated by |.
  cells[column] =
    column === 'barcode' ? (value as string[]).join('|') : typeof value === 'number' ? String(value) : value;
  rows.row(
    columns.map((c) => cells[c] as string | null),
    2,
  );
  const result = rows.result();
  if (result.ok) return undefined;
  return result.issues.map(({ rule, params }) => ({ rule, params }))[0];
}

describe("a product's field rules, once", () => {
  it('a good product passes all three', () => {
    expect(checkProductInput(GOOD).ok).toBe(true);
    expect(importIssue('sku', GOOD.sku)).toBeUndefined();
    expect(productFieldsSchema.safeParse(GOOD).success).toBe(true);
  });

  for (const { field, column, values } of CASES)
    it(`${field}: the form and the import refuse the same values by the same rule, and so does the schema`, () => {
      for (const value of values) {
        const form = formIssue(field, value);
        expect(form, `${field} ${JSON.stringify(value)}`).toBeDefined();
        const fromFile = importIssue(column, value);
        // The form sends a barcode twice as typed; the file's check of a barcode's digits is the same rule.
        expect(fromFile, `${column} ${JSON.stringify(value)}`).toEqual(form);
        // The schema of a stored product (an empty name or SKU is a product the store cannot keep either).
        expect(productFieldsSchema.safeParse({ ...GOOD, [field]: value }).success, field).toBe(false);
      }
    });
});
