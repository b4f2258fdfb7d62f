// Browser mode's HTTP surface, from outside the page: a token for the cashier API, our Host only, and a
// customer display key that can read and nothing else. Plus what the pages do with their secrets.
import { request } from 'node:http';
import { chargeToPanel, expect, fillSale, prints, test } from './fixtures';

interface RawResponse {
  status: number;
  body: string;
}

/** A raw request, so the Host header can be anything (fetch will not let us set it). */
function raw(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const headers = {
      ...options.headers,
      ...(options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) }),
    };
    const req = request({ hostname, port, path, method: options.method ?? 'GET', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const json = { 'content-type': 'application/json' };
const order = JSON.stringify({ args: [{ methodId: 'qris_dynamic', amount: 1000, itemName: 'Permen' }] });

test('the cashier API needs the token: none or a wrong one is 401', async ({ loket }) => {
  expect(
    (await raw(loket.url, '/api/call/appInfo', { method: 'POST', headers: json, body: '{"args":[]}' })).status,
  ).toBe(401);
  const wrong = await raw(loket.url, '/api/call/createOrder', {
    method: 'POST',
    headers: { ...json, authorization: 'Bearer not-the-token' },
    body: order,
  });
  expect(wrong.status).toBe(401);
  expect((await raw(loket.url, '/api/events')).status).toBe(401);
  const right = await raw(loket.url, '/api/call/appInfo', {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${loket.token}` },
    body: '{"args":[]}',
  });
  expect(right.status).toBe(200);
  expect(JSON.parse(right.body)).toMatchObject({ ok: true, result: { mode: 'sandbox' } });
  expect(await loket.call('listOrders', {})).toEqual([]);
});

test('a foreign Host header is refused with 421, even with the right token (DNS rebinding)', async ({ loket }) => {
  const port = new URL(loket.url).port;
  for (const host of ['evil.example', `evil.example:${port}`]) {
    expect((await raw(loket.url, '/', { headers: { host } })).status, host).toBe(421);
    const api = await raw(loket.url, '/api/call/createOrder', {
      method: 'POST',
      headers: { ...json, host, authorization: `Bearer ${loket.token}` },
      body: order,
    });
    expect(api.status, host).toBe(421);
    expect((await raw(loket.url, `/display/state?key=${loket.displayKey}`, { headers: { host } })).status, host).toBe(
      421,
    );
  }
  expect(await loket.call('listOrders', {})).toEqual([]);
});

test('the display key reads the display and cannot create or change anything', async ({ loket }) => {
  const key = loket.displayKey;
  const state = await raw(loket.url, `/display/state?key=${key}`);
  expect(state.status).toBe(200);
  expect(JSON.parse(state.body)).toEqual({
    ok: true,
    result: {
      mode: 'sandbox',
      storeName: 'Toko Loket',
      lang: 'id',
      idleMessage: '',
      timeZone: 'Asia/Jakarta',
      order: null,
    },
  });
  expect((await raw(loket.url, '/display/state')).status).toBe(401);

  for (const method of ['POST', 'PUT', 'DELETE']) {
    for (const path of ['/display/state', '/display/events', '/display/createOrder']) {
      const body = method === 'DELETE' ? {} : { headers: json, body: order };
      expect((await raw(loket.url, `${path}?key=${key}`, { method, ...body })).status, `${method} ${path}`).toBe(405);
    }
  }
  // The display key is not a cashier token.
  expect(
    (
      await raw(loket.url, '/api/call/createOrder', {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: order,
      })
    ).status,
  ).toBe(401);
  expect((await raw(loket.url, `/api/events?token=${key}`)).status).toBe(401);
  expect(await loket.call('listOrders', {})).toEqual([]);
});

test('the display stream sends the current state first, then every change, live', async ({ loket }) => {
  const controller = new AbortController();
  const response = await fetch(`${loket.url}/display/events?key=${loket.displayKey}`, { signal: controller.signal });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const messages: { type: string; state: { order: { itemName: string; state: string } | null } }[] = [];
  let buffer = '';
  const next = async () => {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const done = buffer.indexOf('\n\n');
      if (done >= 0) {
        const block = buffer.slice(0, done);
        buffer = buffer.slice(done + 2);
        const data = block.split('\n').find((line) => line.startsWith('data: '));
        if (data) return messages[messages.push(JSON.parse(data.slice(6))) - 1]!;
        continue;
      }
      const chunk = await Promise.race([
        reader.read(),
        new Promise<undefined>((r) => setTimeout(r, deadline - Date.now())),
      ]);
      if (!chunk || chunk.done) break;
      buffer += chunk.value;
    }
    throw new Error(`no display event within 5 s (got ${JSON.stringify(messages)})`);
  };
  try {
    expect(await next()).toMatchObject({ type: 'display', state: { order: null } });
    const result = await loket.call('createOrder', { methodId: 'qris_dynamic', amount: 1000, itemName: 'Permen' });
    expect(result.ok).toBe(true);
    let message = await next();
    while (message.state.order?.state !== 'awaiting_payment') message = await next();
    expect(message.state.order).toMatchObject({ itemName: 'Permen', state: 'awaiting_payment' });
    await loket.call('showOnDisplay', null);
    while ((message = await next()).state.order !== null);
  } finally {
    controller.abort();
  }
});

test('the pages keep their secret out of the address bar, and the display never calls the cashier API', async ({
  browser,
  loket,
}) => {
  const context = await browser.newContext();
  try {
    const cashier = await context.newPage();
    await cashier.goto(loket.cashierUrl);
    await expect(cashier.getByRole('button', { name: /^Tagih/ })).toBeVisible();
    expect(new URL(cashier.url()).hash).toBe('#/cashier');
    // The token is kept for this tab only, so a reload still works.
    await cashier.reload();
    await expect(cashier.getByRole('button', { name: /^Tagih/ })).toBeVisible();

    const display = await context.newPage();
    const calls: string[] = [];
    display.on('request', (r) => calls.push(new URL(r.url()).pathname));
    await display.goto(loket.displayUrl);
    await expect(display.getByText('Selamat datang')).toBeVisible();
    expect(new URL(display.url()).hash).toBe('#/display');
    expect(calls.filter((path) => path.startsWith('/api/'))).toEqual([]);
    expect(calls).toContain('/display/events');
    expect(await display.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(loket.token);

    // Without a secret, each page says which address to open instead.
    const bare = await context.newPage();
    await bare.goto(`${loket.url}/#/display`);
    await expect(bare.getByRole('heading', { name: 'Alamat layar pelanggan diperlukan' })).toBeVisible();
    await bare.goto(`${loket.url}/#/cashier?token=wrong`);
    await expect(bare.getByRole('alert')).toContainText('Akses ditolak');
  } finally {
    await context.close();
  }
});

test('both screens run under the Content-Security-Policy without errors, and it refuses inline scripts', async ({
  cashier,
  display,
}) => {
  const errors: string[] = [];
  for (const page of [cashier, display]) {
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => message.type() === 'error' && errors.push(`console: ${message.text()}`));
  }
  // A whole sale: the QR images (data: URLs) and the receipt's print frame all load.
  await fillSale(cashier, { amount: 41000, item: 'Nasi goreng', method: 'ewallet_shopeepay' });
  await chargeToPanel(cashier);
  await expect(display.getByTestId('display-qr')).toBeVisible();
  await cashier.getByRole('button', { name: 'Simulasikan pembayaran' }).click();
  await cashier.getByRole('button', { name: 'Cetak struk' }).click();
  await expect.poll(() => prints(cashier)).toHaveLength(1);
  expect((await prints(cashier))[0]).toContain('LUNAS');
  expect(errors).toEqual([]);

  for (const target of [cashier, display]) {
    const ran = await target.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.inlineScriptRan = "yes"';
      document.head.append(script);
      return document.body.dataset.inlineScriptRan === 'yes';
    });
    expect(ran).toBe(false);
    // base-uri 'none': a <base> put in the page cannot send its relative URLs elsewhere.
    const base = await target.evaluate(() => {
      const element = document.createElement('base');
      element.href = 'https://evil.example/';
      document.head.prepend(element);
      const resolved = new URL('x', document.baseURI).origin;
      element.remove();
      return resolved;
    });
    expect(base).toBe(new URL(target.url()).origin);
  }
});
