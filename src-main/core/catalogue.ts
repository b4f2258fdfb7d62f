import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parsePaymentCatalogue, type PaymentMethod } from '../common/payment-methods';

/** The catalogue shipped in resources/; a manager's edited copy can be loaded from any path. */
export const BUNDLED_CATALOGUE_PATH = fileURLToPath(new URL('../../resources/payment-methods.json', import.meta.url));

export function loadPaymentCatalogue(path: string = BUNDLED_CATALOGUE_PATH): PaymentMethod[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the payment-method catalogue at ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  return parsePaymentCatalogue(data, path);
}
