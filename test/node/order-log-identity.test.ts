// The order log deleted, replaced or cut short under a running Loket (docs/when-things-break.md): SQLite does not
// notice, so without a check the charges go on into a file no longer on disk. Real files, against a standalone
// sandbox whose own order list is the truth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { dispatchApiCall } from '../../src-main/common/api';
import { Backups, restoreBackup } from '../../src-main/core/backup/backups';
import { startAppHost } from '../../src-main/app-host';
import { openLoket, type Loket } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { gatewayEnv, tempDir } from './helpers/loket';

let gateway: SandboxHandle;
beforeAll(async () => {
  gateway = await startSandbox({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await gateway?.close();
});

const sell = (loket: Loket, n: number) =>
  loket.orders.create({ methodId: 'qris_dynamic', amount: 2000 + n, itemName: `Roti ${n}` }, { source: 'cli' });

/** What happens to the log file at `path` while Loket runs. */
const CHANGES = {
  deleted: (path: string) => rmSync(path),
  // A copy put in its place, as a restore or a file manager would: the same bytes, another file.
  replaced: (path: string) => {
    copyFileSync(path, `${path}.copy`);
    renameSync(`${path}.copy`, path);
  },
} as const;

describe('the order log deleted or replaced while Loket runs', () => {
  it.each(Object.keys(CHANGES) as (keyof typeof CHANGES)[])(
    '%s: every later charge is refused in the damaged-log words and nothing is sent; the orders it held are ' +
      'saved among the backups, and restoring that brings them back',
    async (change) => {
      const dir = tempDir(`loket-log-${change}-`);
      try {
        const loket = await openLoket({ dataDir: dir.path, env: gatewayEnv(gateway) });
        const file = join(dir.path, 'loket.db');
        const sold: string[] = [];
        let rescued = '';
        try {
          for (const n of [1, 2]) {
            const outcome = await sell(loket, n);
            expect(outcome.ok).toBe(true);
            sold.push(outcome.order!.id);
          }
          CHANGES[change](file);

          const atGateway = gateway.orders.all().length;
          for (const n of [3, 4, 5]) {
            const outcome = await sell(loket, n);
            expect(outcome.ok).toBe(false);
            expect(outcome.order).toBeUndefined();
            expect(!outcome.ok && outcome.failure.class).toBe('storage');
            const message = !outcome.ok ? outcome.failure.message : '';
            expect(message).toContain(`the order log ${file} was ${change === 'deleted' ? 'deleted' : 'replaced'}`);
            expect(message).toMatch(/takes no payments until it is restarted on a whole log\. Nothing was sent\./);
            rescued = /saved as (\S+):/.exec(message)?.[1] ?? '';
          }
          expect(gateway.orders.all()).toHaveLength(atGateway);
          expect(rescued).toMatch(/backups\/loket-\d{8}-\d{9}-rescued\.db$/);
          expect(statSync(rescued).mode & 0o777).toBe(0o600);
          // It is what `backup list` shows first, and what a start over a missing log names.
          expect(new Backups(dir.path).newest()?.path).toBe(rescued);
        } finally {
          await loket.close();
        }

        if (change === 'deleted') {
          await expect(openLoket({ dataDir: dir.path, env: gatewayEnv(gateway) })).rejects.toMatchObject({
            kind: 'missing',
            message: expect.stringContaining(`npm run cli -- restore ${rescued}`),
          });
        }
        rmSync(`${file}-wal`, { force: true });
        rmSync(`${file}-shm`, { force: true });
        restoreBackup(dir.path, rescued, { force: true });
        const back = await openLoket({ dataDir: dir.path, env: gatewayEnv(gateway) });
        try {
          for (const id of sold) expect(back.log.get(id)?.state).toBe('awaiting_payment');
          expect(back.log.list()).toHaveLength(2);
          expect((await sell(back, 6)).ok).toBe(true);
        } finally {
          await back.close();
        }
      } finally {
        dir.remove();
      }
    },
  );

  it('cut short: refused, naming the backups to restore from; nothing is sent, not even an unknown order again', async () => {
    const dir = tempDir('loket-log-cut-');
    try {
      const loket = await openLoket({ dataDir: dir.path, env: gatewayEnv(gateway) });
      try {
        expect((await sell(loket, 1)).ok).toBe(true);
        // An order whose outcome is unknown (the gateway failed once): "check again" would send it again.
        gateway.faults.set({
          latency_ms: 0,
          http_status: 503,
          drop_after_store: false,
          malformed_json: false,
          count: 1,
        });
        const unknown = await sell(loket, 2);
        expect(unknown.order?.state).toBe('unknown');
        truncateSync(join(dir.path, 'loket.db'), 0);
        const atGateway = gateway.orders.all().length;
        const outcome = await sell(loket, 3);
        expect(outcome).toMatchObject({ ok: false, failure: { class: 'storage' } });
        expect(!outcome.ok && outcome.failure.message).toMatch(
          /was cut short \(0 bytes, it had \d+\) while Loket was running.*restore the newest backup/,
        );
        const again = await loket.orders.resend(unknown.order!.id, { source: 'cashier' });
        expect(again).toMatchObject({ ok: false, failure: { class: 'storage' } });
        expect(gateway.orders.all()).toHaveLength(atGateway);
      } finally {
        await loket.close();
      }
    } finally {
      dir.remove();
    }
  });

  it('the cashier is told why, in those words, not "Internal error"', async () => {
    const dir = tempDir('loket-log-app-');
    try {
      const host = await startAppHost({ version: 't', dataDir: dir.path, env: gatewayEnv(gateway) });
      try {
        const first = await dispatchApiCall(
          host.app,
          'createOrder',
          [{ methodId: 'qris_dynamic', amount: 3000, itemName: 'Teh' }],
          () => undefined,
        );
        expect(first).toMatchObject({ ok: true, result: { ok: true } });
        await host.app.parkSale((first as { result: { order: { id: string } } }).result.order.id);

        rmSync(join(dir.path, 'loket.db'));
        const atGateway = gateway.orders.all().length;
        const charge = await dispatchApiCall(
          host.app,
          'createOrder',
          [{ methodId: 'qris_dynamic', amount: 3001, itemName: 'Teh' }],
          () => undefined,
        );
        expect(charge).toMatchObject({
          ok: true,
          result: { ok: false, failure: { class: 'storage', message: expect.stringMatching(/was deleted while/) } },
        });
        expect(gateway.orders.all()).toHaveLength(atGateway);
        expect(existsSync(join(dir.path, 'loket.db'))).toBe(false);
      } finally {
        await host.close();
      }
    } finally {
      dir.remove();
    }
  });
});
