// npm run cli -- sale: the real CLI in a child process (and, for cash, the command in this process with an in-memory
// shift), against the sandbox gateway over real HTTP on 127.0.0.1, on real SQLite files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runSaleCommand } from '../../src-main/cli/sale-commands';
import { runShiftCommand } from '../../src-main/cli/shift-commands';
import { openStoreBooks } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { runCli } from './helpers/cli-child';
import { gatewayEnv, tempDir } from './helpers/loket';
import { MemoryCashLedger } from './helpers/memory-cash-ledger';

let sandbox: SandboxHandle;
const dir = tempDir('loket-cli-sale-');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
  dir.remove();
});

function env(): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LOKET_')) base[name] = value;
  return { ...base, LOKET_DATA_DIR: join(dir.path, 'data'), ...gatewayEnv(sandbox) };
}
const cli = (...args: string[]) => runCli(['sale', ...args], { env: env() });

interface SaleJson {
  ok: boolean;
  saleId: string | null;
  sale: Record<string, unknown> & { total: number; tenders: Record<string, unknown>[] };
  order: Record<string, unknown> | null;
  issues?: { field: string; rule: string }[];
}

describe('npm run cli -- sale', { timeout: 120_000 }, () => {
  it('rings up catalogue and free lines with a sale discount, charges QRIS, prints the sale and the order', async () => {
    const before = sandbox.orders.all().length;
    const r = await cli(
      '--line',
      'KOPI-SUSU*2',
      '--line',
      'free:Es batu=2000',
      '--discount',
      '10%',
      '--method',
      'qris_dynamic',
      '--json',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as SaleJson;
    // 36,000 + 2,000 = 38,000; 10% off = 3,800; total 34,200 (PPN inside: 34,200 × 11/111 = 3,389.18… → 3,389).
    expect(out.sale).toMatchObject({
      state: 'tendering',
      subtotal: 38_000,
      discounts: 3_800,
      total: 34_200,
      ppn: 3_389,
      lines: [
        { name: 'Kopi susu', qty: 2, sku: 'KOPI-SUSU' },
        { name: 'Es batu', qty: 1, unitPrice: 2_000 },
      ],
    });
    expect(out.order).toMatchObject({ amount: 34_200, itemName: 'Kopi susu +1', state: 'awaiting_payment' });
    expect(sandbox.orders.all().length).toBe(before + 1);
    expect(sandbox.orders.get(out.order!.id as string)).toBeTruthy();

    const text = await cli('--line', 'GULA-1', '--method', 'qris_dynamic');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/1 × Gula pasir 1 kg/);
    expect(text.stdout).toMatch(/subtotal +Rp\s?18\.500/);
    expect(text.stdout).toMatch(/PPN ppn +Rp\s?1\.833/);
    expect(text.stdout).toMatch(/total +Rp\s?18\.500/);
    expect(text.stdout).toMatch(/qris_dynamic order /);
  });

  it('invalid input exits 2 naming the flag, the field and the rule; nothing is sent', async () => {
    const before = sandbox.orders.all().length;
    const unknown = await cli('--line', 'NOPE', '--method', 'qris_dynamic');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--line #1: "NOPE": no active product has this barcode or SKU; nothing was sent/);
    const qty = await cli('--line', 'KOPI-SUSU*0', '--method', 'qris_dynamic');
    expect(qty.code).toBe(2);
    expect(qty.stderr).toMatch(/--line #1: QTY: a whole number from 1 to 9999/);
    const over = await cli('--line', 'KOPI-SUSU', '--discount', '50%', '--method', 'qris_dynamic');
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(
      /saleDiscount: 50% of the sale is above the 10% .* \(--discount\) \[manager_pin_required\]/,
    );
    const short = await cli('--line', 'KOPI-SUSU', '--pay', 'qris_dynamic:10000');
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/tenders: .*still due.* \(--pay\) \[incomplete\]/);
    const cash = await cli('--line', 'KOPI-SUSU', '--pay', 'cash:20000');
    expect(cash.code).toBe(2);
    expect(cash.stderr).toMatch(/no shift is open on this till.*\[no_open_shift\]/);
    const badPay = await cli('--line', 'KOPI-SUSU', '--pay', 'cash:lots');
    expect(badPay.code).toBe(2);
    expect(badPay.stderr).toMatch(/--pay #1: AMOUNT: a whole number of rupiah/);
    expect(sandbox.orders.all().length).toBe(before);
  });

  it('a discount over the limit goes through with a manager named and their PIN on standard input, audited', async () => {
    const store = openStoreBooks({ dataDir: join(dir.path, 'data') });
    try {
      await store.access.setupFirstManager('Sri', '4826');
    } finally {
      store.close();
    }
    const run = (pin: string) =>
      runCli(
        [
          'sale',
          '--line',
          'KOPI-SUSU',
          '--discount',
          '50%',
          '--method',
          'qris_dynamic',
          '--manager',
          'Sri',
          '--manager-pin-stdin',
          '--json',
        ],
        { env: env(), input: `${pin}\n` },
      );
    const wrong = await run('1111');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/managerPin: not accepted \(wrong_pin\)/);
    const right = await run('4826');
    expect(right.stderr).toBe('');
    expect(JSON.parse(right.stdout)).toMatchObject({ ok: true, order: { amount: 9_000 }, sale: { discounts: 9_000 } });
    const books = openStoreBooks({ dataDir: join(dir.path, 'data'), readOnly: true });
    try {
      expect(books.audit.list({ limit: 5 }).map((e) => e.action)).toContain('discount.approved');
    } finally {
      books.close();
    }
    // The PIN never reaches the output.
    expect(`${wrong.stdout}${wrong.stderr}${right.stdout}${right.stderr}`).not.toMatch(/4826|1111/);
  });

  it('other with its reference completes at once; a split of cash and QRIS records the cash in the shift', async () => {
    const other = await cli('--line', 'KOPI-SUSU', '--pay', 'other:18000:EDC-0042', '--json');
    expect(other.code).toBe(0);
    expect(JSON.parse(other.stdout)).toMatchObject({
      ok: true,
      order: null,
      sale: { state: 'completed', tenders: [{ kind: 'other', reference: 'EDC-0042', amount: 18_000 }] },
    });

    const ledger = new MemoryCashLedger('SHIFT-9');
    const out: string[] = [];
    const err: string[] = [];
    const code = await runSaleCommand(
      ['--line', 'NASI-GORENG', '--line', 'ES-TEH', '--pay', 'cash:20000', '--pay', 'qris_dynamic', '--json'],
      { dataDir: join(dir.path, 'data'), env: gatewayEnv(sandbox), cashLedger: () => ledger },
      { out: (t) => out.push(t), err: (t) => err.push(t) },
    );
    expect(err.join('')).toBe('');
    expect(code).toBe(0);
    const split = JSON.parse(out.join('')) as SaleJson;
    expect(split.sale.tenders).toMatchObject([
      { kind: 'cash', handed: 20_000, amount: 20_000, state: 'paid' },
      { kind: 'gateway', methodId: 'qris_dynamic', amount: 23_000, state: 'pending' },
    ]);
    expect(split.order).toMatchObject({ amount: 23_000 });
    expect(ledger.movements).toMatchObject([{ type: 'cash_tender', handed: 20_000, change: 0, shiftId: 'SHIFT-9' }]);
  });

  it('cash goes into the till’s open shift: shift open, a cash sale with change, the X report counts it', async () => {
    const data = tempDir('loket-cli-sale-shift-');
    try {
      const options = { dataDir: join(data.path, 'data'), env: gatewayEnv(sandbox) };
      const io = () => {
        const out: string[] = [];
        const err: string[] = [];
        return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
      };
      const refused = io();
      expect(await runSaleCommand(['--line', 'free:Kopi=18000', '--pay', 'cash:20000'], options, refused.io)).toBe(2);
      expect(refused.err.join('')).toMatch(/no shift is open on this till/);
      const opened = io();
      expect(await runShiftCommand(['open', '--float', '100000'], options, opened.io)).toBe(0);
      const sold = io();
      expect(
        await runSaleCommand(['--line', 'free:Kopi=18000', '--pay', 'cash:20000', '--json'], options, sold.io),
      ).toBe(0);
      const sale = JSON.parse(sold.out.join('')) as SaleJson;
      expect(sale.sale).toMatchObject({ state: 'completed', total: 18_000 });
      expect(sale.sale.tenders).toMatchObject([{ kind: 'cash', handed: 20_000, change: 2_000 }]);
      const report = io();
      expect(await runShiftCommand(['report', '--json'], options, report.io)).toBe(0);
      const x = JSON.parse(report.out.join('')) as {
        kind: string;
        cashTenders: { count: number; handed: number; change: number; net: number };
        expected: number;
      };
      expect(x.kind).toBe('X');
      expect(x.cashTenders).toEqual({ count: 1, handed: 20_000, change: 2_000, net: 18_000 });
      expect(x.expected).toBe(118_000);
    } finally {
      data.remove();
    }
  });
});
