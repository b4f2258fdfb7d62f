import {
  clientMethods,
  type ApiEnvelope,
  type ApiMethodName,
  type DisplayState,
  type LiveEvent,
} from '../../../src-main/common/api';
import type { DownloadTicket } from '../../../src-main/common/reports';
import { saveFile } from '../lib/download';
import type { CashierClient, DisplayClient, ExportDelivery } from './client';
import { CallError, unwrap } from './errors';
import { EventSourceChannel } from './live-channel';

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

  const live = new EventSourceChannel<LiveEvent>(`/api/events?token=${encodeURIComponent(token)}`, (data) => {
    const event = data as Partial<LiveEvent> | null;
    return event && (event.type === 'order' || event.type === 'display' || event.type === 'info')
      ? (event as LiveEvent)
      : undefined;
  });
  return { transport: 'http', api: clientMethods(call), live, deliverExport: (ticket) => download(token, ticket) };
}

/**
 * Browser mode's export: `GET /api/download/{id}`, fetched whole before it is handed to the browser's
 * downloads. Fetched rather than followed as a link, so that a ticket gone stale is told on the screen (the
 * server's 404 envelope), and a file cut off midway (the server drops the connection) is never saved as if whole.
 */
async function download(token: string, ticket: DownloadTicket): Promise<ExportDelivery> {
  const response = await request(`/api/download/${encodeURIComponent(ticket.downloadId)}`, {
    method: 'GET',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) {
    await readEnvelope(response);
    throw new CallError('internal', `Loket answered HTTP ${response.status}.`, response.status);
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (err) {
    throw new CallError('network', `The export was cut off (${(err as Error).message}).`);
  }
  saveFile(blob, ticket.filename);
  return { kind: 'downloaded', filename: ticket.filename };
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
