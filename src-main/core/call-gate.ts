/**
 * Lets many calls run at once, or one exclusive task alone: the exclusive task (rebuilding the order runtime)
 * starts once every call in flight has finished, and calls that arrive meanwhile wait for it to end. A call
 * that answers synchronously stays synchronous while the gate is open.
 */
export class CallGate {
  private active = 0;
  private closed: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  run<T>(fn: () => T): T | Promise<Awaited<T>> {
    if (this.closed) return this.closed.then(() => this.run(fn)) as Promise<Awaited<T>>;
    this.active++;
    let result: T;
    try {
      result = fn();
    } catch (err) {
      this.leave();
      throw err;
    }
    if (result instanceof Promise) return result.finally(() => this.leave()) as Promise<Awaited<T>>;
    this.leave();
    return result;
  }

  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    while (this.closed) await this.closed;
    let open!: () => void;
    this.closed = new Promise<void>((resolve) => (open = resolve));
    try {
      if (this.active > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      return await fn();
    } finally {
      this.closed = null;
      open();
    }
  }

  private leave(): void {
    this.active--;
    if (this.active === 0 && this.drained) {
      const drained = this.drained;
      this.drained = null;
      drained();
    }
  }
}
