// Field rules of the order request (docs/gateway-interface.md, Loket's rules in order-request.ts): each refusal
// names the field, carries the rule's retcode (retcodes.ts) and HTTP status (server.ts RULE_STATUS),
// and stores nothing; each value at a limit is accepted.
import { describe, expect, it } from 'vitest';
import { CATALOGUE, sortedKeys, str, validOrder, type OrderBody } from './helpers/sandbox-client';
import { useSandbox } from './helpers/sandbox-setup';

const APP = { appId: 'valid-app', appKey: 'valid-appkey-abcdef' };

const fixture = useSandbox(APP);
const client = fixture.client;

const RULE = {
  required: { status: 400, retcode: '2100' },
  type: { status: 400, retcode: '2101' },
  max_length: { status: 400, retcode: '2102' },
  format: { status: 400, retcode: '2103' },
  unsupported_method: { status: 422, retcode: '2201' },
  customer_name_required: { status: 422, retcode: '2202' },
  amount_range: { status: 422, retcode: '2203' },
} as const;

/** Sends the order and expects one refusal naming `field`, and no order stored for it. */
async function expectRefused(
  order: OrderBody,
  field: string,
  rule: keyof typeof RULE,
  path = '/api/transaction',
): Promise<string> {
  const res = await client.post(path, order);
  expect(res.status, res.text).toBe(RULE[rule].status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(sortedKeys(res.json)).toEqual(['message', 'retcode', 'success']);
  expect(res.json!.success).toBe(false);
  expect(res.json!.retcode).toBe(RULE[rule].retcode);
  const message = str(res.json!.message);
  expect(message).toMatch(new RegExp(`(^|[^a-z_])${field}([^a-z_]|$)`));
  if (typeof order.merchant_transaction_id === 'string' && order.merchant_transaction_id.trim() !== '') {
    expect((await client.order(order.merchant_transaction_id)).status, 'a refused order must not be stored').toBe(404);
  }
  return message;
}

async function expectAccepted(order: OrderBody, path = '/api/transaction') {
  const res = await client.post(path, order);
  expect(res.status, res.text).toBe(200);
  expect(res.json!.success).toBe(true);
  const stored = fixture.sandbox.orders.get(str(order.merchant_transaction_id));
  expect(stored, 'an accepted order is stored').toBeDefined();
  return stored!;
}

/** A unique merchant_transaction_id of exactly `length` characters. */
function mtidOfLength(length: number): string {
  const head = validOrder().merchant_transaction_id as string;
  return (head + '-').padEnd(length, 'x');
}

const MANDATORY = ['user_id', 'merchant_transaction_id', 'payment_method', 'amount', 'item_name'] as const;

describe('mandatory fields', () => {
  it.each(MANDATORY)('%s missing -> 400 2100 naming it (V2 and V1)', async (field) => {
    expect(await expectRefused(validOrder({ [field]: undefined }), field, 'required')).toMatch(/required/);
    await expectRefused(validOrder({ [field]: undefined }), field, 'required', '/api/create');
  });

  it.each(MANDATORY)('%s null counts as missing', async (field) => {
    await expectRefused(validOrder({ [field]: null }), field, 'required');
  });

  it.each(['user_id', 'merchant_transaction_id', 'payment_method', 'item_name'])(
    '%s empty or blank -> 400 2100 naming it',
    async (field) => {
      await expectRefused(validOrder({ [field]: '' }), field, 'required');
      await expectRefused(validOrder({ [field]: '   ' }), field, 'required');
    },
  );

  it('lists every problem when several fields are wrong', async () => {
    const message = await expectRefused(
      validOrder({ user_id: undefined, item_name: undefined }),
      'user_id',
      'required',
    );
    expect(message).toMatch(/item_name/);
  });

  it('refuses a body that is not an object', async () => {
    for (const body of ['[]', 'null', '"order"', '42']) {
      const res = await client.v2(body);
      expect(res.status, body).toBe(400);
      expect(res.json!.retcode).toBe('2101');
      expect(res.json!.message).toMatch(/body/);
    }
  });
});

describe('maximum lengths (counted in characters)', () => {
  it('user_id: 51 refused with 2102, 50 accepted', async () => {
    expect(await expectRefused(validOrder({ user_id: 'u'.repeat(51) }), 'user_id', 'max_length')).toMatch(/50/);
    expect((await expectAccepted(validOrder({ user_id: 'u'.repeat(50) }))).request.user_id).toHaveLength(50);
  });

  it('merchant_transaction_id: 37 refused with 2102, 36 accepted', async () => {
    await expectRefused(
      validOrder({ merchant_transaction_id: mtidOfLength(37) }),
      'merchant_transaction_id',
      'max_length',
    );
    const mtid = mtidOfLength(36);
    expect(mtid).toHaveLength(36);
    await expectAccepted(validOrder({ merchant_transaction_id: mtid }));
    expect((await client.order(mtid)).status).toBe(200);
  });

  it('item_name: 26 refused with 2102, 25 accepted', async () => {
    await expectRefused(validOrder({ item_name: 'i'.repeat(26) }), 'item_name', 'max_length');
    await expectAccepted(validOrder({ item_name: 'i'.repeat(25) }));
  });

  it('item_name: an emoji counts as one character (25 accepted although 26 UTF-16 units, 26 refused)', async () => {
    const name = '☕' + '😀' + 'x'.repeat(23);
    expect([...name]).toHaveLength(25);
    expect(name.length).toBe(26);
    const stored = await expectAccepted(validOrder({ item_name: name }));
    expect(stored.request.item_name).toBe(name);
    expect(await expectRefused(validOrder({ item_name: name + 'y' }), 'item_name', 'max_length')).toMatch(/got 26/);
  });

  it('V1 applies the same limits', async () => {
    await expectRefused(validOrder({ item_name: 'i'.repeat(26) }), 'item_name', 'max_length', '/api/create');
    await expectAccepted(validOrder({ item_name: 'i'.repeat(25) }), '/api/create');
  });
});

describe('types', () => {
  it.each([
    ['user_id', 123],
    ['merchant_transaction_id', true],
    ['payment_method', { id: 'qris_dynamic' }],
    ['item_name', ['Kopi']],
    ['amount', '25000'],
    ['customer_name', 7],
    ['notification_url', false],
  ] as const)('%s = %j -> 400 2101 naming it', async (field, value) => {
    await expectRefused(validOrder({ [field]: value }), field, 'type');
  });

  it('merchant_transaction_id must be printable ASCII without spaces (2103)', async () => {
    await expectRefused(validOrder({ merchant_transaction_id: 'ORDER 1' }), 'merchant_transaction_id', 'format');
  });

  it('notification_url and redirect_url must be absolute http(s) URLs (2103)', async () => {
    await expectRefused(validOrder({ notification_url: 'ftp://127.0.0.1/cb' }), 'notification_url', 'format');
    await expectRefused(validOrder({ redirect_url: '/relative' }), 'redirect_url', 'format');
  });
});

describe('names: nothing invisible or direction-changing (receipt spoofing)', () => {
  it.each([
    ['item_name', 'Kopi\u202egnp.exe', 'U+202E'],
    ['item_name', '\u2066=1+1', 'U+2066'],
    ['item_name', 'Ko\u200bpi', 'U+200B'],
    ['item_name', 'Teh\u200d', 'U+200D'],
    ['item_name', '\ufeffKopi', 'U+FEFF'],
    ['customer_name', 'Budi\u202e', 'U+202E'],
  ] as const)('%s %j -> 400 2103 naming it and the character', async (field, value, char) => {
    const order = validOrder({ [field]: value });
    expect(await expectRefused(order, field, 'format')).toContain(
      `invisible or text-direction characters (found ${char})`,
    );
  });

  it('an emoji written with zero-width joiners is a name like any other', async () => {
    const name = 'Nasi \u{1f469}\u200d\u{1f373}';
    expect((await expectAccepted(validOrder({ item_name: name }))).request.item_name).toBe(name);
  });
});

describe('defaults', () => {
  it('currency defaults to IDR when absent; IDR is accepted; USD is refused naming currency', async () => {
    expect((await expectAccepted(validOrder({ currency: undefined }))).request.currency).toBe('IDR');
    expect((await expectAccepted(validOrder({ currency: 'IDR' }))).request.currency).toBe('IDR');
    expect(await expectRefused(validOrder({ currency: 'USD' }), 'currency', 'format')).toMatch(/IDR/);
  });

  it('redirect_target defaults to _top; a listed target is kept; another is refused naming it', async () => {
    expect((await expectAccepted(validOrder({ redirect_target: undefined }))).request.redirect_target).toBe('_top');
    expect((await expectAccepted(validOrder({ redirect_target: '_blank' }))).request.redirect_target).toBe('_blank');
    await expectRefused(validOrder({ redirect_target: 'popup' }), 'redirect_target', 'format');
  });

  it('unknown fields are ignored (tolerant reader)', async () => {
    await expectAccepted(validOrder({ loyalty_card: 'GOLD-1' }));
  });
});

describe('payment_method and its conditions', () => {
  it('an unsupported payment_method -> 422 2201 naming it', async () => {
    expect(
      await expectRefused(validOrder({ payment_method: 'crypto_doge' }), 'payment_method', 'unsupported_method'),
    ).toContain('crypto_doge');
  });

  it("a method disabled in the catalogue (va_cimb) is still accepted: enabled is the store's choice, not the gateway's", async () => {
    // docs/sandbox.md: the sandbox, standing in for the aggregator, accepts every method it knows;
    // Loket's own client refuses disabled methods (test/node/gateway-client.test.ts).
    expect(CATALOGUE.find((m) => m.id === 'va_cimb')?.enabled).toBe(false);
    await expectAccepted(validOrder({ payment_method: 'va_cimb', amount: 20_000 }));
  });

  it('customer_name is required for the flagged bank (422 2202) and accepted with it', async () => {
    const flagged = CATALOGUE.filter((m) => m.requiresCustomerName);
    expect(flagged.map((m) => m.id)).toEqual(['va_bca']);
    await expectRefused(
      validOrder({ payment_method: 'va_bca', customer_name: undefined }),
      'customer_name',
      'customer_name_required',
    );
    await expectRefused(
      validOrder({ payment_method: 'va_bca', customer_name: '  ' }),
      'customer_name',
      'customer_name_required',
    );
    expect(
      (await expectAccepted(validOrder({ payment_method: 'va_bca', customer_name: 'Dewi Lestari' }))).request
        .customer_name,
    ).toBe('Dewi Lestari');
  });

  it('customer_name is not required for the other banks', async () => {
    await expectAccepted(validOrder({ payment_method: 'va_mandiri', customer_name: undefined }));
  });

  it.each(CATALOGUE.filter((m) => m.kind.startsWith('airtime') && m.enabled).map((m) => m.id))(
    'user_mdn is optional for %s, as the interface says, and must look like a mobile number when given',
    async (id) => {
      await expectAccepted(validOrder({ payment_method: id, user_mdn: undefined }));
      await expectRefused(validOrder({ payment_method: id, user_mdn: 'call me' }), 'user_mdn', 'format');
      await expectAccepted(validOrder({ payment_method: id, user_mdn: '+6281234567890' }));
    },
  );
});

describe('amount', () => {
  it.each([
    ['"abc"', 'abc', 'type'],
    ['1.5', 1.5, 'type'],
    ['-1', -1, 'amount_range'],
    ['0', 0, 'amount_range'],
    ['1e20', 1e20, 'amount_range'],
    ['true', true, 'type'],
  ] as const)('amount %s -> refused naming amount', async (_shown, amount, rule) => {
    await expectRefused(validOrder({ amount }), 'amount', rule);
  });

  it.each(CATALOGUE.filter((m) => m.enabled).map((m) => [m.id, m.minAmount, m.maxAmount] as const))(
    '%s: below %i and above %i refused (422 2203), both bounds accepted',
    async (id, min, max) => {
      const below = await expectRefused(validOrder({ payment_method: id, amount: min - 1 }), 'amount', 'amount_range');
      if (min > 1) expect(below).toContain(`between ${min} and ${max}`);
      await expectRefused(validOrder({ payment_method: id, amount: max + 1 }), 'amount', 'amount_range');
      expect((await expectAccepted(validOrder({ payment_method: id, amount: min }))).request.amount).toBe(min);
      expect((await expectAccepted(validOrder({ payment_method: id, amount: max }))).request.amount).toBe(max);
    },
  );
});
