// config set-tax: the sale's tax, cash rounding and discount limits, changed from the command line (in this process,
// on a real data folder), audited, refused with the flag and the rule named, and read by the next sale.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runConfigCommand } from '../../src-main/cli/config-commands';
import { runSaleCommand } from '../../src-main/cli/sale-commands';
import { openStoreBooks } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { gatewayEnv, tempDir } from './helpers/loket';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';

let dir: ReturnType<typeof tempDir>;
let sandbox: SandboxHandle;
const out: string[] = [];
const err: string[] = [];
const io = { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) };

beforeEach(async () => {
  dir = tempDir('loket-cli-tax-');
  sandbox = await startSandbox({ port: 0 });
  out.length = 0;
  err.length = 0;
});
afterEach(async () => {
  await sandbox.close();
  dir.remove();
});

const dataDir = () => join(dir.path, 'data');
const config = (...args: string[]) => runConfigCommand(['set-tax', ...args], { dataDir: dataDir(), env: {} }, io);

describe('npm run cli -- config set-tax', () => {
  it('changes the settings, audits each field, and the next sale reads them (cash rounding to the nearest Rp100)', async () => {
    expect(await config('--ppn-rate', '11', '--cash-rounding', 'nearest', '--service-rate', '7.5%')).toBe(0);
    expect(out.join('')).toMatch(/changed: cash\.rounding, tax\.ppn\.rateBp, tax\.service\.rateBp/);
    const store = openStoreBooks({ dataDir: dataDir(), readOnly: true });
    try {
      const audit = store.audit.list({ limit: 10 }).filter((e) => e.action === 'settings.changed');
      expect(audit.map((e) => [e.field, e.detail])).toEqual(
        expect.arrayContaining([
          ['tax.ppn.rateBp', { from: 1200, to: 1100 }],
          ['cash.rounding', { from: 'off', to: 'nearest' }],
          ['tax.service.rateBp', { from: 500, to: 750 }],
        ]),
      );
    } finally {
      store.close();
    }
    out.length = 0;
    const code = await runSaleCommand(
      ['--line', 'free:Roti=18050', '--pay', 'cash:20000', '--json'],
      { dataDir: dataDir(), env: gatewayEnv(sandbox), cashLedger: () => new MemoryCashLedger() },
      io,
    );
    expect(err.join('')).toBe('');
    expect(code).toBe(0);
    // 18,050 rounded to the nearest Rp100 in cash: 18,100 (a +50 line), change 1,900.
    expect(JSON.parse(out.join(''))).toMatchObject({
      sale: { total: 18_050, rounding: 50, change: 1_900, tenders: [{ kind: 'cash', amount: 18_100 }] },
    });
  });

  it('refuses a bad value naming the flag and the rule, and changes nothing', async () => {
    expect(await config('--cash-rounding', 'up')).toBe(2);
    expect(err.join('')).toMatch(/cash\.rounding: 'off', 'down' .* \(--cash-rounding\)/);
    err.length = 0;
    expect(await config('--pkp', 'on')).toBe(2);
    expect(err.join('')).toMatch(/tax\.pkp\.npwp: required for a PKP store.* \(--npwp\)/);
    await expect(config('--ppn-rate', 'twelve')).rejects.toThrow(/--ppn-rate: a percentage such as 12/);
    out.length = 0;
    expect(await config('--json')).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({
      tax: { ppn: { rateBp: 1200 }, pkp: { enabled: false } },
      cash: { rounding: 'off' },
    });
  });
});
