import type { DisplayState } from '../../../src-main/common/api';
import type { ConnectionStatus, DisplayClient } from '../api/client';
import { toCallError, type CallError } from '../api/errors';
import { i18n } from '../i18n/i18n.svelte';

/** The customer display's state: whatever the server says to show, live; it can change nothing. */
export class DisplayStore {
  #state = $state.raw<DisplayState | null>(null);
  #connection = $state<ConnectionStatus>('connecting');
  #error = $state.raw<CallError | null>(null);
  readonly #cleanups: (() => void)[] = [];
  #live = false;
  readonly #client: DisplayClient;

  constructor(client: DisplayClient) {
    this.#client = client;
  }

  get state(): DisplayState | null {
    return this.#state;
  }

  get connection(): ConnectionStatus {
    return this.#connection;
  }

  get error(): CallError | null {
    return this.#error;
  }

  start(): void {
    this.#cleanups.push(this.#client.live.subscribe((state) => this.#show(state, true)));
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
    if (i18n.lang !== state.lang || document.documentElement.lang !== state.lang) i18n.set(state.lang);
  }

  dispose(): void {
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
    this.#client.live.close();
  }
}
