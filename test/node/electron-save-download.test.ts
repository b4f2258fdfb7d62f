// The desktop app's "save the export": the file the manager picks gets the whole export, a cancelled dialog keeps
// the export ready, a failure leaves no file under the chosen name, and a ticket saves once. Real app host, real
// order log, real files; only the OS's save dialog is a function here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { dayIn } from '../../src-main/common/gateway-time';
import { saveDownload, type SaveDownloadDeps } from '../../src-main/electron/save-download';
import { tempDir } from './helpers/loket';

const dir = tempDir('loket-save-');
let host: AppHost;
let session = '';
const today = dayIn(new Date(), 'Asia/Jakarta');

beforeAll(async () => {
  host = await startAppHost({ version: 't', dataDir: join(dir.path, 'data'), env: {} });
  session = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
  for (const amount of [15000, 27500]) {
    const charged = await host.app.createOrder({ methodId: 'qris_dynamic', amount, itemName: 'Kopi susu' });
    if (!charged.order) throw new Error('the sale did not start');
    await host.app.simulatePayment(charged.order.id);
  }
});
afterAll(async () => {
  await host.close();
  dir.remove();
});

const deps = (
  choose: (name: string) => string | undefined,
  extra: Partial<SaveDownloadDeps> = {},
): SaveDownloadDeps => ({
  nameOf: (id) => host.app.downloadName(id),
  take: (id) => host.app.takeDownload(id),
  choosePath: async (name) => choose(name),
  ...extra,
});

const prepare = () => host.app.prepareExport(session, { from: today, to: today, format: 'csv', delimiter: ';' });

describe('saving an export in the desktop app', () => {
  it('writes the whole export to the file picked, starting the dialog at the export’s name; a ticket saves once', async () => {
    const ticket = await prepare();
    let offered = '';
    const target = join(dir.path, 'for-accounting.csv');
    const result = await saveDownload(
      ticket.downloadId,
      deps((name) => {
        offered = name;
        return target;
      }),
    );
    expect(result).toMatchObject({ saved: true, path: target });
    expect(offered).toBe(ticket.filename);
    const rows = parse(readFileSync(target, 'utf8'), { delimiter: ';', columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(2);
    expect(readdirSync(dir.path).filter((f) => f.endsWith('.part'))).toEqual([]);
    // Orders name customers: the file is this user's alone, as the command line's export.
    expect(statSync(target).mode & 0o777).toBe(0o600);

    const again = await saveDownload(
      ticket.downloadId,
      deps(() => join(dir.path, 'again.csv')),
    );
    expect(again.saved).toBe(false);
    expect(again.message).toMatch(/gone/);
    expect(existsSync(join(dir.path, 'again.csv'))).toBe(false);
  });

  it('a cancelled dialog saves nothing and keeps the export ready to save', async () => {
    const ticket = await prepare();
    const cancelled = await saveDownload(
      ticket.downloadId,
      deps(() => undefined),
    );
    expect(cancelled).toMatchObject({ saved: false, message: expect.stringMatching(/cancelled/) });
    const target = join(dir.path, 'second-try.csv');
    expect(
      await saveDownload(
        ticket.downloadId,
        deps(() => target),
      ),
    ).toMatchObject({ saved: true });
    expect(readFileSync(target, 'utf8')).toContain('Kopi susu');
  });

  it('a write that fails leaves no file under the chosen name, and says why', async () => {
    const ticket = await prepare();
    const target = join(dir.path, 'full-disk.csv');
    const failing = () =>
      new Writable({
        write(_chunk, _enc, done) {
          done(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
        },
      });
    const result = await saveDownload(
      ticket.downloadId,
      deps(() => target, { openFile: failing }),
    );
    expect(result.saved).toBe(false);
    expect(result.message).toMatch(/ENOSPC/);
    expect(existsSync(target)).toBe(false);
  });

  it('an id that was never prepared does not open the dialog', async () => {
    let asked = false;
    const result = await saveDownload(
      'never-prepared-ticket-id',
      deps(() => {
        asked = true;
        return join(dir.path, 'x.csv');
      }),
    );
    expect(result.saved).toBe(false);
    expect(asked).toBe(false);
  });
});
