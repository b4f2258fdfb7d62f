// The sandbox's success answers over real HTTP: every V2 shape of the interface's table (docs/gateway-interface.md) for every
// enabled method of resources/payment-methods.json, the V1 token and hosted page , and the
// QRIS payloads (EMVCo, CRC included).
import { describe, expect, it } from 'vitest';
import { parseEmv } from '../../src-main/common/emvco';
import {
  ENABLED_METHODS,
  GATEWAY_DATE,
  TEST_CUSTOMER,
  TEST_MDN,
  decodeQrPng,
  fromJakarta,
  obj,
  request,
  requestBytes,
  sortedKeys,
  str,
  validOrder,
  type CatalogueEntry,
} from './helpers/sandbox-client';
import { useSandbox } from './helpers/sandbox-setup';

const APP = { appId: 'resp-app', appKey: 'resp-appkey-0123456789' };
/** The sandbox's default lifetimes (none is overridden here), for the expired_date check. */
const TTL_SECONDS: Record<CatalogueEntry['kind'], number> = {
  qris: 900,
  ewallet_redirect: 900,
  ewallet_qr_redirect: 900,
  airtime_sms: 600,
  airtime: 600,
  va_bank: 86_400,
  va_cstore: 86_400,
};

// On a fake clock that never moves here: every order is created at the same known instant.
const fixture = useSandbox(APP, { fakeClock: true });
const client = fixture.client;

/** Exactly the interface's key set for a method's kind, as Loket's catalogue flags refine it. */
function expectedTopLevelKeys(m: CatalogueEntry): string[] {
  switch (m.kind) {
    case 'qris':
      return ['back_url', 'message', 'qrString', 'qrisUrl', 'retcode', 'success'];
    case 'airtime_sms':
      return [
        'keyword',
        'message',
        'phone_number',
        'retcode',
        ...(m.hasShortCode ? ['short_code'] : []),
        'sms_code',
        'success',
        'trx_type',
      ];
    case 'ewallet_redirect':
      return [...(m.returnsBackUrl === false ? [] : ['back_url']), 'message', 'redirect', 'retcode', 'success'];
    case 'ewallet_qr_redirect':
      return ['back_url', 'message', 'qrisUrl', 'redirect', 'retcode', 'success'];
    case 'airtime':
      return ['message', 'retcode', 'success'];
    case 'va_bank':
    case 'va_cstore':
      return ['data', 'success'];
  }
}

function expectedDataKeys(m: CatalogueEntry): string[] {
  return [
    'customer_name',
    'expired_date',
    'message',
    ...(m.requiresCustomerName ? [] : ['payment_url']),
    'retcode',
    'success',
    'transaction_id',
    'va',
  ];
}

async function expectHtmlPage(url: string): Promise<string> {
  expect(url.startsWith(fixture.sandbox.url + '/'), `${url} should be on the sandbox`).toBe(true);
  const page = await request(url);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.text).toMatch(/^<!doctype html>/i);
  return page.text;
}

async function qrFromImage(url: string): Promise<string> {
  expect(url.startsWith(fixture.sandbox.url + '/'), `${url} should be on the sandbox`).toBe(true);
  const image = await requestBytes(url);
  expect(image.status).toBe(200);
  expect(image.headers.get('content-type')).toBe('image/png');
  expect(image.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const text = decodeQrPng(image.bytes);
  expect(text, 'the PNG should hold a readable QR code').not.toBeNull();
  return text!;
}

describe('V2 /api/transaction success shapes, one per enabled method', () => {
  it('the catalogue covers every kind of the interface table and the three flag variants', () => {
    const kinds = new Set(ENABLED_METHODS.map((m) => m.kind));
    expect([...kinds].sort()).toEqual([
      'airtime',
      'airtime_sms',
      'ewallet_qr_redirect',
      'ewallet_redirect',
      'qris',
      'va_bank',
      'va_cstore',
    ]);
    expect(ENABLED_METHODS.filter((m) => m.kind === 'airtime_sms' && m.hasShortCode)).toHaveLength(2);
    expect(ENABLED_METHODS.filter((m) => m.kind === 'airtime_sms' && !m.hasShortCode)).toHaveLength(1);
    expect(ENABLED_METHODS.filter((m) => m.returnsBackUrl === false).map((m) => m.kind)).toEqual(['ewallet_redirect']);
    expect(ENABLED_METHODS.filter((m) => m.requiresCustomerName).map((m) => m.kind)).toEqual(['va_bank']);
  });

  describe.each(ENABLED_METHODS.map((m) => [m.id, m] as const))('%s', (_id, m) => {
    it(`answers exactly the ${m.kind} fields, with the right types and values`, async () => {
      const isVa = m.kind === 'va_bank' || m.kind === 'va_cstore';
      // Every VA request carries a name so its echo can be checked; the flagged bank needs one anyway.
      const order = validOrder({
        payment_method: m.id,
        ...(isVa ? { customer_name: m.requiresCustomerName ? TEST_CUSTOMER : 'Siti Aminah' } : {}),
      });
      const res = await client.v2(order);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = res.json!;
      expect(sortedKeys(body)).toEqual(expectedTopLevelKeys(m).sort());
      expect(body.success).toBe(true);

      // The fields that carry the answer: flat for most kinds, inside `data` for virtual accounts.
      const fields = isVa ? obj(body.data, 'data') : body;
      if (isVa) expect(sortedKeys(fields)).toEqual(expectedDataKeys(m).sort());
      expect(fields.success).toBe(true);
      expect(fields.retcode).toBe('0000');
      expect(fields.message).toEqual(expect.stringMatching(/created/i));
      for (const [key, value] of Object.entries(fields)) {
        if (key !== 'success') expect(typeof value, `${key} should be a string`).toBe('string');
        if (key !== 'success' && key !== 'customer_name') expect(value, `${key} should not be empty`).not.toBe('');
      }

      switch (m.kind) {
        case 'qris': {
          const qrString = str(body.qrString);
          expect(parseEmv(qrString).tags['54']).toBe(String(order.amount));
          expect(await qrFromImage(str(body.qrisUrl))).toBe(qrString);
          await expectHtmlPage(str(body.back_url));
          break;
        }
        case 'ewallet_qr_redirect': {
          const fromImage = await qrFromImage(str(body.qrisUrl));
          const emv = parseEmv(fromImage);
          expect(emv.crcValid).toBe(true);
          expect(emv.tags['54']).toBe(String(order.amount));
          await expectHtmlPage(str(body.redirect));
          await expectHtmlPage(str(body.back_url));
          break;
        }
        case 'ewallet_redirect':
          await expectHtmlPage(str(body.redirect));
          if (body.back_url !== undefined) await expectHtmlPage(str(body.back_url));
          break;
        case 'airtime_sms':
          expect(body.phone_number).toBe(TEST_MDN);
          expect(body.sms_code).toMatch(/^\S+$/);
          expect(body.keyword).toMatch(/^\S+$/);
          if (m.hasShortCode) expect(body.short_code).toMatch(/^\d+$/);
          break;
        case 'airtime':
          break;
        case 'va_bank':
        case 'va_cstore': {
          expect(fields.customer_name).toBe(order.customer_name);
          expect(fields.va).toMatch(/^\d{8,20}$/);
          const expiredDate = str(fields.expired_date);
          expect(expiredDate).toMatch(GATEWAY_DATE);
          // The sandbox's clock reads a whole second, so the text (whole seconds) is exact.
          expect(fromJakarta(expiredDate).getTime()).toBe(fixture.clock.now().getTime() + TTL_SECONDS[m.kind] * 1000);
          if (!m.requiresCustomerName) await expectHtmlPage(str(fields.payment_url));
          // The transaction_id is the one the sandbox stored for this merchant_transaction_id.
          const stored = await client.order(str(order.merchant_transaction_id));
          expect(obj(stored.json?.data).transaction_id).toBe(fields.transaction_id);
          break;
        }
      }
    });
  });

  it.each(ENABLED_METHODS.filter((m) => m.kind === 'airtime_sms').map((m) => m.id))(
    'an SMS-reply order for %s without user_mdn is accepted: the same fields but phone_number (the customer replies from any phone)',
    async (id) => {
      const res = await client.v2(validOrder({ payment_method: id, user_mdn: undefined }));
      expect(res.status, res.text).toBe(200);
      const withPhone = expectedTopLevelKeys(ENABLED_METHODS.find((m) => m.id === id)!);
      expect(sortedKeys(res.json!)).toEqual(withPhone.filter((k) => k !== 'phone_number').sort());
      expect(str(res.json!.sms_code)).toMatch(/^\S+$/);
    },
  );

  it('gives every order its own transaction_id, virtual account and SMS code under concurrent load', async () => {
    const orders = Array.from({ length: 12 }, (_, i) =>
      validOrder({ payment_method: i % 2 ? 'va_bni' : 'va_alfamart' }),
    );
    const answers = await Promise.all(orders.map((o) => client.v2(o)));
    expect(answers.map((a) => a.status)).toEqual(orders.map(() => 200));
    const data = answers.map((a) => obj(a.json?.data));
    expect(new Set(data.map((d) => d.transaction_id)).size).toBe(orders.length);
    expect(new Set(data.map((d) => d.va)).size).toBe(orders.length);
  });
});

describe('V1 /api/create and the hosted payment page', () => {
  it('answers exactly {success, retcode, message, data:{token}}', async () => {
    const res = await client.v1(validOrder());
    expect(res.status, res.text).toBe(200);
    expect(sortedKeys(res.json)).toEqual(['data', 'message', 'retcode', 'success']);
    expect(res.json!.success).toBe(true);
    expect(res.json!.retcode).toBe('0000');
    expect(res.json!.message).toEqual(expect.stringMatching(/created/i));
    expect(sortedKeys(res.json!.data)).toEqual(['token']);
    expect(obj(res.json!.data).token).toMatch(/^[A-Za-z0-9_-]{8,}$/);
  });

  it('serves /api/order/{appid}/{token} as HTML with the amount in rupiah, the item and a QR for QRIS', async () => {
    const order = validOrder({ amount: 25_000, item_name: 'Es Teh Manis Jumbo' });
    const res = await client.v1(order);
    const token = str(obj(res.json?.data).token);
    const html = await expectHtmlPage(client.pageUrl(token));
    expect(html).toContain('Rp25.000');
    expect(html).toContain('Es Teh Manis Jumbo');
    expect(html).toContain('<svg');
    // The QR on the page encodes this order's QRIS payload.
    const qr = /data-qr="([^"]+)"/.exec(html)?.[1];
    expect(qr, 'the page should carry the QR payload').toBeDefined();
    expect(parseEmv(qr!).tags['54']).toBe('25000');
    expect(fixture.sandbox.orders.get(str(order.merchant_transaction_id))?.payment.qrString).toBe(qr);
  });

  it('formats larger amounts with dots between thousands', async () => {
    const res = await client.v1(validOrder({ payment_method: 'va_bni', amount: 1_234_567 }));
    const html = await expectHtmlPage(client.pageUrl(str(obj(res.json?.data).token)));
    expect(html).toContain('Rp1.234.567');
  });

  it('escapes the item name instead of injecting it as markup', async () => {
    const res = await client.v1(validOrder({ item_name: '<b>Kopi</b> & "teh"' }));
    const html = await expectHtmlPage(client.pageUrl(str(obj(res.json?.data).token)));
    expect(html).not.toContain('<b>Kopi</b>');
    expect(html).toContain('&lt;b&gt;Kopi&lt;/b&gt; &amp; &quot;teh&quot;');
  });

  it.each([
    ['an unknown token', (_token: string) => client.pageUrl('0123456789abcdef0123456789abcdef')],
    ['an unknown appid', (token: string) => client.pageUrl(token, 'someone-else')],
  ] as const)('answers %s with a 404 HTML page, not JSON and not a stack trace', async (_what, url) => {
    const res = await client.v1(validOrder());
    const token = str(obj(res.json?.data).token);
    const page = await request(url(token));
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.json).toBeUndefined();
    expect(page.text).toMatch(/^<!doctype html>/i);
    expect(page.text).toMatch(/not found/i);
    expect(page.text).not.toMatch(/\bat \S+:\d+:\d+|Error:/);
  });

  it('shows the paid state after POST /sandbox/orders/{mtid}/pay', async () => {
    const order = validOrder();
    const token = str(obj((await client.v1(order)).json?.data).token);
    expect(await expectHtmlPage(client.pageUrl(token))).toContain('data-status="PENDING"');
    const paid = await client.settle(str(order.merchant_transaction_id), 'pay');
    expect(paid.status, paid.text).toBe(200);
    const html = await expectHtmlPage(client.pageUrl(token));
    expect(html).toContain('data-status="PAID"');
    expect(html).toMatch(/payment received/i);
    expect(html).not.toContain('<svg'); // no QR to scan once paid
  });

  it('shows the expired state after POST /sandbox/orders/{mtid}/expire', async () => {
    const order = validOrder({ payment_method: 'ewallet_dana' });
    const token = str(obj((await client.v1(order)).json?.data).token);
    expect((await client.settle(str(order.merchant_transaction_id), 'expire')).status).toBe(200);
    const html = await expectHtmlPage(client.pageUrl(token));
    expect(html).toContain('data-status="EXPIRED"');
    expect(html).toMatch(/expired/i);
  });

  it("the page's own pay button pays the order and redirects back to the page", async () => {
    const order = validOrder();
    const token = str(obj((await client.v1(order)).json?.data).token);
    const res = await request(`${client.pageUrl(token)}/pay`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/api/order/${APP.appId}/${token}`);
    const status = await client.status(str(order.merchant_transaction_id));
    expect(obj(status.json?.data).status).toBe('PAID');
  });
});

describe('QRIS strings', () => {
  it.each([1, 25_000, 10_000_000])(
    'amount %i: parses back with a valid CRC, tag 54 = the amount, 53 = 360, 58 = ID',
    async (amount) => {
      const res = await client.v2(validOrder({ amount }));
      expect(res.status, res.text).toBe(200);
      const qr = str(res.json!.qrString);
      const emv = parseEmv(qr);
      expect(emv.crcValid).toBe(true);
      expect(emv.tags['54']).toBe(String(amount));
      expect(emv.tags['53']).toBe('360');
      expect(emv.tags['58']).toBe('ID');
      expect(emv.tags['01']).toBe('12'); // dynamic: the amount is fixed
      expect(emv.templates['51']?.['00']).toBe('ID.CO.QRIS.WWW');
    },
  );

  it('differs between two orders of the same amount (each carries its own bill number)', async () => {
    const a = str((await client.v2(validOrder({ amount: 5000 }))).json!.qrString);
    const b = str((await client.v2(validOrder({ amount: 5000 }))).json!.qrString);
    expect(a).not.toBe(b);
    expect(parseEmv(a).templates['62']?.['01']).not.toBe(parseEmv(b).templates['62']?.['01']);
  });
});
