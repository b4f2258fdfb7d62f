// The command line's output through a real pipe (`| cat`, as `| wc -c` or `| jq` would take it): a pipe holds
// 64 KiB, and what did not fit yet must still arrive after the command has finished its work (docs/cli.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Order } from '../../src-main/common/order';
import { dayRange } from '../../src-main/common/gateway-time';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { openStoreBooks } from '../../src-main/runtime';
import { SANDBOX_DEFAULTS } from '../../src-main/sandbox/server';
import { tempDir } from './helpers/loket';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DAY = '2026-11-23';
const ORDERS = 3000;

const dir = tempDir('loket-pipe-');
const env: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: dir.path,
  LOKET_DATA_DIR: join(dir.path, 'data'),
  // A gateway in the environment: the store's books are the live log (nothing is sent by a listing).
  LOKET_GATEWAY_URL: 'http://127.0.0.1:9',
  LOKET_APP_ID: SANDBOX_DEFAULTS.appId,
  LOKET_APP_KEY: SANDBOX_DEFAULTS.appKey,
};
let expected = '';

beforeAll(() => {
  // A busy month's day: thousands of orders, a listing of more than a megabyte.
  let at = Date.parse(`${DAY}T01:00:00.000Z`);
  const store = openStoreBooks({ dataDir: env.LOKET_DATA_DIR!, env, clock: { now: () => new Date(at) } });
  try {
    const log = new OrderLog(store.db, { now: () => new Date(at) });
    store.db.transaction(() => {
      for (let i = 0; i < ORDERS; i++) {
        at += 1000;
        const id = `T01-20261123-${String(i).padStart(9, '0')}-PIPE`;
        log.create(
          {
            id,
            terminalId: 'T01',
            api: 'v2',
            methodId: 'qris_dynamic',
            kind: 'qris',
            amount: 1000 + i,
            currency: 'IDR',
            itemName: `Nasi goreng spesial ${i}`,
            userId: 'walkin-t01',
            training: false,
            requestBody: '{}',
          },
          { source: 'cli' },
        );
        log.transition(id, 'unknown', { source: 'system', reason: 'test: a busy day' });
      }
    })();
    const orders: Order[] = log.list(dayRange(DAY, 'Asia/Jakarta')!);
    expected = JSON.stringify(orders, null, 2) + '\n';
  } finally {
    store.close();
  }
});
afterAll(() => dir.remove());

/** `loket ARGS | cat`, in bash: what came out of the pipe's far end, and the CLI's exit code (pipefail). */
function throughPipe(args: string[]): Promise<{ stdout: string; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'bash',
      ['-c', 'set -o pipefail; "$0" --import tsx src-main/cli.ts "$@" | cat', process.execPath, ...args],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout: Buffer.concat(out).toString('utf8'), code, stderr }));
  });
}

describe('output through a pipe', () => {
  it('orders list --json: all of a listing of more than a megabyte arrives, then the command ends', async () => {
    expect(Buffer.byteLength(expected)).toBeGreaterThan(1024 * 1024);
    const piped = await throughPipe(['orders', 'list', '--date', DAY, '--json']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(Buffer.byteLength(piped.stdout)).toBe(Buffer.byteLength(expected));
    expect(piped.stdout).toBe(expected);
  }, 60_000);
});
