// The host's parts on the fake clock (src-main/host/): a download ticket's expiry, the quiet window the daily
// integrity check waits for, and the keychain state's cache. Through a real host (startAppHost on a real data
// folder, the embedded sandbox) where the part is reached through the API; each test has its own host.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { dayIn } from '../../src-main/common/gateway-time';
import { INTEGRITY_EVERY_MS, QUIET_MS } from '../../src-main/core/backup/upkeep';
import { DOWNLOAD_TTL_MS } from '../../src-main/host/downloads';
import { KEYCHAIN_STATUS_MS, KeychainStatusCache } from '../../src-main/host/keychain-status';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { secretLayersOf } from '../../src-main/adapters/secret-layers';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function hostOnFakeClock(): Promise<{ host: AppHost; clock: FakeClock }> {
  const dir = tempDir('loket-host-parts-');
  cleanup.push(() => dir.remove());
  const clock = new FakeClock();
  const host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {}, clock });
  cleanup.push(() => host.close());
  return { host, clock };
}

describe('a download ticket', () => {
  it('is taken within ten minutes of being prepared, and not a moment after', async () => {
    const { host, clock } = await hostOnFakeClock();
    const session = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
    const today = dayIn(clock.now(), 'Asia/Jakarta');
    const request = { from: today, to: today, format: 'csv' as const };

    const late = await host.app.prepareExport(session, request);
    const onTime = await host.app.prepareExport(session, request);
    clock.advance(DOWNLOAD_TTL_MS);
    expect(host.app.downloadName(late.downloadId)).toBe(late.filename);
    expect(host.app.takeDownload(onTime.downloadId)?.filename).toBe(onTime.filename);
    clock.advance(1);
    expect(host.app.downloadName(late.downloadId)).toBeUndefined();
    expect(host.app.takeDownload(late.downloadId)).toBeUndefined();
  });
});

describe('the quiet window', () => {
  it('the daily full check waits until no call has come for QUIET_MS', async () => {
    const { host, clock } = await hostOnFakeClock();
    const check = vi.spyOn(host.upkeep, 'check');
    clock.advance(INTEGRITY_EVERY_MS);
    await host.app.listOrders({});
    await host.upkeep.tick();
    expect(check).not.toHaveBeenCalled();
    clock.advance(QUIET_MS - 1);
    await host.upkeep.tick();
    expect(check).not.toHaveBeenCalled();
    clock.advance(1);
    await host.upkeep.tick();
    expect(check).toHaveBeenCalledTimes(1);
  });
});

describe("the keychain's state", () => {
  it('is probed once a minute at most', async () => {
    const clock = new FakeClock();
    let probes = 0;
    const cache = new KeychainStatusCache(secretLayersOf(new MemorySecretStore('test', {})), clock, async () => ({
      available: ++probes > 1,
    }));
    expect(await cache.status()).toEqual({ available: false });
    clock.advance(KEYCHAIN_STATUS_MS - 1);
    expect(await cache.status()).toEqual({ available: false });
    clock.advance(1);
    expect(await cache.status()).toEqual({ available: true });
    expect(probes).toBe(2);
  });
});
