// Item and customer names with characters that change how a receipt reads (a right-to-left override, zero-width
// characters): refused at entry, before anything is logged or sent, with the field and the character named
// (common/visible-text.ts, docs/orders.md). The sandbox's side is in sandbox-validation.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateOrderRequest } from '../../src-main/common/order-request';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { openLoket, type Loket } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { gatewayEnv, tempDir } from './helpers/loket';

const request = (over: Record<string, unknown>) => ({
  user_id: 'walkin',
  merchant_transaction_id: 'T01-1',
  payment_method: 'qris_dynamic',
  amount: 10000,
  item_name: 'Kopi',
  ...over,
});

describe('the order request: names', () => {
  const methods = loadPaymentCatalogue();

  it.each([
    ['\u202e', 'U+202E'], // right-to-left override
    ['\u202d', 'U+202D'], // left-to-right override
    ['\u2067', 'U+2067'], // right-to-left isolate
    ['\u200f', 'U+200F'], // right-to-left mark
    ['\u061c', 'U+061C'], // Arabic letter mark
    ['\u200b', 'U+200B'], // zero-width space
    ['\u200c', 'U+200C'], // zero-width non-joiner
    ['\u2060', 'U+2060'], // word joiner
    ['\u200d', 'U+200D'], // a zero-width joiner outside an emoji
  ])('an item name with %j is refused, naming the field, the rule and %s', (char, code) => {
    const result = validateOrderRequest(request({ item_name: `Kopi${char}susu` }), methods);
    expect(result).toEqual({
      ok: false,
      issues: [
        {
          field: 'item_name',
          rule: 'format',
          message: `item_name: must not contain invisible or text-direction characters (found ${code})`,
        },
      ],
    });
  });

  it('a customer name too; names without them, emoji with joiners and accents included, pass', () => {
    expect(validateOrderRequest(request({ customer_name: 'Budi\u202eSantoso' }), methods)).toMatchObject({
      ok: false,
      issues: [{ field: 'customer_name', rule: 'format' }],
    });
    for (const name of ['Kopi susu', 'Es teh manis ☕', 'Chef \u{1f469}\u200d\u{1f373}', 'Crème brûlée', '=1+1'])
      expect(validateOrderRequest(request({ item_name: name }), methods)).toMatchObject({ ok: true });
  });
});

describe('Loket refuses them before anything is logged or sent', () => {
  let gateway: SandboxHandle;
  let loket: Loket;
  const dir = tempDir('loket-hidden-');
  beforeAll(async () => {
    gateway = await startSandbox({ host: '127.0.0.1', port: 0 });
    loket = await openLoket({ dataDir: dir.path, env: gatewayEnv(gateway) });
  });
  afterAll(async () => {
    await loket?.close();
    await gateway?.close();
    dir.remove();
  });

  it('a right-to-left override in the item name: invalid input naming item_name; no order in the log or at the gateway', async () => {
    const outcome = await loket.orders.create(
      { methodId: 'qris_dynamic', amount: 12000, itemName: 'Kopi\u202egnp.exe' },
      { source: 'cashier' },
    );
    expect(outcome).toMatchObject({
      ok: false,
      failure: { class: 'invalid_input', issues: [{ field: 'item_name', rule: 'format' }] },
    });
    expect(outcome.order).toBeUndefined();
    expect(loket.log.list()).toHaveLength(0);
    expect(gateway.orders.all()).toHaveLength(0);
  });
});
