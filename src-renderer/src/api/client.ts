import type { DisplayState, LiveEvent, LoketApi } from '../../../src-main/common/api';

/** Whether the live channel is up; `down` means it is reconnecting. */
export type ConnectionStatus = 'connecting' | 'open' | 'down';

/** A stream of live messages that reconnects by itself and reports its state. */
export interface LiveChannel<T> {
  subscribe(listener: (message: T) => void): () => void;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  readonly status: ConnectionStatus;
  close(): void;
}

/** What the cashier screen talks to: the whole API and the live order events, over IPC or HTTP. */
export interface CashierClient {
  readonly transport: 'ipc' | 'http';
  readonly api: LoketApi;
  readonly live: LiveChannel<LiveEvent>;
}

/** What the customer display talks to: read-only, never the cashier's API. */
export interface DisplayClient {
  readonly transport: 'ipc' | 'http';
  /** The state to show now. */
  current(): Promise<DisplayState>;
  readonly live: LiveChannel<DisplayState>;
}
