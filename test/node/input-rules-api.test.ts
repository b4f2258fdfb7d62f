// A person's bad input at the API, as browser mode sends it: real HTTP on 127.0.0.1 to the web host over a real app
// host and data folder, bodies written by hand so 9007199254740993 (2^53 + 1) travels as typed. Each refusal names
// the field, the rule and its numbers (the minimum and the maximum), never an amount rounded on the way, and hands
// the screen the range to word (common/whole-rupiah.ts); a line name with a right-to-left override or a zero-width
// character is refused like an item name (common/visible-text.ts). Nothing is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { startWebHost, type WebHost } from '../../src-main/web/web-host';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-input-api-');
let appHost: AppHost;
let web: WebHost;
let token: string;

beforeAll(async () => {
  appHost = await startAppHost({ version: '0.0.0-test', dataDir: join(dir.path, 'data'), env: {} });
  web = await startWebHost({ app: appHost.app, staticDir: dir.path, port: 0 });
  token = new URLSearchParams(web.cashierUrl.split('?')[1]).get('token')!;
});
afterAll(async () => {
  await web.close();
  await appHost.close();
  dir.remove();
});

interface Envelope {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string; reason?: { key: string; params: Record<string, unknown> } };
}

/** One call with `body` as the exact bytes of its JSON. */
async function call(method: string, body: string): Promise<{ status: number; answer: Envelope }> {
  const res = await fetch(`${web.url}/api/call/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  });
  return { status: res.status, answer: (await res.json()) as Envelope };
}

const line = (over: string) =>
  `{"lineId":"a","name":"Es batu","unitPrice":2000,"qty":1,"taxCategory":"ppn"${over ? `,${over}` : ''}}`;
const cart = (lineJson: string, discount = 'null') => `{"lines":[${lineJson}],"saleDiscount":${discount}}`;

describe('amounts at the API: the rule, its minimum and its maximum; never …992 for 2^53 + 1', () => {
  it('a cash tender of 9007199254740993: the handed field, 0 to 100000000000000, not echoed as a rounded number', async () => {
    const { status, answer } = await call(
      'chargeSale',
      `{"args":[{"cart":${cart(line(''))},"tenders":[{"kind":"cash","handed":9007199254740993}]}]}`,
    );
    expect(status).toBe(200);
    const result = answer.result as { ok: boolean; issues: { field: string; rule: string; message: string }[] };
    expect(result.ok).toBe(false);
    expect(result.issues).toEqual([
      {
        field: 'tenders[0].handed',
        rule: 'amount',
        message:
          'tenders[0].handed: a whole number of rupiah from 0 to 100000000000000 (got a number too large to be exact)',
      },
    ]);
    expect(JSON.stringify(answer)).not.toContain('9007199254740992');
    expect(appHost.loket.log.list()).toHaveLength(0);
  });

  it('a free line priced over the maximum, a discount over it: the gate names the rule with both ends, and gives the screen the range', async () => {
    const price = await call('quoteSale', `{"args":[{"cart":${cart(line('').replace('2000', '10000000001'))}}]}`);
    expect(price.status).toBe(400);
    expect(price.answer.error).toEqual({
      code: 'invalid_arguments',
      message: 'quoteSale: argument 0.cart.lines.0.unitPrice: a whole number of rupiah from 0 to 10000000000',
      reason: { key: 'arguments.invalid', params: { field: '0.cart.lines.0.unitPrice', min: 0, max: 10_000_000_000 } },
    });
    const discount = await call(
      'quoteSale',
      `{"args":[{"cart":${cart(line(''), '{"kind":"amount","value":9007199254740993}')}}]}`,
    );
    expect(discount.status).toBe(400);
    expect(discount.answer.error).toMatchObject({
      message: 'quoteSale: argument 0.cart.saleDiscount.value: a whole number of rupiah from 0 to 100000000000000',
      reason: { params: { min: 0, max: 100_000_000_000_000 } },
    });
  });

  it('a float of 2^53 + 1 and a pay-in over the maximum: the shift field, its range as the reason’s numbers', async () => {
    const float = await call('openShift', '{"args":[{"float":9007199254740993}]}');
    expect(float.status).toBe(400);
    expect(float.answer.error).toEqual({
      code: 'invalid_arguments',
      message: 'float: a whole number of rupiah from 0 to 100000000000000 (got a number too large to be exact)',
      reason: { key: 'shift.field_rule', params: { field: 'float', rule: 'amount', min: 0, max: 100_000_000_000_000 } },
    });
    expect(await appHost.app.currentShift()).toBeNull();

    expect((await call('openShift', '{"args":[{"float":100000}]}')).status).toBe(200);
    const payIn = await call(
      'shiftMovement',
      '{"args":[{"type":"pay_in","amount":100000000000001,"reason":"modal tambahan"}]}',
    );
    expect(payIn.answer.error).toMatchObject({
      message: 'amount: a whole number of rupiah from 1 to 100000000000000 (got 100000000000001)',
      reason: {
        key: 'shift.field_rule',
        params: { field: 'amount', rule: 'amount', min: 1, max: 100_000_000_000_000 },
      },
    });
    const counted = await call('closeShift', '{"args":[{"counted":9007199254740993}]}');
    expect(counted.answer.error).toMatchObject({
      message: 'counted: a whole number of rupiah from 0 to 100000000000000 (got a number too large to be exact)',
      reason: { params: { field: 'counted', min: 0, max: 100_000_000_000_000 } },
    });
    expect((await appHost.app.currentShift())?.state).toBe('open');
  });

  it('an order of 2^53 + 1: the method’s range, both ends, as the field issue’s params; nothing logged', async () => {
    const { answer } = await call(
      'createOrder',
      '{"args":[{"methodId":"qris_dynamic","amount":9007199254740993,"itemName":"Kopi"}]}',
    );
    const result = answer.result as { ok: false; failure: { issues: unknown[] } };
    expect(result.failure.issues).toEqual([
      {
        field: 'amount',
        rule: 'amount_range',
        message: 'amount: must be between 1 and 10000000 rupiah for qris_dynamic (got a number too large to be exact)',
        params: { min: 1, max: 10_000_000 },
      },
    ]);
    expect(appHost.loket.log.list()).toHaveLength(0);
  });
});

describe("a line's name: a right-to-left override or a zero-width character is refused as in an item name", () => {
  it.each([
    ['\\u202e', 'U+202E'],
    ['\\u200b', 'U+200B'],
    ['\\u2066', 'U+2066'],
  ])('%s in a free line’s name: the field, the rule and the character, at quote and at charge', async (char, code) => {
    const named = line('').replace('"Es batu"', `"Kopi${char}gnp.exe"`);
    const rule =
      '1 to 80 characters, without control, invisible or ' +
      `text-direction characters: it contains invisible or text-direction characters (found ${code})`;
    const quoted = await call('quoteSale', `{"args":[{"cart":${cart(named)}}]}`);
    expect(quoted.status).toBe(400);
    expect(quoted.answer.error).toMatchObject({
      code: 'invalid_arguments',
      message: `quoteSale: argument 0.cart.lines.0.name: ${rule}`,
      reason: { key: 'arguments.invalid', params: { field: '0.cart.lines.0.name' } },
    });
    // A charge checks the line's name itself (the counter quotes it again): refused as the line's field issue.
    const charged = await call(
      'chargeSale',
      `{"args":[{"cart":${cart(named)},"tenders":[{"kind":"cash","handed":5000}]}]}`,
    );
    expect(charged.status).toBe(200);
    expect(charged.answer.result).toMatchObject({
      ok: false,
      saleId: null,
      issues: [{ field: 'lines[0].name', rule: 'format', message: `lines[0].name: ${rule}` }],
    });
    expect(appHost.loket.log.list()).toHaveLength(0);
  });

  it('an emoji written with joiners is still a name', async () => {
    const { status, answer } = await call(
      'quoteSale',
      `{"args":[{"cart":${cart(line('').replace('"Es batu"', '"Chef \\ud83d\\udc69\\u200d\\ud83c\\udf73"'))}}]}`,
    );
    expect(status, JSON.stringify(answer)).toBe(200);
    expect(answer.result).toMatchObject({ ok: true });
  });
});
