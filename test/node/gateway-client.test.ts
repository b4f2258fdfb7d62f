import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { parseEmv } from '../../src-main/common/emvco';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { GatewayClient, type GatewayConfig } from '../../src-main/core/gateway/client';
import { SANDBOX_DEFAULTS, startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';

const methods = loadPaymentCatalogue();
let sandbox: SandboxHandle;
let seq = 0;

function client(overrides: Partial<GatewayConfig> = {}, appKey: string = SANDBOX_DEFAULTS.appKey): GatewayClient {
  const config: GatewayConfig = {
    baseUrl: sandbox.url,
    appId: SANDBOX_DEFAULTS.appId,
    signing: { key: 'appkey', encoding: 'hex' },
    timeoutMs: 5000,
    inquiryPath: '/api/status',
    ...overrides,
  };
  return new GatewayClient(config, new MemorySecretStore('test', { appkey: appKey }), methods);
}

function body(methodId: string, extra: Record<string, unknown> = {}) {
  const method = methods.find((m) => m.id === methodId)!;
  return {
    user_id: 'cust-1',
    merchant_transaction_id: `GC-${process.pid}-${++seq}`,
    payment_method: methodId,
    amount: Math.max(method.minAmount, Math.min(25000, method.maxAmount)),
    item_name: 'Kopi susu',
    ...(method.requiresCustomerName ? { customer_name: 'Siti Rahayu' } : {}),
    ...(method.kind.startsWith('airtime') ? { user_mdn: '081234567890' } : {}),
    ...extra,
  };
}

async function createVia(c: GatewayClient, api: 'v1' | 'v2', input: Record<string, unknown>) {
  const prepared = c.prepare(input);
  if (!prepared.ok) throw new Error(prepared.failure.message);
  return c.create(api, prepared.bytes);
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.faults.clear());

describe('SMS reply without a phone (user_mdn is optional in the interface)', () => {
  it('an SMS-reply order without user_mdn is accepted and parses without phone_number', async () => {
    const input = body('airtime_telkomsel', { user_mdn: undefined });
    delete (input as Record<string, unknown>).user_mdn;
    const result = await createVia(client(), 'v2', input);
    if (!result.ok) throw new Error(JSON.stringify(result.failure));
    expect(result.instruction).toMatchObject({
      type: 'sms_reply',
      keyword: expect.any(String),
      sms_code: expect.any(String),
    });
    expect('phone_number' in result.instruction).toBe(false);
  });
});

describe('GatewayClient against the sandbox: every kind parses by shape', () => {
  const expected: Record<string, string> = {
    qris: 'qr',
    ewallet_redirect: 'ewallet',
    ewallet_qr_redirect: 'ewallet',
    airtime_sms: 'sms_reply',
    airtime: 'carrier_billing',
    va_bank: 'virtual_account',
    va_cstore: 'virtual_account',
  };
  for (const method of methods.filter((m) => m.enabled)) {
    it(`${method.id} (${method.kind}) → ${expected[method.kind]}`, async () => {
      const input = body(method.id);
      const result = await createVia(client(), 'v2', input);
      if (!result.ok) throw new Error(JSON.stringify(result.failure));
      const ins = result.instruction;
      expect(ins.type).toBe(expected[method.kind]);
      const stored = sandbox.orders.get(input.merchant_transaction_id)!;
      // The gateway's values, as it sent them.
      const raw = JSON.parse(result.raw) as Record<string, unknown>;
      switch (ins.type) {
        case 'qr':
          expect(ins.qrString).toBe(stored.payment.qrString);
          expect(parseEmv(ins.qrString).tags['54']).toBe(String(input.amount));
          expect(ins.qrisUrl).toBe(raw.qrisUrl);
          expect(ins.back_url).toBe(raw.back_url);
          break;
        case 'ewallet':
          expect(ins.redirect).toBe(raw.redirect);
          expect('back_url' in ins).toBe(method.returnsBackUrl);
          expect('qrisUrl' in ins).toBe(method.kind === 'ewallet_qr_redirect');
          break;
        case 'sms_reply':
          expect(ins.keyword).toBe(raw.keyword);
          expect(ins.sms_code).toBe(raw.sms_code);
          expect(ins.phone_number).toBe('081234567890');
          expect(ins.trx_type).toBe(raw.trx_type);
          expect('short_code' in ins).toBe(method.hasShortCode);
          break;
        case 'virtual_account': {
          const data = raw.data as Record<string, unknown>;
          expect(ins.va).toBe(data.va);
          expect(ins.expired_date).toBe(data.expired_date);
          expect(ins.transaction_id).toBe(stored.transactionId);
          expect(result.transactionId).toBe(stored.transactionId);
          expect('payment_url' in ins).toBe(!method.requiresCustomerName);
          if (method.requiresCustomerName) expect(ins.customer_name).toBe('Siti Rahayu');
          break;
        }
        case 'carrier_billing':
          expect(Object.keys(raw).sort()).toEqual(['message', 'retcode', 'success']);
          break;
        default:
          throw new Error(`unexpected ${ins.type}`);
      }
      expect(ins.extra).toBeUndefined();
    });
  }

  it('V1 gives the payment page URL {base_url}/api/order/{appid}/{token}, which serves the page', async () => {
    const result = await createVia(client(), 'v1', body('qris_dynamic'));
    if (!result.ok || result.instruction.type !== 'payment_page') throw new Error('expected a payment page');
    expect(result.instruction.url).toBe(
      `${sandbox.url}/api/order/${SANDBOX_DEFAULTS.appId}/${result.instruction.token}`,
    );
    const page = await fetch(result.instruction.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Rp25.000');
  });
});

describe('GatewayClient: input is validated before sending, with the sandbox rules', () => {
  it('names the field and the rule, and sends nothing', async () => {
    const before = sandbox.orders.all().length;
    const prepared = client().prepare(body('va_bca', { customer_name: undefined, item_name: 'x'.repeat(26) }));
    expect(prepared.ok).toBe(false);
    if (prepared.ok) return;
    expect(prepared.failure.class).toBe('invalid_input');
    expect(prepared.failure.message).toContain('item_name: at most 25 characters');
    expect(prepared.failure.message).toContain('customer_name: is required for va_bca');
    expect(sandbox.orders.all().length).toBe(before);
  });

  it('refuses a method the store has disabled, before sending', () => {
    const prepared = client().prepare(body('va_cimb'));
    expect(prepared.ok ? null : prepared.failure.message).toBe(
      'payment_method: "va_cimb" is disabled in this store\'s payment-method catalogue',
    );
  });

  it('signs the exact bytes it sends: the sandbox accepts them, and the base64/secret profile too', async () => {
    const secretSandbox = await startSandbox({
      port: 0,
      signing: { key: 'secret', secret: 'sig-secret', encoding: 'base64' },
    });
    try {
      const config: GatewayConfig = {
        baseUrl: secretSandbox.url,
        appId: SANDBOX_DEFAULTS.appId,
        signing: { key: 'secret', encoding: 'base64' },
        timeoutMs: 5000,
        inquiryPath: null,
      };
      const good = new GatewayClient(
        config,
        new MemorySecretStore('t', { appkey: SANDBOX_DEFAULTS.appKey, 'signing-secret': 'sig-secret' }),
        methods,
      );
      expect((await createVia(good, 'v2', body('qris_dynamic'))).ok).toBe(true);
      const wrong = new GatewayClient(
        config,
        new MemorySecretStore('t', { appkey: SANDBOX_DEFAULTS.appKey, 'signing-secret': 'other' }),
        methods,
      );
      const result = await createVia(wrong, 'v2', body('qris_dynamic'));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.failure).toMatchObject({ class: 'rejected', retcode: '1004', httpStatus: 401 });
      const missing = new GatewayClient(
        config,
        new MemorySecretStore('the test store', { appkey: SANDBOX_DEFAULTS.appKey }),
        methods,
      );
      const notSent = await createVia(missing, 'v2', body('qris_dynamic'));
      expect(notSent.ok ? null : notSent.failure).toMatchObject({
        class: 'not_sent',
        message: expect.stringContaining('signing secret'),
      });
    } finally {
      await secretSandbox.close();
    }
  });
});

describe('GatewayClient: failures are classified', () => {
  it('rejected: retcode, message and HTTP status kept (wrong appkey)', async () => {
    const result = await createVia(client({}, 'wrong-key'), 'v2', body('qris_dynamic'));
    expect(result.ok ? null : result.failure).toMatchObject({
      class: 'rejected',
      retcode: '1003',
      httpStatus: 401,
      duplicate: false,
    });
  });

  it('rejected as duplicate: the same merchant_transaction_id again', async () => {
    const input = body('qris_dynamic');
    expect((await createVia(client(), 'v2', input)).ok).toBe(true);
    const again = await createVia(client(), 'v2', input);
    expect(again.ok ? null : again.failure).toMatchObject({
      class: 'rejected',
      retcode: '2301',
      httpStatus: 409,
      duplicate: true,
    });
  });

  it('5xx → an outage (not a refusal) with the status, and the sandbox stored nothing', async () => {
    sandbox.faults.set({ latency_ms: 0, http_status: 503, drop_after_store: false, malformed_json: false, count: 1 });
    const input = body('qris_dynamic');
    const result = await createVia(client(), 'v2', input);
    expect(result.ok ? null : result.failure).toMatchObject({ class: 'outage', httpStatus: 503, retcode: '5003' });
    expect(sandbox.orders.get(input.merchant_transaction_id)).toBeUndefined();
  });

  it('4xx with a retcode → rejected with the status', async () => {
    sandbox.faults.set({ http_status: 422, count: 1 });
    const result = await createVia(client(), 'v2', body('qris_dynamic'));
    expect(result.ok ? null : result.failure).toMatchObject({ class: 'rejected', httpStatus: 422, retcode: '5003' });
  });

  it('connection dropped after the order was stored → unknown, never rejected', async () => {
    sandbox.faults.set({ latency_ms: 0, http_status: null, drop_after_store: true, malformed_json: false, count: 1 });
    const input = body('qris_dynamic');
    const result = await createVia(client(), 'v2', input);
    expect(result.ok ? null : result.failure.class).toBe('unknown');
    expect(sandbox.orders.get(input.merchant_transaction_id)).toBeDefined();
  });

  it('connection refused → not sent (safe to retry with the same id)', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const result = await createVia(client({ baseUrl: `http://127.0.0.1:${port}` }), 'v2', body('qris_dynamic'));
    expect(result.ok ? null : result.failure).toMatchObject({
      class: 'not_sent',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('malformed JSON → malformed, with the raw text kept', async () => {
    sandbox.faults.set({ latency_ms: 0, http_status: null, drop_after_store: false, malformed_json: true, count: 1 });
    const result = await createVia(client(), 'v2', body('qris_dynamic'));
    expect(result.ok ? null : result.failure).toMatchObject({
      class: 'malformed',
      httpStatus: 200,
      raw: expect.stringContaining('"retcode":"0000"'),
    });
  });

  it('no answer within the deadline → unknown, naming the deadline', async () => {
    // The sandbox holds its answer back far longer than the client's real 300 ms deadline (closing the
    // sandbox ends the pause), so only the deadline can end this call.
    sandbox.faults.set({
      latency_ms: 120_000,
      http_status: null,
      drop_after_store: false,
      malformed_json: false,
      count: 1,
    });
    const input = body('qris_dynamic');
    const result = await createVia(client({ timeoutMs: 300 }), 'v2', input);
    expect(result.ok ? null : result.failure).toMatchObject({
      class: 'unknown',
      message: expect.stringContaining('within 0.3 s'),
    });
    // Unknown, not rejected, for a reason: the order was stored before the answer was held back.
    expect(sandbox.orders.get(input.merchant_transaction_id)).toBeDefined();
  });
});

describe('GatewayClient.inquire', () => {
  it('reports PENDING, then PAID after the sandbox settles the order; 404 for an unknown id', async () => {
    const input = body('qris_dynamic');
    await createVia(client(), 'v2', input);
    const pending = await client().inquire(input.merchant_transaction_id);
    expect(pending.ok && pending.status).toBe('PENDING');
    sandbox.settle(input.merchant_transaction_id, 'PAID');
    const paid = await client().inquire(input.merchant_transaction_id);
    expect(paid.ok && paid.status).toBe('PAID');
    expect(paid.ok && paid.paidAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const missing = await client().inquire('NOPE-1');
    expect(missing.ok ? null : missing.failure).toMatchObject({ class: 'rejected', httpStatus: 404, retcode: '3001' });
  });

  it('without an inquiry path it does not call the gateway', async () => {
    const result = await client({ inquiryPath: null }).inquire('X');
    expect(result.ok ? null : result.failure).toMatchObject({
      class: 'not_sent',
      message: expect.stringContaining('no status inquiry'),
    });
  });
});
