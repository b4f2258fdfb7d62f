import type { ApiEnvelope, ApiMethodName, DisplayState, LiveEvent, LoketApi } from '../../../src-main/common/api';
import type { CashierClient, DisplayClient } from './client';
import { CallError, unwrap } from './errors';
import { EventSourceChannel } from './live-channel';
import { API_METHODS } from './methods';

async function readEnvelope<T>(response: Response): Promise<T> {
  let body: ApiEnvelope<T> | null;
  try {
    body = (await response.json()) as ApiEnvelope<T> | null;
  } catch {
    body = null;
  }
  if (!body || typeof body.ok !== 'boolean') {
    throw new CallError('internal', `Loket answered HTTP ${response.status} without a readable body.`, response.status);
  }
  return unwrap(body, response.status);
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
  for (const method of API_METHODS) api[method] = (...args) => call(method, args);

  const live = new EventSourceChannel<LiveEvent>(`/api/events?token=${encodeURIComponent(token)}`, (data) => {
    const event = data as Partial<LiveEvent> | null;
    return event && (event.type === 'order' || event.type === 'display' || event.type === 'info')
      ? (event as LiveEvent)
      : undefined;
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
