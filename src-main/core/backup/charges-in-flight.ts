/**
 * The charges going on now (an order being created and sent, a charge sent again): while there is one, no backup
 * starts and a copy to the second folder writes nothing more (upkeep.ts). Recording a payment must not wait behind
 * a disk that is busy with a backup.
 */
export class ChargesInFlight {
  #count = 0;
  #none: { promise: Promise<void>; resolve: () => void } | null = null;

  get active(): boolean {
    return this.#count > 0;
  }

  /** Runs `charge`, counted as in flight until it settles. */
  async track<T>(charge: () => T | Promise<T>): Promise<Awaited<T>> {
    this.#count++;
    try {
      return await charge();
    } finally {
      this.#count--;
      if (this.#count === 0 && this.#none) {
        const none = this.#none;
        this.#none = null;
        none.resolve();
      }
    }
  }

  /** Resolves once no charge is in flight: at once when none is. */
  async whenNone(): Promise<void> {
    // Again after each wake-up: a charge may have started between the last one ending and this turn.
    while (this.#count > 0) {
      if (!this.#none) {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => (resolve = r));
        this.#none = { promise, resolve };
      }
      await this.#none.promise;
    }
  }
}
