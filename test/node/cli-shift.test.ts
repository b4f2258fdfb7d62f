// The shift commands (docs/cli.md, "Shifts"), in-process on a real data folder in training mode, with the cash
// drawer behind a TCP printer stand-in on 127.0.0.1 that records every byte it is sent; closing the day refuses
// while a shift is open, and the day report shows each shift's cash variance.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../src-main/common/settings';
import { runShiftCommand } from '../../src-main/cli/shift-commands';
import { runCloseDayCommand, runReportCommand, type ReportCommandOptions } from '../../src-main/cli/report-commands';
import { SETTINGS_KEY } from '../../src-main/core/settings/settings-store';
import { DRAWER_PULSE } from '../../src-main/core/shifts/drawer';
import { openStoreBooks } from '../../src-main/runtime';
import { FakeClock } from './helpers/fake-clock';
import { tempDir } from './helpers/loket';
import { printerStandIn } from './helpers/printer-stand-in';
import { waitFor } from './helpers/wait-for';

let dir: { path: string; remove: () => void };
let options: ReportCommandOptions;
let clock: FakeClock;

type Command = (
  argv: string[],
  options: ReportCommandOptions,
  io: { out(t: string): void; err(t: string): void },
) => Promise<number>;

async function run(command: Command, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await command(args, options, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}
const shift = (...args: string[]) => run(runShiftCommand, args);

function usePrinter(port: number): void {
  const store = openStoreBooks({ dataDir: dir.path, env: {} });
  store.settings.set(SETTINGS_KEY, {
    ...DEFAULT_SETTINGS,
    printer: { kind: 'network', host: '127.0.0.1', port, paper: 58, autoPrint: false },
  });
  store.close();
}

beforeEach(() => {
  dir = tempDir('loket-cli-shift-');
  clock = new FakeClock('2026-11-25T02:00:00.000Z'); // 09:00 in Jakarta
  options = { dataDir: dir.path, env: { LOKET_TERMINAL_ID: 'T07' }, clock };
});

afterEach(() => dir.remove());

describe('npm run cli -- shift', () => {
  it('opens, pays in and out, and closes with a blind count that prints expected, counted and difference', async () => {
    expect(await shift('open', '--float', '200000')).toMatchObject({
      code: 0,
      out: expect.stringContaining('T07-S0001'),
    });
    expect((await shift('pay-in', '--amount', '50000', '--reason', 'coins from the bank')).code).toBe(0);
    expect((await shift('pay-out', '--amount', '20000', '--reason', 'ice for the cooler')).code).toBe(0);

    const close = await shift('close', '--counted', '229000', '--json');
    expect(close.code).toBe(0);
    const answer = JSON.parse(close.out) as Record<string, unknown>;
    expect(answer).toMatchObject({ shiftId: 'T07-S0001', expected: 230_000, counted: 229_000, difference: -1000 });
    expect(answer).toMatchObject({ status: 'short', training: true, report: { kind: 'Z' } });

    const report = JSON.parse((await shift('report', '--json')).out) as Record<string, unknown>;
    expect(report).toMatchObject({ kind: 'Z', expected: 230_000, count: { counted: 229_000, difference: -1000 } });
    expect(report.payIns).toEqual([expect.objectContaining({ amount: 50_000, reason: 'coins from the bank' })]);
  });

  it('prints the close as text, and writes the report as ESC/POS and as an A4 page', async () => {
    await shift('open', '--float', '100000');
    const text = await shift('close', '--count', 'note50000=2,coin500=1');
    expect(text.out).toBe(
      'shift T07-S0001 closed [SANDBOX: the training log]\n' +
        '  expected    Rp100.000\n' +
        '  counted     Rp100.500\n' +
        '  difference  Rp500 (over)\n',
    );
    const html = join(dir.path, 'z.html');
    const escpos = join(dir.path, 'z.bin');
    expect((await shift('report', '--html', html, '--escpos', escpos, '--lang', 'en')).code).toBe(0);
    expect(readFileSync(html, 'utf8')).toContain('Z REPORT');
    expect(readFileSync(escpos).includes(Buffer.from('Blind count'))).toBe(true);
  });

  it('refuses bad input with exit 2, naming the field and the rule', async () => {
    // An amount is judged as typed, before anything is opened: the flag, the rule, both its ends, the text.
    await expect(shift('open', '--float=-5')).rejects.toThrow(
      '--float: a whole number of rupiah from 0 to 100000000000000 (got "-5")',
    );
    await shift('open', '--float', '1000');
    await expect(shift('pay-in', '--amount', '12.5', '--reason', 'coins')).rejects.toThrow(
      '--amount: a whole number of rupiah from 1 to 100000000000000 (got "12.5")',
    );
    expect(await shift('pay-out', '--amount', '500', '--reason', 'x')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^reason: say why, in 3 to 200 characters/),
    });
    expect(await shift('pay-out', '--amount', '5000', '--reason', 'the rent')).toMatchObject({
      code: 2,
      err: 'amount: Rp5.000 is more than the drawer should hold\n',
    });
    expect(await shift('close', '--count', 'note3000=1')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^denominations\.note3000: not an Indonesian note or coin/),
    });
    expect(await shift('open', '--float', '1000')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/already open/),
    });
    await expect(shift('pay-in', '--amount', '1')).rejects.toThrow(/--reason: is required/);
    await expect(shift('close')).rejects.toThrow(/--counted AMOUNT or --count/);
    await expect(shift('open', '--float', '1', '--reason', 'x')).rejects.toThrow(/--reason does not apply/);
  });

  it('with no open shift: pay-in and close are refused, saying to open one', async () => {
    expect(await shift('close', '--counted', '0')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/no shift is open/),
    });
    expect(await shift('report')).toMatchObject({ code: 2, err: expect.stringMatching(/no shift is open/) });
  });
});

describe('beside the app', () => {
  it('the report reads while another process holds the data folder; a change is refused', async () => {
    await shift('open', '--float', '1000');
    const app = openStoreBooks({ dataDir: dir.path, env: {}, holder: 'the app' });
    try {
      expect(JSON.parse((await shift('report', '--json')).out)).toMatchObject({ kind: 'X', expected: 1000 });
      await expect(shift('pay-in', '--amount', '5', '--reason', 'coins')).rejects.toThrow(/the app/);
    } finally {
      app.close();
    }
  });
});

describe('the drawer', () => {
  it('gets the ESC/POS pulse ESC p 0 25 250 through the network printer on open, pay-out, no sale and close', async () => {
    const printer = await printerStandIn();
    try {
      usePrinter(printer.port);
      expect((await shift('open', '--float', '100000')).err).toBe('');
      await shift('pay-out', '--amount', '1000', '--reason', 'parking');
      await shift('no-sale', '--reason', 'change for a note');
      await shift('close', '--counted', '99000');
      await waitFor(() => printer.jobs.length === 4, 'four drawer pulses at the printer');
      expect(DRAWER_PULSE).toEqual(Buffer.from([0x1b, 0x70, 0x00, 0x19, 0xfa]));
      for (const job of printer.jobs) expect(job.equals(DRAWER_PULSE)).toBe(true);
    } finally {
      await printer.close();
    }
  });

  it('that cannot be reached is a clear message; the shift and its events are written all the same', async () => {
    const printer = await printerStandIn();
    const port = printer.port;
    await printer.close(); // nothing listens there now
    usePrinter(port);
    const opened = await shift('open', '--float', '5000');
    expect(opened.code).toBe(0);
    expect(opened.err).toMatch(/^drawer: the cash drawer did not open: .*refused the connection.*open it by hand\n$/);
    const report = JSON.parse((await shift('report', '--json')).out) as { expected: number };
    expect(report.expected).toBe(5000);
  });
});

describe('closing the day', () => {
  it('refuses while a shift of that day is open, naming it; the day report shows each shift’s variance', async () => {
    await shift('open', '--float', '100000');
    const refused = await run(runCloseDayCommand, ['--date', '2026-11-25']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      /^2026-11-25 cannot be closed while shift T07-S0001 \(opened 2026-11-25 on T07\) is open/,
    );
    expect(existsSync(join(dir.path, 'backups'))).toBe(false);

    await shift('close', '--counted', '98000');
    // A second shift the same day, still open when the report is read.
    await shift('open', '--float', '50000');
    const day = JSON.parse((await run(runReportCommand, ['--date', '2026-11-25', '--json'])).out) as {
      shifts: unknown[];
    };
    expect(day.shifts).toEqual([
      expect.objectContaining({
        id: 'T07-S0001',
        state: 'closed',
        expected: 100_000,
        counted: 98_000,
        difference: -2000,
      }),
      expect.objectContaining({ id: 'T07-S0002', state: 'open', expected: 50_000 }),
    ]);
    expect(day.shifts[1]).not.toHaveProperty('difference');
    await shift('close', '--counted', '50000');
    expect((await run(runCloseDayCommand, ['--date', '2026-11-25'])).code).toBe(0);
  });

  it('does not wait for a shift that opened on a later day', async () => {
    clock = new FakeClock('2026-11-25T18:00:00.000Z'); // 01:00 on the 26th in Jakarta
    options = { ...options, clock };
    await shift('open', '--float', '100000');
    expect((await run(runCloseDayCommand, ['--date', '2026-11-25'])).code).toBe(0);
  });
});
