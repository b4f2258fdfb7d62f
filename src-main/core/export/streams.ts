import type { EventEmitter } from 'node:events';

/**
 * The same promise, marked as handled: a pipeline that fails while the export loop is busy must not count as
 * an unhandled rejection before the loop gets to await it.
 */
export function settled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * Waits for a stream to take more ('drain'), or fails with the export's pipeline (`done`): a destination that
 * breaks (a full disk, a closed download) must end the export, not leave it waiting for a drain that never comes.
 * One per export: it watches `done` once, however many times the loop waits.
 */
export class DrainWaiter {
  private failure: Error | undefined;
  private waiting: ((err?: Error) => void) | undefined;

  constructor(done: Promise<unknown>) {
    done.then(
      () => this.fail(new Error('the output was closed before the export had finished')),
      (err: unknown) => this.fail(err instanceof Error ? err : new Error(String(err))),
    );
  }

  wait(stream: EventEmitter): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      const finish = (err?: Error) => {
        stream.off('drain', onDrain);
        stream.off('error', finish);
        this.waiting = undefined;
        if (err === undefined) resolve();
        else reject(err);
      };
      const onDrain = () => finish();
      stream.on('drain', onDrain);
      stream.on('error', finish);
      this.waiting = finish;
    });
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.waiting?.(this.failure);
  }
}
