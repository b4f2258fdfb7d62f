import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { CatalogueItem } from '../common/api';
import { parsePaymentCatalogue, type PaymentMethod } from '../common/payment-methods';

/** The catalogue shipped in resources/; a manager's edited copy can be loaded from any path. */
export const BUNDLED_CATALOGUE_PATH = fileURLToPath(new URL('../../resources/payment-methods.json', import.meta.url));

export function loadPaymentCatalogue(path: string = BUNDLED_CATALOGUE_PATH): PaymentMethod[] {
  return parsePaymentCatalogue(readJson(path, 'payment-method catalogue'), path);
}

export const BUNDLED_ITEMS_PATH = fileURLToPath(new URL('../../resources/items.json', import.meta.url));

const itemsSchema = z
  .array(
    z
      .object({
        itemId: z.string().min(1).max(50),
        // The interface's item_name limit: a quick item must be sendable as it is.
        name: z.string().min(1).max(25),
        price: z.number().int().positive(),
      })
      .strict(),
  )
  .refine((items) => new Set(items.map((i) => i.itemId)).size === items.length, 'itemId must be unique');

/** The store's quick items: a name, an item_id and a fixed price in whole rupiah. */
export function loadItemCatalogue(path: string = BUNDLED_ITEMS_PATH): CatalogueItem[] {
  const parsed = itemsSchema.safeParse(readJson(path, 'item catalogue'));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`).join('\n');
    throw new Error(`${path} is not a valid item catalogue:\n${problems}`);
  }
  return parsed.data;
}

function readJson(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the ${what} at ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${(err as Error).message}`);
  }
}
