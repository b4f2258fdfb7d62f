import type { DisplayState, LiveEvent, LoketApi } from '../../../src-main/common/api';
import type { Reason } from '../../../src-main/common/reasons';
import type { DownloadTicket } from '../../../src-main/common/reports';

/** Whether the live channel is up; `down` means it is reconnecting. */
export type ConnectionStatus = 'connecting' | 'open' | 'down';

/** A stream of live messages that reconnects by itself and reports its state. */
export interface LiveChannel<T> {
  subscribe(listener: (message: T) => void): () => void;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  readonly status: ConnectionStatus;
  close(): void;
}

/** What became of an export handed over to be saved. */
export type ExportDelivery =
  /** Browser mode: the file went to the browser's downloads, under this name. */
  | { kind: 'downloaded'; filename: string }
  /** The desktop app: written where the manager chose in the save dialog. */
  | { kind: 'saved'; path: string }
  /** The desktop app: the dialog was cancelled, or the file could not be written (the server's words say which). */
  | { kind: 'not_saved'; message: string; reason?: Reason };

/** What the cashier screen talks to: the whole API and the live order events, over IPC or HTTP. */
export interface CashierClient {
  readonly transport: 'ipc' | 'http';
  readonly api: LoketApi;
  readonly live: LiveChannel<LiveEvent>;
  /**
   * Saves an export prepared with prepareExport: a download in browser mode, the OS's save dialog in the desktop
   * app, so the screens need not know which. A failure to fetch it (gone, or cut off) is a CallError.
   */
  deliverExport(ticket: DownloadTicket): Promise<ExportDelivery>;
}

/** What the customer display talks to: read-only, never the cashier's API. */
export interface DisplayClient {
  readonly transport: 'ipc' | 'http';
  /** The state to show now. */
  current(): Promise<DisplayState>;
  readonly live: LiveChannel<DisplayState>;
}
