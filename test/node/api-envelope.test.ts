import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';

// The IPC gate imports ipcMain; only `call` is exercised here, with senders built by hand.
vi.mock('electron', () => ({ ipcMain: { handle: vi.fn() } }));

import { dispatchApiCall, toApiError, ApiError, type ApiEnvelope, type ApiHandlers } from '../../src-main/common/api';
import {
  IllegalTransitionError,
  InvalidReasonError,
  OrderNotFoundError,
  DuplicateOrderError,
  OrderStateError,
} from '../../src-main/common/order-policy';
import { call as ipcCall } from '../../src-main/electron/ipc-api';

/** The cashier's window: the one a single-window caller means. */
const asCashier = () => 'cashier' as const;
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { startWebHost, type WebHost } from '../../src-main/web/web-host';
import { CallError, toCallError, unwrap } from '../../src-renderer/src/api/errors';
import { describeError } from '../../src-renderer/src/state/describe-error';
import { en } from '../../src-renderer/src/i18n/en';
import { id } from '../../src-renderer/src/i18n/id';
import { tempDir } from './helpers/loket';

describe('toApiError: one mapping from what core throws to what a caller sees', () => {
  it.each([
    [new OrderNotFoundError('T01-X'), 'not_found', 'no order T01-X'],
    [new IllegalTransitionError('T01-X', 'paid', 'cancelled'), 'conflict', 'order T01-X is paid'],
    [new InvalidReasonError(), 'invalid_arguments', 'reason: say why'],
    [new DuplicateOrderError('T01-X'), 'conflict', 'already exists'],
    [new OrderStateError('T01-X', 'paid', 'only an order waiting for payment can be paid'), 'conflict', 'is paid'],
    [new ApiError('forbidden', 'training only'), 'forbidden', 'training only'],
  ] as const)('%s → %s', (err, code, words) => {
    const mapped = toApiError(err);
    expect(mapped.code).toBe(code);
    expect(mapped.message).toContain(words);
  });

  it('anything else is internal, and tells nothing of its insides', () => {
    const mapped = toApiError(new Error('SqliteError: disk I/O error at /home/kasir/.config/Loket/loket.db'));
    expect(mapped.code).toBe('internal');
    expect(mapped.message).not.toMatch(/sqlite|loket\.db|kasir/i);
    expect(toApiError('a string').code).toBe('internal');
  });
});

describe('dispatchApiCall: the gate both transports pass', () => {
  const handlers = {
    getOrder: (id: string) => {
      if (id === 'boom') throw new Error('secret detail: appkey=abc');
      throw new OrderNotFoundError(id);
    },
  } as unknown as ApiHandlers;

  it('answers unknown methods, bad arguments, broken rules and faults as envelopes, logging only the faults', async () => {
    const internal: unknown[] = [];
    const onInternal = (_m: string, err: unknown) => internal.push(err);
    expect(await dispatchApiCall(handlers, 'dropTables', [], onInternal)).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
    expect(await dispatchApiCall(handlers, 'getOrder', [42], onInternal)).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', message: expect.stringContaining('getOrder: argument 0') },
    });
    // A broken rule carries its reason (the key and its parameters) beside the English, for a screen to word.
    expect(await dispatchApiCall(handlers, 'getOrder', ['T01-NOPE'], onInternal)).toEqual({
      ok: false,
      error: {
        code: 'not_found',
        message: 'no order T01-NOPE',
        reason: { key: 'order.not_found', params: { orderId: 'T01-NOPE' } },
      },
    });
    expect(await dispatchApiCall(handlers, 'getOrder', [42], onInternal)).toMatchObject({
      error: { reason: { key: 'arguments.invalid', params: { field: '0' } } },
    });
    expect(internal).toHaveLength(0);
    const fault = await dispatchApiCall(handlers, 'getOrder', ['boom'], onInternal);
    expect(fault).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(fault)).not.toContain('appkey');
    expect(internal).toHaveLength(1);
  });
});

describe('the same failure reads the same over IPC and over HTTP', () => {
  const dir = tempDir('loket-envelope-');
  let host: AppHost;
  let web: WebHost;
  let token: string;
  const appUrl = 'file:///app/index.html';
  const appFrame = { senderFrame: { url: appUrl, parent: null } } as never;
  const isAppUrl = (url: string) => url === appUrl;

  const staticDir = join(dir.path, 'renderer');

  beforeAll(async () => {
    mkdirSync(staticDir);
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Loket</title>');
    host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {} });
    web = await startWebHost({ app: host.app, staticDir, port: 0 });
    token = new URLSearchParams(web.cashierUrl.split('?')[1]).get('token')!;
  });
  afterAll(async () => {
    await web.close();
    await host.close();
    dir.remove();
  });

  async function overHttp(method: string, args: unknown[]): Promise<{ status: number; body: ApiEnvelope<unknown> }> {
    const res = await fetch(`${web.url}/api/call/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ args }),
    });
    return { status: res.status, body: (await res.json()) as ApiEnvelope<unknown> };
  }

  it('cancelling a paid order is a conflict naming the rule; an unknown id is not_found; a blank reason is refused', async () => {
    const charged = await host.app.createOrder({ methodId: 'qris_dynamic', amount: 12000, itemName: 'Kopi' });
    if (!charged.ok) throw new Error(charged.failure.message);
    await host.app.simulatePayment(charged.order.id);

    const cases: [string, unknown[], number, string, string][] = [
      ['cancelOrder', [charged.order.id, 'customer left'], 409, 'conflict', 'only an order that is'],
      ['cancelOrder', ['T01-NOPE', 'customer left'], 404, 'not_found', 'no order T01-NOPE'],
      ['retryOrder', ['T01-NOPE'], 404, 'not_found', 'no order T01-NOPE'],
      ['cancelOrder', [charged.order.id, '   '], 400, 'invalid_arguments', 'reason: say why'],
      ['simulatePayment', [charged.order.id], 409, 'conflict', 'only an order waiting for payment'],
    ];
    for (const [method, args, status, code, words] of cases) {
      const http = await overHttp(method, args);
      const ipc = await ipcCall(method, host.app, isAppUrl, appFrame, args, asCashier);
      expect(http.status, `${method} over HTTP`).toBe(status);
      expect(http.body).toMatchObject({ ok: false, error: { code, message: expect.stringContaining(words) } });
      // IPC answers the very same envelope: no code glued to a message, nothing to parse back.
      expect(ipc, `${method} over IPC`).toEqual(http.body);
    }
    expect((await host.app.getOrder(charged.order.id))!.state).toBe('paid');
  });

  it('an unexpected error names the log file that has its details, over HTTP and IPC alike, and on the screen', async () => {
    const logFile = join(dir.path, 'data', 'loket.log');
    const failing = Object.create(host.app, {
      appInfo: {
        value: () => {
          throw new Error('SqliteError: disk I/O error');
        },
      },
    }) as typeof host.app;
    const logged: string[] = [];
    const web2 = await startWebHost({ app: failing, staticDir, port: 0, logFile, log: (line) => logged.push(line) });
    try {
      const token2 = new URLSearchParams(web2.cashierUrl.split('?')[1]).get('token')!;
      const res = await fetch(`${web2.url}/api/call/appInfo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token2}` },
        body: JSON.stringify({ args: [] }),
      });
      const body = (await res.json()) as ApiEnvelope<unknown>;
      expect(res.status).toBe(500);
      expect(body).toEqual({
        ok: false,
        error: { code: 'internal', message: `Internal error in Loket; the log has the details: ${logFile}`, logFile },
      });
      // The details went to the log, not to the caller.
      expect(logged.join('\n')).toContain('web: appInfo failed: Error: SqliteError: disk I/O error');
      expect(JSON.stringify(body)).not.toMatch(/sqlite/i);
      const ipc = await ipcCall('appInfo', failing, isAppUrl, appFrame, [], asCashier, { logFile });
      expect(ipc).toEqual(body);
      // The screen: its own words, in its language, and where the log is.
      let thrown: unknown;
      try {
        unwrap(body as ApiEnvelope<never>, 500);
      } catch (err) {
        thrown = err;
      }
      expect(describeError(thrown as CallError, id)).toEqual({ text: id.errors.internal, detail: logFile });
      expect(describeError(thrown as CallError, en)).toEqual({ text: en.errors.internal, detail: logFile });
    } finally {
      await web2.close();
    }
  });

  it('IPC refuses a foreign page and a sub-frame, with an envelope that says nothing more', async () => {
    const foreign = { senderFrame: { url: 'https://evil.example/', parent: null } } as never;
    const subFrame = { senderFrame: { url: appUrl, parent: {} } } as never;
    const gone = { senderFrame: null } as never;
    for (const event of [foreign, subFrame, gone]) {
      expect(await ipcCall('appInfo', host.app, isAppUrl, event, [], asCashier)).toEqual({
        ok: false,
        error: { code: 'forbidden', message: 'Forbidden' },
      });
    }
    expect(await ipcCall('appInfo', host.app, isAppUrl, appFrame, [], asCashier)).toMatchObject({
      ok: true,
      result: { name: 'Loket' },
    });
  });
});

describe('the renderer reads envelopes, not words', () => {
  it('unwrap gives the result, or throws a CallError with the code and words', () => {
    expect(unwrap({ ok: true, result: 5 })).toBe(5);
    let thrown: unknown;
    try {
      unwrap({ ok: false, error: { code: 'conflict', message: 'order T01-1 is paid' } }, 409);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(CallError);
    expect(thrown).toMatchObject({ code: 'conflict', message: 'order T01-1 is paid', status: 409 });
  });

  it('toCallError keeps a CallError and hides anything else', () => {
    const original = new CallError('network', 'Loket did not answer.');
    expect(toCallError(original)).toBe(original);
    const hidden = toCallError(new Error('conflict: looks like a code but is only words'));
    expect(hidden.code).toBe('internal');
    expect(hidden.message).not.toContain('looks like');
  });
});
