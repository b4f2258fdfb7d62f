import { join } from 'node:path';
import { Backups } from '../core/backup/backups';
import type { ChargesInFlight } from '../core/backup/charges-in-flight';
import { QUIET_MS, Upkeep, type UpkeepTimers } from '../core/backup/upkeep';
import type { Clock } from '../core/ports';
import type { StoreBooks } from '../runtime';
import type { OrderRuntime } from './order-runtime';

/** When the till last took a call, on the injected clock: the full integrity check waits for QUIET_MS of none. */
export class QuietWindow {
  private lastCallAt: number;

  constructor(private readonly clock: Clock) {
    this.lastCallAt = clock.now().getTime();
  }

  /** A call came in (an order method). */
  touch(): void {
    this.lastCallAt = this.clock.now().getTime();
  }

  /** Whether a call came in the last QUIET_MS. */
  get recent(): boolean {
    return this.clock.now().getTime() - this.lastCallAt < QUIET_MS;
  }
}

/**
 * The host's upkeep (docs/when-things-break.md): backups of the store's books and their copies, which wait for the
 * charges in flight; the daily full check of every database in use, at a quiet moment (no open order, no call for
 * QUIET_MS); a database that fails it stops payments (`onDamaged`).
 */
export function hostUpkeep(deps: {
  store: StoreBooks;
  runtime: OrderRuntime;
  clock: Clock;
  quiet: QuietWindow;
  charges: ChargesInFlight;
  onDamaged: (message: string) => void;
  log: (line: string) => void;
  timers?: UpkeepTimers;
}): Upkeep {
  const { store, runtime } = deps;
  return new Upkeep({
    backups: new Backups(store.dataDir, deps.clock),
    storeDb: store.db,
    checked: () => [
      { path: join(store.dataDir, 'loket.db'), db: store.db },
      ...(runtime.current.loket.db !== store.db
        ? [{ path: join(store.dataDir, 'training', 'loket.db'), db: runtime.current.loket.db }]
        : []),
    ],
    copyTo: () => store.settings.load().backup.copyTo,
    busy: () => runtime.current.loket.log.countOpen() > 0 || deps.quiet.recent,
    charges: deps.charges,
    onDamaged: deps.onDamaged,
    log: deps.log,
    clock: deps.clock,
    ...(deps.timers ? { timers: deps.timers } : {}),
  });
}
