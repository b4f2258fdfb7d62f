import type { DisplayOrder, DisplayState } from '../../../src-main/common/api';
import type { ConnectionStatus, DisplayClient } from '../api/client';
import { toCallError, type CallError } from '../api/errors';
import { i18n } from '../i18n/i18n.svelte';
import { markDisplayEvent } from '../lib/timing';

/** Runs `run` once after `ms`; the function returned cancels it. Tests pass their own. */
export type Schedule = (run: () => void, ms: number) => () => void;

export const systemSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/** How long the customer sees "thank you" before the display goes back to its welcome screen. */
export const THANK_YOU_MS = 8000;

export interface DisplayStoreOptions {
  schedule?: Schedule;
  thankYouMs?: number;
}

/** What identifies a paid order on the display (it carries no id): everything the customer sees of it. */
function paidKey(order: DisplayOrder | null): string | null {
  return order?.state === 'paid' ? JSON.stringify(order) : null;
}

/**
 * The customer display's state: whatever the server says to show, live; it can change nothing. One thing is
 * its own: a few seconds after "thank you" it goes back to its welcome screen by itself, and stays there for
 * that paid order (a later message about the same order does not bring "thank you" back).
 */
export class DisplayStore {
  #state = $state.raw<DisplayState | null>(null);
  /** The paid order whose "thank you" has had its time. */
  #doneKey = $state<string | null>(null);
  #connection = $state<ConnectionStatus>('connecting');
  #error = $state.raw<CallError | null>(null);
  readonly #cleanups: (() => void)[] = [];
  #live = false;
  /** The paid order the timer runs for, and how to stop it. */
  #timerKey: string | null = null;
  #cancelTimer: (() => void) | null = null;
  readonly #client: DisplayClient;
  readonly #schedule: Schedule;
  readonly #thankYouMs: number;

  constructor(client: DisplayClient, options: DisplayStoreOptions = {}) {
    this.#client = client;
    this.#schedule = options.schedule ?? systemSchedule;
    this.#thankYouMs = options.thankYouMs ?? THANK_YOU_MS;
  }

  /** The server's state, as it came. */
  get state(): DisplayState | null {
    return this.#state;
  }

  /** The order to show: the server's, or none once "thank you" has had its time. */
  get order(): DisplayOrder | null {
    const order = this.#state?.order ?? null;
    const key = paidKey(order);
    return key !== null && key === this.#doneKey ? null : order;
  }

  get connection(): ConnectionStatus {
    return this.#connection;
  }

  get error(): CallError | null {
    return this.#error;
  }

  start(): void {
    this.#cleanups.push(
      this.#client.live.subscribe((state) => {
        markDisplayEvent();
        this.#show(state, true);
      }),
    );
    this.#cleanups.push(this.#client.live.onStatus((status) => (this.#connection = status)));
    this.#client.current().then(
      (state) => {
        // The stream's first message is as fresh or fresher: the first answer to arrive is not always the newest.
        if (!this.#live) this.#show(state, false);
      },
      (err: unknown) => {
        if (!this.#state) this.#error = toCallError(err);
      },
    );
  }

  #show(state: DisplayState, live: boolean): void {
    if (live) this.#live = true;
    this.#error = null;
    this.#state = state;
    this.#followThankYou(paidKey(state.order));
    if (i18n.lang !== state.lang || document.documentElement.lang !== state.lang) i18n.set(state.lang);
  }

  #followThankYou(key: string | null): void {
    if (key === null) {
      // Anything but a paid order: the next "thank you" gets its full time again.
      this.#stopTimer();
      this.#doneKey = null;
      return;
    }
    if (key === this.#doneKey || key === this.#timerKey) return;
    this.#stopTimer();
    this.#doneKey = null;
    this.#timerKey = key;
    this.#cancelTimer = this.#schedule(() => {
      this.#cancelTimer = null;
      this.#timerKey = null;
      this.#doneKey = key;
    }, this.#thankYouMs);
  }

  #stopTimer(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = null;
    this.#timerKey = null;
  }

  dispose(): void {
    this.#stopTimer();
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    this.#client.live.close();
  }
}
