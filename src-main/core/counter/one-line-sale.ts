import type { ChargeInput, ChargeResult } from '../../common/api';
import type { ChargeSaleInput, ChargeSaleResult } from '../../common/sale';
import type { TaxCategory } from '../../common/tax';
import { validateOrderRequest, type FieldIssue, type FieldRule } from '../../common/order-request';
import type { PaymentMethod } from '../../common/payment-methods';
import type { OrderFields } from './counter';

/**
 * A typed item and amount as a sale (docs/sale.md, "One counter"): one typed line — the item's name, the amount as its
 * price, quantity 1, the store's category of a typed line — paid by one gateway tender of the method. What the API's
 * createOrder and the CLI's `order create` charge; the till's own typed line is the same line in its cart. The line is
 * priced as every line is: where the store's prices exclude tax, PPN is added to it.
 */
export function oneLineSale(input: ChargeInput, category: TaxCategory, saleKey?: string): ChargeSaleInput {
  return {
    cart: {
      lines: [{ lineId: 'l1', name: input.itemName, unitPrice: input.amount, qty: 1, taxCategory: category }],
      saleDiscount: null,
      ...(saleKey !== undefined ? { saleKey } : {}),
    },
    methodId: input.methodId,
    ...(input.customerName !== undefined ? { customerName: input.customerName } : {}),
    ...(input.phone !== undefined ? { phone: input.phone } : {}),
    ...(input.api !== undefined ? { api: input.api } : {}),
  };
}

/** The order's own fields as the caller gave them: its item_name exactly (the gateway's 25 characters are checked). */
export function orderFieldsOf(input: ChargeInput & { userId?: string | undefined }): OrderFields {
  return {
    itemName: input.itemName,
    ...(input.itemId !== undefined ? { itemId: input.itemId } : {}),
    ...(input.userId !== undefined ? { userId: input.userId } : {}),
  };
}

/** The line's fields in the order's words: the typed line's price is the order's amount, its name the item_name. */
const ORDER_FIELD: Record<string, string> = { 'lines[0].unitPrice': 'amount', 'lines[0].name': 'item_name' };

const ORDER_RULES: readonly FieldRule[] = ['required', 'type', 'max_length', 'format', 'amount_range'];

/** A one-line sale's answer as createOrder answers: its order, or the failure (a line's issue named as the order's). */
export function chargeResultOf(result: ChargeSaleResult): ChargeResult {
  const extra = { saleId: result.saleId ?? undefined };
  if (result.ok) {
    if (result.order) return { ok: true, order: result.order, ...extra };
    throw new Error('a one-line sale paid by a gateway tender has an order');
  }
  const issues: FieldIssue[] | undefined = result.issues?.map((i) => ({
    field: ORDER_FIELD[i.field] ?? i.field,
    rule: (ORDER_RULES.includes(i.rule as FieldRule) ? i.rule : 'format') as FieldRule,
    message: i.message.replace(/^line 1, |^lines\[0\]\.(unitPrice|name): /, (m) =>
      m.includes('unitPrice') ? 'amount: ' : m.includes('name') ? 'item_name: ' : '',
    ),
  }));
  const failure = issues ? { ...result.failure, issues } : result.failure;
  return { ok: false, ...(result.order ? { order: result.order } : {}), failure, ...extra };
}

/** The order's own fields a one-line sale of `input` would send, checked first by the gateway's rules. */
const ORDER_OWN = new Set(['amount', 'item_name', 'item_id', 'payment_method', 'customer_name', 'user_mdn']);

/**
 * A typed item and amount refused by the gateway's own rules (common/order-request.ts: the method's amount range with
 * both ends, the item name's 25 characters, a method not offered), as `createOrder` and `order create` have always
 * answered; undefined when the order's fields pass and the one-line sale is checked as any sale is.
 */
export function orderRefusalOf(input: ChargeInput, methods: readonly PaymentMethod[]): ChargeResult | undefined {
  const checked = validateOrderRequest(
    {
      user_id: 'walk-in',
      merchant_transaction_id: 'CHECK',
      payment_method: input.methodId,
      amount: input.amount,
      item_name: input.itemName,
      ...(input.itemId !== undefined ? { item_id: input.itemId } : {}),
      ...(input.customerName !== undefined ? { customer_name: input.customerName } : {}),
      ...(input.phone !== undefined ? { user_mdn: input.phone } : {}),
    },
    methods,
  );
  if (checked.ok) return undefined;
  const issues = checked.issues.filter((i) => ORDER_OWN.has(i.field));
  if (issues.length === 0) return undefined;
  return {
    ok: false,
    failure: { class: 'invalid_input', retry: 'final', message: issues.map((i) => i.message).join('; '), issues },
  };
}
