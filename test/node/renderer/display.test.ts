// @vitest-environment jsdom
// The customer display's store: the server's state, live, and the first answer never overwriting a newer one.
import { expect, test } from 'vitest';
import type { DisplayState } from '../../../src-main/common/api';
import type { ConnectionStatus, DisplayClient, LiveChannel } from '../../../src-renderer/src/api/client';
import { CallError } from '../../../src-renderer/src/api/errors';
import { i18n } from '../../../src-renderer/src/i18n/i18n.svelte';
import { DisplayStore } from '../../../src-renderer/src/state/display.svelte';
import { DISPLAY_IDLE, settle } from './fake-client';

class FakeDisplayLive implements LiveChannel<DisplayState> {
  status: ConnectionStatus = 'connecting';
  closed = false;
  readonly listeners = new Set<(state: DisplayState) => void>();
  readonly statusListeners = new Set<(status: ConnectionStatus) => void>();
  subscribe(listener: (state: DisplayState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    listener(this.status);
    return () => this.statusListeners.delete(listener);
  }
  close(): void {
    this.closed = true;
  }
  push(state: DisplayState): void {
    for (const listener of this.listeners) listener(state);
  }
  setStatus(status: ConnectionStatus): void {
    for (const listener of this.statusListeners) listener(status);
  }
}

function setup() {
  const live = new FakeDisplayLive();
  let answer!: { resolve: (state: DisplayState) => void; reject: (err: unknown) => void };
  const current = new Promise<DisplayState>((resolve, reject) => (answer = { resolve, reject }));
  const client: DisplayClient = { transport: 'http', current: () => current, live };
  const store = new DisplayStore(client);
  store.start();
  return { live, answer, store };
}

const paying: DisplayState = {
  ...DISPLAY_IDLE,
  lang: 'en',
  order: {
    amount: 25000,
    itemName: 'Kopi susu',
    methodLabel: { id: 'QRIS', en: 'QRIS' },
    provider: 'QRIS',
    kind: 'qris',
    state: 'awaiting_payment',
  },
};

test("the current state is shown, in the store's language", async () => {
  const { answer, store } = setup();
  answer.resolve(paying);
  await settle();
  expect(store.state).toBe(paying);
  expect(i18n.lang).toBe('en');
});

test('a live message that came first is not overwritten by the older first answer', async () => {
  const { live, answer, store } = setup();
  live.push(paying);
  answer.resolve(DISPLAY_IDLE);
  await settle();
  expect(store.state).toBe(paying);
});

test('a failed first answer is shown until the stream brings a state; the status follows the channel', async () => {
  const { live, answer, store } = setup();
  answer.reject(new CallError('forbidden', 'bad key', 401));
  await settle();
  expect(store.error?.status).toBe(401);
  live.setStatus('open');
  live.push(DISPLAY_IDLE);
  expect(store.error).toBeNull();
  expect(store.state).toBe(DISPLAY_IDLE);
  expect(store.connection).toBe('open');
  store.dispose();
  expect(live.closed).toBe(true);
});
