/**
 * The store book's sync as its own process, for the tests that kill it (test/node/store-book-chaos.test.ts): a
 * SyncWorker on the data folder given as the argument, with LOKET_STORE_URL from the environment, printing each
 * status as a JSON line on stdout until it is killed. With LOKET_TEST_DIE_AFTER_COMMITS=n it kills itself
 * (SIGKILL) right after its n-th batch was committed by PostgreSQL, before the cursor moves — the worst moment.
 *
 *   node --import tsx test/node/helpers/sync-child.ts DATA_DIR
 */
import { systemClock } from '../../../src-main/core/ports';
import { LocalBook } from '../../../src-main/store-book/local-book';
import { SyncWorker } from '../../../src-main/store-book/sync-worker';

const dataDir = process.argv[2];
if (!dataDir) {
  process.stderr.write('usage: sync-child.ts DATA_DIR\n');
  process.exit(2);
}
const dieAfter = Number(process.env.LOKET_TEST_DIE_AFTER_COMMITS ?? 0);
let commits = 0;
const local = LocalBook.open(dataDir);
const worker = new SyncWorker({
  local,
  clock: systemClock,
  batchSize: Number(process.env.LOKET_TEST_BATCH_SIZE ?? 40),
  batchesPerPass: 4,
  idleMs: 40,
  backoff: { baseMs: 40, maxMs: 400 },
  afterCommit: () => {
    commits++;
    if (dieAfter > 0 && commits >= dieAfter) process.kill(process.pid, 'SIGKILL');
  },
});
worker.onStatus((s) => process.stdout.write(`${JSON.stringify(s)}\n`));
worker.start();
process.on('SIGTERM', () => {
  void worker.stop().then(() => process.exit(0));
});
