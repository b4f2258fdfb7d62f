// The end-of-day commands (docs/cli.md, "The day's books"): report, close-day, attention and attention resolve —
// in-process against a live store on a real file and a sandbox over loopback, with the store's fake clock; then
// the real CLI in a child process for what only it does (its usage, exit codes for a mistake on the line).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Order } from '../../src-main/common/order';
import { formatRupiah } from '../../src-main/common/money';
import { cliUser } from '../../src-main/cli/cli-support';
import { UsageError } from '../../src-main/cli/exit-codes';
import {
  runAttentionCommand,
  runCloseDayCommand,
  runReportCommand,
  type ReportCommandOptions,
} from '../../src-main/cli/report-commands';
import { dayReport, dayReportJson } from '../../src-main/core/reports/day-report';
import { faultSettingsSchema } from '../../src-main/sandbox/faults';
import { runCli } from './helpers/cli-child';
import { gatewayEnv, tempDir } from './helpers/loket';
import { openBooks, STORE_ZONE, type Books } from './helpers/books';

const DAY = '2025-03-14';
let books: Books;
let options: ReportCommandOptions;
const o: Record<string, Order> = {};
const me = cliUser().name;

async function run(
  command: typeof runReportCommand,
  args: string[],
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await command(args, options, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

beforeAll(async () => {
  books = await openBooks();
  // The commands run in this process, which holds the data folder (the store the live Loket here has open): a
  // command in another process would be refused while it runs (docs/cli.md, "Who writes the data folder").
  options = { dataDir: books.dir, env: gatewayEnv(books.sandbox), clock: books.clock, store: books.loket.store };
  o.paid = await books.sell({ amount: 1 }, books.staff.ani);
  await books.settle(o.paid.id, 'PAID');
  o.big = await books.sell({ methodId: 'va_bca', amount: 50_000_000, customerName: 'Siti Rahayu' }, books.staff.budi);
  await books.settle(o.big.id, 'PAID');
  await books.advance(1000);
  for (const name of ['unknown1', 'unknown2']) {
    o[name] = await books.unknownSale({ methodId: 'va_bni', amount: 100_000, itemName: 'Beras' }, books.staff.ani);
    await books.advance(1000);
  }
  await books.postCallback(
    JSON.stringify({ merchant_transaction_id: 'T09-NOT-HERE', status: 'PAID', amount: 75_000, transaction_id: 'X1' }),
  );
});

afterAll(async () => {
  await books?.close();
});

describe('report', () => {
  it('--json: the headline figures at the top level (whole rupiah), then every field of the DayReport', async () => {
    const r = await run(runReportCommand, ['--date', DAY, '--json']);
    expect(r.code, r.err).toBe(0);
    const json = JSON.parse(r.out);
    expect(json).toMatchObject({
      date: DAY,
      timeZone: STORE_ZONE,
      closed: false,
      paid: { count: 2, amount: 50_000_001 },
      orders: { count: 4, amount: 50_200_001 },
      training: false,
    });
    expect(json.byMethod).toEqual([
      { methodId: 'qris_dynamic', label: 'QRIS (semua aplikasi)', count: 1, amount: 1, paid: { count: 1, amount: 1 } },
      expect.objectContaining({ methodId: 'va_bca', count: 1, amount: 50_000_000 }),
      expect.objectContaining({ methodId: 'va_bni', count: 2, amount: 200_000, paid: { count: 0, amount: 0 } }),
    ]);
    expect(json.byState).toEqual([
      { state: 'unknown', count: 2, amount: 200_000 },
      { state: 'paid', count: 2, amount: 50_000_001 },
    ]);
    expect(json.attention.map((a: { kind: string; orderId: string }) => [a.kind, a.orderId])).toEqual([
      ['unknown', o.unknown1!.id],
      ['unknown', o.unknown2!.id],
      ['callback_problem', 'T09-NOT-HERE'],
    ]);
    for (const x of [json.paid, json.orders, ...json.byMethod, ...json.byState, ...json.byStaff])
      expect(Number.isInteger(x.amount) && Number.isInteger(x.count)).toBe(true);
    // The same as core's report, to the byte.
    const core = dayReport(books.loket.db, DAY, {
      timeZone: STORE_ZONE,
      now: books.clock.now(),
      methods: books.loket.methods,
      staffNames: [
        { id: books.staff.ani, name: 'Ani' },
        { id: books.staff.budi, name: 'Budi' },
      ],
      lang: 'id',
    });
    expect(json).toEqual(JSON.parse(JSON.stringify(dayReportJson(core))));
  });

  it('prints it for people; the day defaults to today in the store zone', async () => {
    const r = await run(runReportCommand, []);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`Day report ${DAY} (Asia/Jakarta) — Toko Loket`);
    expect(r.out).toContain('Not closed: the figures may still change');
    expect(r.out).toMatch(/Paid\s+2\s+Rp50\.000\.001/);
    expect(r.out).toContain('3 item(s) need attention:');
    expect(r.out).toContain('actions: check, mark_paid, cancel');
  });

  it('--html writes the A4 page and --escpos the printer bytes, both private files', async () => {
    const dir = tempDir('loket-report-files-');
    try {
      const html = join(dir.path, 'report.html');
      const bin = join(dir.path, 'report.bin');
      const r = await run(runReportCommand, [
        '--date',
        DAY,
        '--html',
        html,
        '--escpos',
        bin,
        '--paper',
        '58',
        '--lang',
        'en',
      ]);
      expect(r.code, r.err).toBe(0);
      const page = readFileSync(html, 'utf8');
      expect(page).toContain('<html lang="en">');
      expect(page).toContain('DAY REPORT');
      expect(page).toContain(formatRupiah(50_000_001));
      expect(statSync(html).mode & 0o777).toBe(0o600);
      const bytes = readFileSync(bin);
      expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]);
      expect(bytes.toString('latin1')).toContain('Rp50.000.001');
      expect(r.err).toContain(html);
    } finally {
      dir.remove();
    }
  });

  it('refuses a day that is not a date (exit 2) and a bad flag value', async () => {
    const r = await run(runReportCommand, ['--date', '2025-02-30']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('a store day YYYY-MM-DD (got "2025-02-30")');
    await expect(run(runReportCommand, ['--date', 'today'])).rejects.toBeInstanceOf(UsageError);
    await expect(run(runReportCommand, ['--paper', '76'])).rejects.toThrow(/--paper: 58 or 80/);
    await expect(run(runReportCommand, ['--lang', 'fr'])).rejects.toThrow(/--lang: id or en/);
  });
});

describe('attention', () => {
  it('lists the queue; resolve acts on an order or a callback problem, as cli:<user>', async () => {
    const list = await run(runAttentionCommand, ['--json', '--lang', 'en']);
    const items = JSON.parse(list.out) as { kind: string; orderId: string; issueId?: number; summary: string }[];
    expect(items).toHaveLength(3);
    expect(items[2]!.summary).toBe('An authentic PAID Rp75.000 callback for an order this till does not have.');

    const paid = await run(runAttentionCommand, [
      'resolve',
      o.unknown1!.id,
      '--action',
      'mark_paid',
      '--reason',
      'transfer seen in the bank app',
    ]);
    expect(paid.code, paid.err).toBe(0);
    expect(paid.out).toContain(`order ${o.unknown1!.id} is now paid`);
    expect(books.loket.log.events(o.unknown1!.id).at(-1)).toMatchObject({
      source: 'manager',
      actor: me,
      reason: 'transfer seen in the bank app',
      to: 'paid',
    });

    const ack = await run(runAttentionCommand, [
      'resolve',
      `#${items[2]!.issueId}`,
      '--action',
      'acknowledge',
      '--reason',
      'the other till',
      '--json',
    ]);
    expect(ack.code, ack.err).toBe(0);
    expect(JSON.parse(ack.out)).toMatchObject({ kind: 'callback_problem', resolved: true });
    const left = JSON.parse((await run(runAttentionCommand, ['--json'])).out) as { orderId: string }[];
    expect(left.map((i) => i.orderId)).toEqual([o.unknown2!.id]);
  });

  it('exit 4 when a check leaves the item open; exit 2 for an action that does not fit; a usage error for a bad line', async () => {
    books.sandbox.faults.set(faultSettingsSchema.parse({ http_status: 503, count: 1 }));
    const check = await run(runAttentionCommand, [
      'resolve',
      o.unknown2!.id,
      '--action',
      'check',
      '--reason',
      'still here?',
    ]);
    expect(check.code).toBe(4);
    expect(check.out).toContain('(the item stays in the queue)');
    const wrong = await run(runAttentionCommand, [
      'resolve',
      o.paid!.id,
      '--action',
      'cancel',
      '--reason',
      'wrong one',
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain(`order ${o.paid!.id} is paid`);
    expect(
      (await run(runAttentionCommand, ['resolve', 'T01-NONE', '--action', 'check', '--reason', 'why not'])).code,
    ).toBe(2);
    await expect(
      run(runAttentionCommand, ['resolve', o.unknown2!.id, '--action', 'refund', '--reason', 'x y z']),
    ).rejects.toThrow(/--action: one of check, mark_paid, cancel, acknowledge/);
    await expect(
      run(runAttentionCommand, ['resolve', o.unknown2!.id, '--action', 'cancel', '--reason', 'no']),
    ).rejects.toThrow(/--reason: say why/);
  });
});

describe('close-day', () => {
  it('closes the day as cli:<user>, says how many items were open, and takes a backup', async () => {
    const r = await run(runCloseDayCommand, ['--date', DAY, '--json']);
    expect(r.code, r.err).toBe(0);
    const { closing, backup, training } = JSON.parse(r.out);
    expect(training).toBe(false);
    expect(closing).toMatchObject({
      day: DAY,
      timeZone: STORE_ZONE,
      closedAt: books.clock.now().toISOString(),
      closedBy: { name: me },
      openAttention: 1,
      figures: { paid: { count: 3, amount: 50_100_001 } },
    });
    expect(closing.closedBy.staffId).toBeUndefined();
    expect(backup.reason).toBe('close-day');
    expect(existsSync(backup.path)).toBe(true);
    expect(readdirSync(join(books.dir, 'backups')).some((f) => f.endsWith('-close-day.db'))).toBe(true);

    const report = JSON.parse((await run(runReportCommand, ['--date', DAY, '--json'])).out);
    expect(report).toMatchObject({ closed: true, closing, paid: closing.figures.paid });
  });

  it('a second close, a day still to come: exit 2 in plain words; --date is required', async () => {
    const again = await run(runCloseDayCommand, ['--date', DAY]);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/^2025-03-14 was already closed at 14\/03\/2025 10:00 WIB by cli:/);
    const future = await run(runCloseDayCommand, ['--date', '2025-03-16']);
    expect(future.code).toBe(2);
    expect(future.err).toContain('2025-03-16 has not begun yet in Asia/Jakarta (today is 2025-03-14)');
    await expect(run(runCloseDayCommand, [])).rejects.toThrow(/--date: is required/);
  });

  it('without --json: the figures, the open items, the backup', async () => {
    await books.advance(24 * 3600 * 1000);
    const r = await run(runCloseDayCommand, ['--date', '2025-03-15']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`closed 2025-03-15 (Asia/Jakarta) at 2025-03-15 10:00 by ${me}`);
    expect(r.out).toContain(
      'received 0 order(s) Rp0; still waiting 0 order(s) Rp0; not paid 0 order(s) Rp0; 0 order(s) in all',
    );
    expect(r.out).toMatch(/backed up to .*-close-day\.db/);
  });
});

describe('the real command line', () => {
  const dir = tempDir('loket-cli-report-');
  const env = { PATH: process.env.PATH, HOME: dir.path, LOKET_DATA_DIR: dir.path };
  afterAll(() => dir.remove());

  it('lists the commands and their usage; a mistake on the line exits 2', async () => {
    const help = await runCli(['help'], { env });
    expect(help.code).toBe(0);
    for (const line of ['report     a day', 'close-day  close a store day', 'attention  what needs a manager'])
      expect(help.stdout).toContain(line);
    const usage = await runCli(['close-day', '--help'], { env });
    expect(usage.code).toBe(0);
    expect(usage.stdout).toContain(
      'attention resolve ID --action check|mark_paid|cancel|acknowledge|set_aside --reason TEXT',
    );
    const missing = await runCli(['close-day'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--date: is required');
    const bad = await runCli(['report', '--date', '2025-02-30'], { env });
    expect(bad.code).toBe(2);
    const report = await runCli(['report', '--json'], { env });
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ training: true, paid: { count: 0, amount: 0 }, attention: [] });
  });
});
