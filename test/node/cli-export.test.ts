import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { OrderState } from '../../src-main/common/order';
import { dayIn } from '../../src-main/common/gateway-time';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { TENDER_COLUMNS } from '../../src-main/core/export/tenders-export';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { openDatabase } from '../../src-main/db/open';
import { tempDir } from './helpers/loket';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = tempDir('loket-cli-export-');
const out = tempDir('loket-cli-export-out-');
const methods = loadPaymentCatalogue();
const DAY = '2026-11-22';
const NEXT = '2026-11-23';
/** 09:00 in Jakarta on DAY. */
const MORNING = Date.parse(`${DAY}T02:00:00.000Z`);

/** The environment of a CLI run: no LOKET_* of this process; `live` points it at a gateway (never called). */
function env(live: boolean): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LOKET_')) base[name] = value;
  return {
    ...base,
    LOKET_DATA_DIR: dir.path,
    ...(live
      ? { LOKET_GATEWAY_URL: 'http://127.0.0.1:9', LOKET_APP_ID: 'loket-test', LOKET_APP_KEY: 'not-used-here' }
      : {}),
  };
}

async function cli(args: string[], live = true): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src-main/cli.ts', 'export', ...args],
      { cwd: root, env: env(live), encoding: 'utf8' },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Orders straight into a log file, as the till would have written them. */
function fill(
  path: string,
  training: boolean,
  orders: { state: OrderState; amount: number; at: number; item: string }[],
) {
  const db = openDatabase(path);
  let now = new Date(0);
  const log = new OrderLog(db, { now: () => now });
  orders.forEach((o, i) => {
    now = new Date(o.at);
    const id = `${training ? 'L' : 'T'}01-${i}`;
    const qris = methods.find((m) => m.id === 'qris_dynamic')!;
    log.create(
      {
        id,
        terminalId: 'T01',
        api: 'v2',
        methodId: qris.id,
        kind: qris.kind,
        amount: o.amount,
        currency: 'IDR',
        itemName: o.item,
        userId: 'walkin',
        training,
        requestBody: '{}',
      },
      { source: 'cashier', actor: 'cashier' },
    );
    if (o.state === 'creating') return;
    now = new Date(o.at + 1000);
    log.transition(id, 'awaiting_payment', { source: 'gateway' }, { delivery: 'answered' });
    if (o.state === 'awaiting_payment') return;
    now = new Date(o.at + 60_000);
    log.transition(id, o.state, { source: 'callback' }, o.state === 'paid' ? { paidAt: now.toISOString() } : {});
  });
  db.close();
}

const LIVE = [
  { state: 'paid' as const, amount: 1, at: MORNING, item: '=Permen' },
  { state: 'paid' as const, amount: 10_000_000, at: MORNING + 60_000, item: 'Kulkas; 2 pintu' },
  { state: 'expired' as const, amount: 30_000, at: MORNING + 120_000, item: 'Kopi "susu"' },
  { state: 'awaiting_payment' as const, amount: 5_000, at: MORNING + 180_000, item: 'Es teh' },
  { state: 'paid' as const, amount: 45_000, at: MORNING + 24 * 3_600_000, item: 'Hari berikutnya' },
];
const livePaid = (orders: typeof LIVE) => orders.filter((o) => o.state === 'paid').reduce((s, o) => s + o.amount, 0);

beforeAll(() => {
  fill(join(dir.path, 'loket.db'), false, LIVE);
  fill(join(dir.path, 'training', 'loket.db'), true, [{ state: 'paid', amount: 7_000, at: MORNING, item: 'Latihan' }]);
});

afterAll(() => {
  dir.remove();
  out.remove();
});

const parseCsv = (path: string, delimiter = ',') =>
  parse(readFileSync(path), { columns: true, delimiter, bom: true }) as Record<string, string>[];

describe('npm run cli -- export', () => {
  it('writes a day of the live log to a CSV file and says how many orders and where; exit 0', async () => {
    const file = join(out.path, 'day.csv');
    const r = await cli(['--date', DAY, '--out', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^4 order\\(s\\) of ${DAY} \\(Asia/Jakarta\\) written to .*day\\.csv \\(CSV, `),
    );
    const records = parseCsv(file);
    expect(records.map((x) => x.item_name)).toEqual(["'=Permen", 'Kulkas; 2 pintu', 'Kopi "susu"', 'Es teh']);
    expect(records.filter((x) => x.state === 'paid').reduce((s, x) => s + Number(x.amount), 0)).toBe(
      livePaid(LIVE.slice(0, 4)),
    );
    expect(records[0]!.created_at).toBe(`${DAY}T09:00:00.000+07:00`);
    expect(readdirSync(out.path).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('--to, --delimiter ; and --bom: several days, for Excel in Indonesian; --json', async () => {
    const file = join(out.path, 'days.csv');
    const r = await cli(['--date', DAY, '--to', NEXT, '--delimiter', ';', '--bom', '--out', file, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ path: file, format: 'csv', from: DAY, to: NEXT, rows: 5 });
    expect(readFileSync(file).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const records = parseCsv(file, ';');
    expect(records).toHaveLength(5);
    expect(records.filter((x) => x.state === 'paid').reduce((s, x) => s + Number(x.amount), 0)).toBe(livePaid(LIVE));
  });

  it('an .xlsx file is a workbook with the summary in the store’s language, its paid total the sheet’s', async () => {
    const file = join(out.path, 'days.xlsx');
    const r = await cli(['--date', DAY, '--to', NEXT, '--out', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/5 order\(s\) of 2026-11-22 to 2026-11-23 .*\(XLSX, /);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    expect(book.worksheets.map((w) => w.name)).toEqual([
      'Ringkasan',
      'Takings',
      'Orders',
      'Sale lines',
      'Refunds',
      'Tenders',
    ]);
    const orders = book.getWorksheet('Orders')!;
    let paid = 0;
    orders.eachRow((row, n) => {
      if (n > 1 && row.getCell(10).value === 'paid') paid += row.getCell(7).value as number;
    });
    expect(paid).toBe(livePaid(LIVE));
    const summary = book.getWorksheet('Ringkasan')!;
    const paidRow = summary.getRows(1, summary.rowCount)!.find((row) => row.getCell(1).value === 'Diterima (lunas)')!;
    expect(paidRow.getCell(4).value).toBe(livePaid(LIVE));
    // These orders were made before every charge was a sale: the money taken counts them, by their method, and the
    // summary leads with it (docs/end-of-day.md, "Money taken").
    const takenRow = summary.getRows(1, summary.rowCount)!.find((row) => row.getCell(1).value === 'Diterima')!;
    expect([takenRow.getCell(3).value, takenRow.getCell(4).value]).toEqual([
      LIVE.filter((o) => o.state === 'paid').length,
      livePaid(LIVE),
    ]);
    expect(takenRow.number).toBeLessThan(paidRow.number);
  });

  it('refuses to replace a file unless --force; exit 2 and the file untouched', async () => {
    const file = join(out.path, 'keep.csv');
    writeFileSync(file, 'mine');
    const refused = await cli(['--date', DAY, '--out', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/exists already.*--force/);
    expect(readFileSync(file, 'utf8')).toBe('mine');
    const forced = await cli(['--date', DAY, '--out', file, '--force']);
    expect(forced.code).toBe(0);
    expect(parseCsv(file)).toHaveLength(4);
  }, 60_000);

  it('exit 2 for what cannot be exported, and no file is left behind', async () => {
    const file = join(out.path, 'bad.csv');
    const cases: [string[], RegExp][] = [
      [['--date', '2026-02-30', '--out', file], /--date/],
      [['--date', NEXT, '--to', DAY, '--out', file], /before the first/],
      [['--date', DAY, '--format', 'xlsx', '--delimiter', ';', '--out', file], /CSV only/],
      [['--date', DAY, '--delimiter', '|', '--out', file], /--delimiter/],
      [['--date', DAY, '--format', 'pdf', '--out', file], /--format/],
      [['--date', DAY], /--out/],
      [['--out', file], /--date/],
      [['--date', DAY, '--out', join(out.path, 'no-such-folder', 'x.csv')], /cannot write/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(out.path).filter((f) => f.endsWith('.part'))).toEqual([]);
    // Eight runs of the CLI, each starting Node and tsx.
  }, 120_000);

  it('in training mode it exports the training log, and only that', async () => {
    const file = join(out.path, 'training.csv');
    const r = await cli(['--date', DAY, '--out', file], false);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1 order\(s\) of 2026-11-22 \(Asia\/Jakarta, training log\)/);
    expect(parseCsv(file).map((x) => [x.item_name, x.training])).toEqual([['Latihan', 'true']]);
  });

  it('leaves the till’s orders alone: an order being sent (creating) while the export runs stays creating', async () => {
    // The app charging at this moment: its order is `creating` until the gateway answers. An export is a reader;
    // start-up work on the log (turning `creating` into `unknown`) is the app's, never the export's.
    const path = join(dir.path, 'loket.db');
    const db = openDatabase(path);
    const log = new OrderLog(db);
    const qris = methods.find((m) => m.id === 'qris_dynamic')!;
    log.create(
      {
        id: 'T01-IN-FLIGHT',
        terminalId: 'T01',
        api: 'v2',
        methodId: qris.id,
        kind: qris.kind,
        amount: 12_000,
        currency: 'IDR',
        itemName: 'Sedang dikirim',
        userId: 'walkin',
        training: false,
        requestBody: '{}',
      },
      { source: 'cashier', actor: 'cashier' },
    );
    try {
      const r = await cli(['--date', dayIn(new Date(), 'Asia/Jakarta'), '--out', join(out.path, 'in-flight.csv')]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(log.require('T01-IN-FLIGHT').state).toBe('creating');
    } finally {
      db.close();
    }
  });

  it('--tenders: the tenders as CSV with their columns (none on a day without sales); refused for xlsx, --lines', async () => {
    const file = join(out.path, 'tenders.csv');
    const r = await cli(['--date', DAY, '--tenders', '--out', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^0 tender\(s\) of 2026-11-22 \(Asia\/Jakarta\) written to /);
    expect(readFileSync(file, 'utf8').split('\r\n')[0]).toBe(TENDER_COLUMNS.map((c) => c.name).join(','));
    for (const [args, message] of [
      [['--format', 'xlsx'], /--tenders: .*"Tenders" sheet/],
      [['--lines'], /--tenders: .*not with --lines/],
    ] as const) {
      const refused = await cli(['--date', DAY, '--tenders', ...args, '--out', join(out.path, 'no-tenders.csv')]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(message);
    }
    expect(existsSync(join(out.path, 'no-tenders.csv'))).toBe(false);
  }, 60_000);

  it('export --help prints the usage', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/export --date YYYY-MM-DD \[--to YYYY-MM-DD\]/);
  });
});
