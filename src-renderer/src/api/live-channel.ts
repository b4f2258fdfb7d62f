import type { ConnectionStatus, LiveChannel } from './client';

/** Listener bookkeeping shared by both transports. */
export class ChannelBase<T> implements LiveChannel<T> {
  private readonly listeners = new Set<(message: T) => void>();
  private readonly statusListeners = new Set<(status: ConnectionStatus) => void>();
  status: ConnectionStatus = 'connecting';

  subscribe(listener: (message: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    listener(this.status);
    return () => this.statusListeners.delete(listener);
  }

  protected emit(message: T): void {
    for (const listener of this.listeners) listener(message);
  }

  protected setStatus(status: ConnectionStatus): void {
    if (status === this.status) return;
    this.status = status;
    for (const listener of this.statusListeners) listener(status);
  }

  close(): void {
    this.listeners.clear();
    this.statusListeners.clear();
  }
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 15_000;

/**
 * Server-sent events that always come back: EventSource retries a dropped stream by itself, but gives up
 * for good on some failures (an HTTP error, a wrong content type); then a fresh one is opened with backoff.
 */
export class EventSourceChannel<T> extends ChannelBase<T> {
  private source: EventSource | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private retryMs = FIRST_RETRY_MS;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly parse: (data: unknown) => T | undefined,
  ) {
    super();
    this.open();
  }

  private open(): void {
    if (this.closed) return;
    const source = new EventSource(this.url);
    this.source = source;
    source.onopen = () => {
      this.retryMs = FIRST_RETRY_MS;
      this.setStatus('open');
    };
    source.onmessage = (event: MessageEvent<string>) => {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      const message = this.parse(data);
      if (message !== undefined) this.emit(message);
    };
    source.onerror = () => {
      this.setStatus('down');
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        if (this.source === source) this.source = null;
        this.timer = setTimeout(() => this.open(), this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
      }
    };
  }

  override close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.source?.close();
    this.source = null;
    super.close();
  }
}
