import type { LoketApi } from '../../../src-main/common/api';
import type { StoreLinkView } from '../../../src-main/common/store-book';

/** How often the header asks for the store book's link: the worker's own idle pass is 5 s. */
export const STORE_LINK_POLL_MS = 5_000;

/**
 * The store book's link for the cashier's header (docs/store-book.md): asked once when the screen opens, and then
 * every few seconds only where a store book is set up (enrolling needs a restart, so a till not enrolled stays so).
 * A failed ask keeps the last answer: the connection banner already says when the till's own server is gone.
 */
export class StoreLinkWatch {
  link = $state<StoreLinkView | null>(null);
  #timer: ReturnType<typeof setInterval> | undefined;
  #disposed = false;

  constructor(
    private readonly api: Pick<LoketApi, 'storeLink'>,
    private readonly everyMs = STORE_LINK_POLL_MS,
  ) {}

  async start(): Promise<void> {
    await this.refresh();
    if (this.#disposed || !this.link || this.link.state === 'not_enrolled') return;
    this.#timer = setInterval(() => void this.refresh(), this.everyMs);
  }

  async refresh(): Promise<void> {
    try {
      const link = await this.api.storeLink();
      if (!this.#disposed) this.link = link;
    } catch {
      // Kept as it was (see above).
    }
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }
}
