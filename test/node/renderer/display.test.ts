// @vitest-environment jsdom
// The customer display's store: the server's state, live, and the first answer never overwriting a newer one.
import { describe, expect, test } from 'vitest';
import type { DisplayState } from '../../../src-main/common/api';
import type { ConnectionStatus, DisplayClient, LiveChannel } from '../../../src-renderer/src/api/client';
import { CallError } from '../../../src-renderer/src/api/errors';
import { i18n } from '../../../src-renderer/src/i18n/i18n.svelte';
import { DisplayStore, THANK_YOU_MS, type Schedule } from '../../../src-renderer/src/state/display.svelte';
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

/** A clock the test moves: timers run when their time comes, never by waiting. */
class FakeTimers {
  now = 0;
  readonly #pending: { at: number; run: () => void; cancelled: boolean }[] = [];
  readonly schedule: Schedule = (run, ms) => {
    const timer = { at: this.now + ms, run, cancelled: false };
    this.#pending.push(timer);
    return () => {
      timer.cancelled = true;
    };
  };
  advance(ms: number): void {
    this.now += ms;
    for (const timer of this.#pending.splice(0)) {
      if (timer.cancelled) continue;
      if (timer.at <= this.now) timer.run();
      else this.#pending.push(timer);
    }
  }
  get waiting(): number {
    return this.#pending.filter((t) => !t.cancelled).length;
  }
}

function setup() {
  const live = new FakeDisplayLive();
  let answer!: { resolve: (state: DisplayState) => void; reject: (err: unknown) => void };
  const current = new Promise<DisplayState>((resolve, reject) => (answer = { resolve, reject }));
  const client: DisplayClient = { transport: 'http', current: () => current, live };
  const timers = new FakeTimers();
  const store = new DisplayStore(client, { schedule: timers.schedule });
  store.start();
  return { live, answer, store, timers };
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

const paid: DisplayState = { ...paying, lang: 'id', order: { ...paying.order!, state: 'paid' } };

describe('back to the welcome screen after "thank you"', () => {
  test('the paid order shows for a few seconds, then the display is idle by itself', () => {
    const { live, store, timers } = setup();
    live.push(paid);
    expect(store.order?.state).toBe('paid');
    timers.advance(THANK_YOU_MS - 1);
    expect(store.order?.state).toBe('paid');
    timers.advance(1);
    expect(store.order).toBeNull();
    // The server's state is unchanged: only what is shown went back to idle.
    expect(store.state).toBe(paid);
  });

  test('news about the same paid order (a receipt printed) does not bring "thank you" back', () => {
    const { live, store, timers } = setup();
    live.push(paid);
    timers.advance(THANK_YOU_MS);
    live.push({ ...paid, order: { ...paid.order! } });
    expect(store.order).toBeNull();
    expect(timers.waiting).toBe(0);
  });

  test('the same news before the time is up does not restart the timer', () => {
    const { live, store, timers } = setup();
    live.push(paid);
    timers.advance(5000);
    live.push({ ...paid, order: { ...paid.order! } });
    timers.advance(THANK_YOU_MS - 5000);
    expect(store.order).toBeNull();
  });

  test('a new sale before the time is up is shown, and stops the timer', () => {
    const { live, store, timers } = setup();
    live.push(paid);
    timers.advance(2000);
    live.push(paying);
    expect(store.order?.state).toBe('awaiting_payment');
    expect(timers.waiting).toBe(0);
    timers.advance(THANK_YOU_MS);
    expect(store.order?.state).toBe('awaiting_payment');
  });

  test('the next sale that is paid gets its own "thank you", even for the same amount and item', () => {
    const { live, store, timers } = setup();
    live.push(paid);
    timers.advance(THANK_YOU_MS);
    live.push(paying);
    live.push(paid);
    expect(store.order?.state).toBe('paid');
    timers.advance(THANK_YOU_MS);
    expect(store.order).toBeNull();
  });

  test('an order that did not end paid (expired, cancelled) stays until the cashier moves on', () => {
    const { live, store, timers } = setup();
    const expired: DisplayState = { ...paying, order: { ...paying.order!, state: 'expired' } };
    live.push(expired);
    timers.advance(10 * THANK_YOU_MS);
    expect(store.order?.state).toBe('expired');
  });

  test('closing the display stops its timer', () => {
    const { live, store, timers } = setup();
    live.push(paid);
    store.dispose();
    expect(timers.waiting).toBe(0);
  });
});
