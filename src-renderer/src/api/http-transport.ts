import type { ApiMethodName, DisplayState, LiveEvent, LoketApi } from '../../../src-main/common/api';
import type { CashierClient, DisplayClient } from './client';
import { CallError } from './errors';
import { EventSourceChannel } from './live-channel';

/** Every method of the contract; `satisfies` makes a method added to the contract fail to compile here. */
const METHODS = {
  appInfo: true,
  listMethods: true,
  listItems: true,
  createOrder: true,
  getOrder: true,
  listOrders: true,
  cancelOrder: true,
  retryOrder: true,
  simulatePayment: true,
  showOnDisplay: true,
  displayState: true,
  receipt: true,
  printReceipt: true,
} as const satisfies Record<ApiMethodName, true>;

type Envelope<T> = { ok: true; result: T } | { ok: false; error: { code: CallError['code']; message: string } };

async function readEnvelope<T>(response: Response): Promise<T> {
  let body: Envelope<T>;
  try {
    body = (await response.json()) as Envelope<T>;
  } catch {
    throw new CallError('internal', `Loket answered HTTP ${response.status} without a readable body.`, response.status);
  }
  if (body && body.ok === true) return body.result;
  const error = body && body.ok === false ? body.error : undefined;
  throw new CallError(error?.code ?? 'internal', error?.message ?? `HTTP ${response.status}`, response.status);
}

async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, cache: 'no-store', credentials: 'omit' });
  } catch (err) {
    throw new CallError('network', `Loket did not answer (${(err as Error).message}).`);
  }
}

/** Browser mode, cashier: `POST /api/call/{method}` with the bearer token, live events over SSE. */
export function httpCashierClient(token: string): CashierClient {
  const call = async (method: ApiMethodName, args: unknown[]): Promise<unknown> => {
    const response = await request(`/api/call/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ args }),
    });
    return readEnvelope(response);
  };
  const api: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of Object.keys(METHODS) as ApiMethodName[]) api[method] = (...args) => call(method, args);

  const live = new EventSourceChannel<LiveEvent>(`/api/events?token=${encodeURIComponent(token)}`, (data) => {
    const event = data as Partial<LiveEvent> | null;
    return event && (event.type === 'order' || event.type === 'display') ? (event as LiveEvent) : undefined;
  });
  return { transport: 'http', api: api as LoketApi, live };
}

/** Browser mode, customer display: read-only, with its own key. It never sees the cashier's token. */
export function httpDisplayClient(key: string): DisplayClient {
  const query = `key=${encodeURIComponent(key)}`;
  const live = new EventSourceChannel<DisplayState>(`/display/events?${query}`, (data) => {
    const event = data as Partial<LiveEvent> | null;
    return event?.type === 'display' && event.state ? event.state : undefined;
  });
  return {
    transport: 'http',
    current: async () => readEnvelope<DisplayState>(await request(`/display/state?${query}`, { method: 'GET' })),
    live,
  };
}
