// @vitest-environment jsdom
// Browser mode's live channel for the cashier: order, display and info events come through; anything else not.
import { afterEach, expect, test, vi } from 'vitest';
import type { LiveEvent } from '../../../src-main/common/api';
import { httpCashierClient } from '../../../src-renderer/src/api/http-transport';
import { appInfo, tillStatus } from './fake-client';

class FakeEventSource {
  static last: FakeEventSource | undefined;
  static readonly CLOSED = 2;
  readyState = 1;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  close(): void {
    this.readyState = 2;
  }
}

afterEach(() => vi.unstubAllGlobals());

test('info events reach the cashier screen, with the order and display events; unknown ones do not', () => {
  vi.stubGlobal('EventSource', FakeEventSource);
  const client = httpCashierClient('token-1');
  const seen: LiveEvent[] = [];
  client.live.subscribe((event) => seen.push(event));
  const source = FakeEventSource.last!;
  expect(source.url).toBe('/api/events?token=token-1');
  const info: LiveEvent = { type: 'info', info: appInfo({ mode: 'live' }), till: tillStatus() };
  source.onmessage!({ data: JSON.stringify(info) });
  source.onmessage!({ data: JSON.stringify({ type: 'secret', value: 'x' }) });
  source.onmessage!({ data: 'not json' });
  expect(seen).toEqual([info]);
  client.live.close();
});
