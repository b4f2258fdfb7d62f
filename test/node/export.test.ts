import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { Order, OrderState, PaymentInstruction } from '../../src-main/common/order';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { COLUMN_NAMES, neutralise } from '../../src-main/core/export/columns';
import { ExportFileExistsError, exportToFile, openExportConnection } from '../../src-main/core/export/export-file';
import { ExportOptionsError, exportOrders, type ExportOptions } from '../../src-main/core/export/order-export';
import { explainExportQuery } from '../../src-main/core/export/order-query';
import { summarySheetName } from '../../src-main/core/export/summary-sheet';
import { ORDERS_SHEET, sheetInput } from '../../src-main/core/export/xlsx-export';
import { ZoneClock } from '../../src-main/core/export/zone-time';
import { OrderLog, type NewOrder } from '../../src-main/core/orders/order-log';
import { figures } from '../../src-main/core/reports/day-report';
import { openDatabase, type Database } from '../../src-main/db/open';
import { tempDir } from './helpers/loket';

const TZ = 'Asia/Jakarta';
const HOUR = 3_600_000;
const methods = loadPaymentCatalogue();
const MAX_AMOUNT = Math.max(...methods.map((m) => m.maxAmount));
const maxMethod = methods.find((m) => m.maxAmount === MAX_AMOUNT)!;

const dir = tempDir('loket-export-');
let db: Database;
let log: OrderLog;
let now = new Date('2026-11-20T16:00:00.000Z');
let staffId = 0;
let seq = 0;

/** The store days of the fixture: the 21st to the 23rd of November 2026 in Jakarta (UTC+7). */
const DAYS = ['2026-11-21', '2026-11-22', '2026-11-23'] as const;
/** Local midnight starting a Jakarta day, as a UTC instant. */
const midnight = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) - 7 * HOUR);

interface Spec {
  at: Date;
  state: OrderState;
  item: string;
  amount?: number;
  methodId?: string;
  itemId?: string;
  staff?: boolean;
  training?: boolean;
  va?: string;
  rejection?: { retcode?: string; message: string; httpStatus?: number };
  /** The last event: a manager's change with this actor and reason (cancel), or a note after everything. */
  manager?: { actor: string; reason: string };
  note?: { actor: string; reason: string };
  latePayment?: boolean;
}

function step(ms = 7_000): void {
  now = new Date(now.getTime() + ms);
}

function addOrder(spec: Spec): Order {
  now = spec.at;
  const method = methods.find((m) => m.id === (spec.methodId ?? 'qris_dynamic'))!;
  const id = `T01-${String(++seq).padStart(4, '0')}`;
  const input: NewOrder = {
    id,
    terminalId: 'T01',
    api: 'v2',
    methodId: method.id,
    kind: method.kind,
    amount: spec.amount ?? 25_000,
    currency: 'IDR',
    itemName: spec.item,
    ...(spec.itemId ? { itemId: spec.itemId } : {}),
    userId: 'walkin',
    training: spec.training ?? false,
    ...(spec.staff ? { staffId } : {}),
    requestBody: JSON.stringify({ merchant_transaction_id: id }),
  };
  log.create(input, { source: 'cashier', actor: spec.staff ? 'Sri Wahyuni' : 'cashier' });
  const accept = () => {
    step();
    const instruction: PaymentInstruction = spec.va
      ? { type: 'virtual_account', va: spec.va }
      : { type: 'qr', qrString: '00020101021226' };
    log.transition(
      id,
      'awaiting_payment',
      { source: 'gateway', reason: 'accepted' },
      { delivery: 'answered', gatewayTransactionId: `GW${seq}000123`, instruction },
    );
  };
  switch (spec.state) {
    case 'creating':
      break;
    case 'rejected':
      step();
      log.transition(
        id,
        'rejected',
        { source: 'gateway', reason: 'refused' },
        { delivery: 'answered', rejection: spec.rejection ?? { retcode: 'E100', message: 'refused' } },
      );
      break;
    case 'unknown':
      step();
      log.transition(id, 'unknown', { source: 'gateway', reason: 'no answer' }, { delivery: 'sent' });
      break;
    case 'awaiting_payment':
      accept();
      break;
    case 'paid':
      accept();
      step(60_000);
      log.transition(id, 'paid', { source: 'callback', reason: 'payment callback' }, { paidAt: now.toISOString() });
      break;
    case 'cancelled':
      accept();
      step();
      log.transition(id, 'cancelled', { source: 'manager', ...(spec.manager ?? { actor: 'ani', reason: 'left' }) });
      break;
    case 'expired':
    case 'failed':
      accept();
      step(900_000);
      log.transition(id, spec.state, { source: 'poll', reason: 'status inquiry' });
      if (spec.latePayment) {
        step();
        log.flagLatePayment(id, { source: 'callback', reason: 'payment callback' });
      }
      break;
  }
  if (spec.note) {
    step();
    log.note(id, { source: 'manager', ...spec.note });
  }
  return log.require(id);
}

/** Names a spreadsheet could take for a formula, or that break a naive CSV. */
const NASTY = [
  'Kopi "susu" gula aren',
  'Teh; manis',
  'Roti, bakar',
  'Nasi goreng\nspesial',
  'Es\r\njeruk',
  '=HYPERLINK("http://x","klik")',
  '@SUM(A1:A9)',
  '+6281234',
  '-5 diskon',
  '\tTab di depan',
  "'sudah dikutip",
  // What a spreadsheet may trim or read as a formula too: blanks in front, full-width signs.
  ' =1+1 spasi',
  '\u00a0=1+1 nbsp',
  '\u3000=SUM(A1)',
  '\uff1d1+1 lebar',
  '\uff0b62812',
  // From a log written before entry refused them: a right-to-left override and a zero-width space.
  'Kopi\u202egnp.exe',
  'Ko\u200bpi',
];

beforeAll(() => {
  db = openDatabase(join(dir.path, 'loket.db'));
  log = new OrderLog(db, { now: () => now });
  staffId = Number(
    db
      .prepare(
        "INSERT INTO staff (name, role, pin_hash, active, created_at, updated_at) VALUES ('Sri Wahyuni', 'cashier', 'scrypt$test', 1, ?, ?)",
      )
      .run(now.toISOString(), now.toISOString()).lastInsertRowid,
  );
  // Just before the range, and at its very end: neither is exported.
  addOrder({ at: new Date(midnight(DAYS[0]).getTime() - 1), state: 'paid', item: 'before the range' });
  // Every state, on the first day.
  const states: OrderState[] = [
    'creating',
    'awaiting_payment',
    'rejected',
    'unknown',
    'paid',
    'expired',
    'cancelled',
    'failed',
  ];
  states.forEach((state, i) =>
    addOrder({ at: new Date(midnight(DAYS[0]).getTime() + (8 + i) * HOUR), state, item: `State ${state}` }),
  );
  // The second day: the extremes, the nasty names, a VA, a staff member, training, a rejection, notes.
  const d2 = midnight(DAYS[1]).getTime();
  addOrder({ at: new Date(d2), state: 'paid', item: 'Permen', amount: 1, itemId: '000123' });
  addOrder({
    at: new Date(d2 + 1),
    state: 'paid',
    item: 'Kulkas 2 pintu',
    amount: MAX_AMOUNT,
    methodId: maxMethod.id,
    va: '0012345678901',
    staff: true,
  });
  NASTY.forEach((item, i) =>
    addOrder({ at: new Date(d2 + (9 + i) * 60_000 + HOUR), state: i % 3 === 0 ? 'expired' : 'paid', item }),
  );
  addOrder({ at: new Date(d2 + 11 * HOUR), state: 'paid', item: 'Latihan', training: true });
  addOrder({
    at: new Date(d2 + 12 * HOUR),
    state: 'rejected',
    item: 'Ditolak',
    rejection: { retcode: '-01', message: '=CMD|"/c calc"!A0', httpStatus: 400 },
  });
  addOrder({
    at: new Date(d2 + 13 * HOUR),
    state: 'cancelled',
    item: 'Batal',
    manager: { actor: '@manajer', reason: '-pelanggan pergi, tidak jadi' },
  });
  addOrder({ at: new Date(d2 + 14 * HOUR), state: 'expired', item: 'Telat bayar', latePayment: true });
  addOrder({
    at: new Date(d2 + 15 * HOUR),
    state: 'paid',
    item: 'Dicek',
    note: { actor: 'Sri', reason: 'cek mutasi' },
  });
  // The third day, last millisecond: exported.
  addOrder({ at: new Date(midnight('2026-11-24').getTime() - 1), state: 'paid', item: 'last of the range' });
  addOrder({ at: midnight('2026-11-24'), state: 'paid', item: 'after the range' });
});

afterAll(() => {
  db.close();
  dir.remove();
});

const options = (over: Partial<ExportOptions> = {}): ExportOptions => ({
  from: DAYS[0],
  to: DAYS[2],
  timeZone: TZ,
  format: 'csv',
  methods,
  lang: 'en',
  ...over,
});

/** Collects what an export writes. */
function collector(): { out: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  return { out, bytes: () => Buffer.concat(chunks) };
}

async function exportBytes(over: Partial<ExportOptions> = {}, source: Database = db) {
  const { out, bytes } = collector();
  const result = await exportOrders(source, options(over), out);
  return { result, bytes: bytes() };
}

/** The orders of [from, to] as the log has them, oldest first, with their last event. */
function expectedOrders(from: string = DAYS[0], to: string = DAYS[2]) {
  const orders = log.list({ from: midnight(from), to: midnight(nextDay(to)) });
  return orders.map((order) => ({ order, last: log.events(order.id).at(-1)! }));
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
}

/** An independent oracle for Jakarta (always UTC+7): the stored instant as wall time with its offset. */
const jakarta = (iso: string | undefined) =>
  iso === undefined ? '' : new Date(Date.parse(iso) + 7 * HOUR).toISOString().slice(0, 23) + '+07:00';
const HIDDEN_IN_FIXTURE: Record<string, string> = { '\u202e': '<U+202E>', '\u200b': '<U+200B>' };
const quoted = (stored: string | undefined) => {
  if (stored === undefined) return '';
  const s = stored.replace(/[\u202e\u200b]/g, (c) => HIDDEN_IN_FIXTURE[c]!);
  return /^[=+\-@\t\r\n \u00a0\u3000\uff1d\uff0b\uff0d\uff20]/.test(s) ? `'${s}` : s;
};

/** What each CSV record must hold, from the Order API rather than from the export's own SQL. */
function expectedRecord({ order, last }: ReturnType<typeof expectedOrders>[number]): Record<string, string> {
  const method = methods.find((m) => m.id === order.methodId);
  return {
    order_id: order.id,
    created_at: jakarta(order.createdAt),
    paid_at: jakarta(order.paidAt),
    last_change_at: jakarta(last.at),
    item_name: quoted(order.itemName),
    item_id: quoted(order.itemId),
    amount: String(order.amount),
    method_id: order.methodId,
    method_label: method?.label.en ?? '',
    state: order.state,
    late_payment: String(order.latePayment),
    gateway_transaction_id: quoted(order.gatewayTransactionId),
    va_number: order.instruction?.type === 'virtual_account' ? quoted(order.instruction.va) : '',
    retcode: quoted(order.rejection?.retcode),
    message: quoted(order.rejection?.message),
    staff_id: order.staffId === undefined ? '' : String(order.staffId),
    staff_name: order.staffId === undefined ? '' : 'Sri Wahyuni',
    last_change_source: last.source,
    last_change_by: quoted(last.actor),
    last_change_reason: quoted(last.reason),
    training: String(order.training),
    // No day of these is closed: nothing changed after a closing.
    changed_after_closing: 'false',
  };
}

const parseCsv = (bytes: Buffer, delimiter: ',' | ';') =>
  parse(bytes, { columns: true, delimiter, bom: true, relax_column_count: false }) as Record<string, string>[];

/** The report's figures of the days (the reports module), as the CLI and the app put them on the summary sheet. */
const reportFigures = (from: string, to: string, lang: 'id' | 'en') =>
  figures(db, from, to, TZ, methods, [{ id: staffId, name: 'Sri Wahyuni' }], { lang });

const paidTotal = () =>
  expectedOrders()
    .filter((x) => x.order.state === 'paid')
    .reduce((sum, x) => sum + x.order.amount, 0);

describe('exportOrders: CSV', () => {
  it('writes every order of the days, oldest first, with the documented columns, parsed back the same with , and ;', async () => {
    const expected = expectedOrders().map(expectedRecord);
    expect(expected.length).toBeGreaterThan(20);
    for (const delimiter of [',', ';'] as const)
      for (const bom of [false, true]) {
        const { result, bytes } = await exportBytes({ delimiter, bom });
        expect(result).toEqual({ rows: expected.length, bytes: bytes.length });
        expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(bom);
        const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
        expect(text.split('\r\n')[0]).toBe(COLUMN_NAMES.join(delimiter));
        expect(text.endsWith('\r\n')).toBe(true);
        expect(parseCsv(bytes, delimiter)).toEqual(expected);
      }
  });

  it('keeps the extremes, quotes, delimiters and newlines of item names; amounts are plain digits', async () => {
    const records = parseCsv((await exportBytes({ delimiter: ';' })).bytes, ';');
    const amounts = records.map((r) => r.amount!);
    expect(amounts).toContain('1');
    expect(amounts).toContain(String(MAX_AMOUNT));
    for (const amount of amounts) expect(amount).toMatch(/^[1-9]\d*$/);
    const names = records.map((r) => r.item_name);
    expect(names).toEqual(expect.arrayContaining(['Kopi "susu" gula aren', 'Teh; manis', 'Roti, bakar']));
    expect(names).toEqual(expect.arrayContaining(['Nasi goreng\nspesial', 'Es\r\njeruk', "'sudah dikutip"]));
    const big = records.find((r) => r.amount === String(MAX_AMOUNT))!;
    expect(big).toMatchObject({ va_number: '0012345678901', staff_id: String(staffId), staff_name: 'Sri Wahyuni' });
    expect(records.find((r) => r.amount === '1')!.item_id).toBe('000123');
  });

  it('neutralises text that a spreadsheet would run as a formula, and nothing else', async () => {
    const records = parseCsv((await exportBytes()).bytes, ',');
    const names = records.map((r) => r.item_name);
    for (const nasty of [
      '=HYPERLINK("http://x","klik")',
      '@SUM(A1:A9)',
      '+6281234',
      '-5 diskon',
      '\tTab di depan',
      ' =1+1 spasi',
      '\u00a0=1+1 nbsp',
      '\u3000=SUM(A1)',
      '\uff1d1+1 lebar',
      '\uff0b62812',
    ])
      expect(names).toContain(`'${nasty}`);
    // Invisible and direction characters are shown, not obeyed: the name reads as it was stored.
    expect(names).toContain('Kopi<U+202E>gnp.exe');
    expect(names).toContain('Ko<U+200B>pi');
    expect(names).toContain("'sudah dikutip");
    const rejected = records.find((r) => r.item_name === 'Ditolak')!;
    expect(rejected).toMatchObject({ retcode: "'-01", message: `'=CMD|"/c calc"!A0` });
    const cancelled = records.find((r) => r.item_name === 'Batal')!;
    expect(cancelled).toMatchObject({
      last_change_source: 'manager',
      last_change_by: "'@manajer",
      last_change_reason: "'-pelanggan pergi, tidak jadi",
    });
    // No cell of any record starts with a formula character any more.
    for (const record of records)
      for (const cell of Object.values(record)) {
        expect(cell).not.toMatch(/^[=+\-@\t\r\n\s\uff1d\uff0b\uff0d\uff20]/u);
        expect(cell).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b]/);
      }
  });

  it('writes times in the store zone with their offset, each the stored UTC instant', async () => {
    const records = parseCsv((await exportBytes()).bytes, ',');
    const orders = expectedOrders();
    records.forEach((record, i) => {
      const { order, last } = orders[i]!;
      expect(record.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+07:00$/);
      expect(new Date(record.created_at!).toISOString()).toBe(order.createdAt);
      expect(new Date(record.last_change_at!).toISOString()).toBe(last.at);
      if (order.paidAt) expect(new Date(record.paid_at!).toISOString()).toBe(order.paidAt);
      else expect(record.paid_at).toBe('');
    });
    // Oldest first, and exactly the range: the last millisecond of the 23rd in, midnight of the 24th out.
    const names = records.map((r) => r.item_name);
    expect(names).not.toContain('before the range');
    expect(names).not.toContain('after the range');
    expect(names.at(-1)).toBe('last of the range');
    expect(records.at(-1)!.created_at).toBe('2026-11-23T23:59:59.999+07:00');
  });

  it('carries the flags and the last change: state, late payment, training, a note after the change', async () => {
    const records = parseCsv((await exportBytes()).bytes, ',');
    const byName = (name: string) => records.find((r) => r.item_name === name)!;
    expect(new Set(records.map((r) => r.state))).toEqual(
      new Set(['creating', 'awaiting_payment', 'rejected', 'unknown', 'paid', 'expired', 'cancelled', 'failed']),
    );
    expect(byName('Telat bayar')).toMatchObject({ state: 'expired', late_payment: 'true', training: 'false' });
    expect(byName('Latihan')).toMatchObject({ training: 'true', late_payment: 'false' });
    expect(byName('Dicek')).toMatchObject({ last_change_by: 'Sri', last_change_reason: 'cek mutasi' });
    expect(byName('State creating')).toMatchObject({ last_change_source: 'cashier', last_change_by: 'cashier' });
    expect(byName('State paid')).toMatchObject({ method_id: 'qris_dynamic', method_label: 'QRIS (any app)' });
  });

  it('sums the paid amounts to the figures of the same days', async () => {
    const records = parseCsv((await exportBytes({ delimiter: ';', bom: true })).bytes, ';');
    const csvPaid = records.filter((r) => r.state === 'paid').reduce((sum, r) => sum + Number(r.amount), 0);
    expect(csvPaid).toBe(paidTotal());
    // The figures count the store's books: the training order is not among them.
    const training = expectedOrders().filter((x) => x.order.training && x.order.state === 'paid');
    const report = reportFigures(DAYS[0], DAYS[2], 'en');
    expect(report.paid.amount).toBe(csvPaid - training.reduce((sum, x) => sum + x.order.amount, 0));
  });

  it('a range of one day, and a day without orders (just the header)', async () => {
    const oneDay = parseCsv((await exportBytes({ from: DAYS[1], to: DAYS[1] })).bytes, ',');
    expect(oneDay.map((r) => r.order_id)).toEqual(expectedOrders(DAYS[1], DAYS[1]).map((x) => x.order.id));
    for (const bom of [false, true]) {
      const { result, bytes } = await exportBytes({ from: '2026-12-01', to: '2026-12-31', delimiter: ';', bom });
      expect(result.rows).toBe(0);
      expect(bytes.toString('utf8')).toBe(`${bom ? '\uFEFF' : ''}${COLUMN_NAMES.join(';')}\r\n`);
    }
  });

  it('refuses a range that is no range, before writing anything', async () => {
    for (const over of [{ from: '2026-11-31' }, { to: 'tomorrow' }, { from: DAYS[2], to: DAYS[0] }]) {
      const { out, bytes } = collector();
      await expect(exportOrders(db, options(over), out)).rejects.toBeInstanceOf(ExportOptionsError);
      expect(bytes().length).toBe(0);
    }
    await expect(exportOrders(db, options({ format: 'pdf' as never }), collector().out)).rejects.toThrow(/csv or xlsx/);
  });
});

describe('exportOrders: XLSX', () => {
  let workbook: ExcelJS.Workbook;
  let rows: number;

  beforeAll(async () => {
    const report = reportFigures(DAYS[0], DAYS[2], 'en');
    const { result, bytes } = await exportBytes({ format: 'xlsx', summary: { figures: report } });
    rows = result.rows;
    expect(result.bytes).toBe(bytes.length);
    workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  });

  it('is a workbook whose orders sheet has the columns, zone-named time headers and one row per order', () => {
    const sheet = workbook.getWorksheet(ORDERS_SHEET)!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(COLUMN_NAMES.map((name) => (name.endsWith('_at') ? `${name} (${TZ})` : name)));
    expect(sheet.rowCount).toBe(rows + 1);
    expect(rows).toBe(expectedOrders().length);
  });

  it('has number cells for amounts, text cells for ids, date cells for times (the store’s wall time)', () => {
    const sheet = workbook.getWorksheet(ORDERS_SHEET)!;
    const col = (name: string) => COLUMN_NAMES.indexOf(name as never) + 1;
    expectedOrders().forEach(({ order, last }, i) => {
      const row = sheet.getRow(i + 2);
      const amount = row.getCell(col('amount'));
      expect(amount.type).toBe(ExcelJS.ValueType.Number);
      expect(amount.value).toBe(order.amount);
      expect(amount.numFmt).toBe('#,##0');
      expect(row.getCell(col('order_id')).value).toBe(order.id);
      expect(row.getCell(col('order_id')).type).toBe(ExcelJS.ValueType.String);
      const created = row.getCell(col('created_at'));
      expect(created.type).toBe(ExcelJS.ValueType.Date);
      // Excel has no zones: the cell holds the wall time in Jakarta, 7 hours after the UTC instant.
      expect((created.value as Date).getTime()).toBe(Date.parse(order.createdAt) + 7 * HOUR);
      expect((row.getCell(col('last_change_at')).value as Date).getTime()).toBe(Date.parse(last.at) + 7 * HOUR);
      expect(row.getCell(col('training')).value).toBe(order.training);
      expect(row.getCell(col('late_payment')).value).toBe(order.latePayment);
      // XML turns a CR LF (or a lone CR) in text into LF when it is read; Excel's own line break is LF.
      expect(row.getCell(col('item_name')).value).toBe(quoted(order.itemName).replace(/\r\n?/g, '\n'));
    });
    const big = expectedOrders().findIndex((x) => x.order.amount === MAX_AMOUNT) + 2;
    expect(sheet.getRow(big).getCell(col('va_number')).value).toBe('0012345678901');
    expect(sheet.getRow(big).getCell(col('staff_id')).value).toBe(String(staffId));
    const small = expectedOrders().findIndex((x) => x.order.amount === 1) + 2;
    expect(sheet.getRow(small).getCell(col('item_id')).value).toBe('000123');
  });

  it('sums the paid amounts to the paid total, which the summary sheet shows as a number', () => {
    const sheet = workbook.getWorksheet(ORDERS_SHEET)!;
    const col = (name: string) => COLUMN_NAMES.indexOf(name as never) + 1;
    let paid = 0;
    sheet.eachRow((row, n) => {
      if (n > 1 && row.getCell(col('state')).value === 'paid') paid += row.getCell(col('amount')).value as number;
    });
    expect(paid).toBe(paidTotal());
    const summary = workbook.getWorksheet(summarySheetName('en'))!;
    expect(summary).toBeDefined();
    // The summary leads (docs/export.md, "XLSX").
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['Summary', ORDERS_SHEET]);
    // It leads with what was received (the paid orders).
    const paidRow = summary.getRows(1, summary.rowCount)!.find((r) => r.getCell(1).value === 'Received (paid)')!;
    const report = reportFigures(DAYS[0], DAYS[2], 'en');
    expect(paidRow.getCell(4).value).toBe(report.paid.amount);
    expect(paidRow.getCell(4).type).toBe(ExcelJS.ValueType.Number);
    expect(paidRow.getCell(3).value).toBe(report.paid.count);
  });

  it('names the summary sheet in the store’s language; an empty range is the header alone', async () => {
    const report = reportFigures('2026-12-01', '2026-12-01', 'id');
    const { result, bytes } = await exportBytes({
      format: 'xlsx',
      from: '2026-12-01',
      to: '2026-12-01',
      lang: 'id',
      summary: { figures: report },
    });
    expect(result.rows).toBe(0);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ExcelJS.Buffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Ringkasan', ORDERS_SHEET]);
    expect(book.getWorksheet(ORDERS_SHEET)!.rowCount).toBe(1);
  });
});

describe('the export query', () => {
  it('reads the orders by orders_created and the last event by order_events_order, scanning neither table', () => {
    const plan = explainExportQuery(db).join('\n');
    expect(plan).toMatch(/SEARCH o USING INDEX orders_created \(created_at>\? AND created_at<\?\)/);
    expect(plan).toMatch(/SEARCH order_events USING COVERING INDEX order_events_order \(order_id=\?\)/);
    expect(plan).not.toMatch(/\bSCAN\b/);
  });

  it('leaves the connection free when the export fails midway (here: the destination breaks)', async () => {
    const out = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('disk full'));
      },
    });
    await expect(exportOrders(db, options(), out)).rejects.toThrow('disk full');
    await expect(exportOrders(db, options({ format: 'xlsx' }), new PassThrough().destroy())).rejects.toThrow();
    // The iterator was closed: the same connection runs the next statement.
    expect(db.prepare('SELECT COUNT(*) AS n FROM orders').get()).toBeDefined();
    expect((await exportBytes()).result.rows).toBe(expectedOrders().length);
  });
});

describe('exportToFile', () => {
  it('writes FILE.part, renames it to FILE, refuses an existing FILE unless forced, removes the part on failure', async () => {
    const path = join(dir.path, 'orders.csv');
    const reader = openExportConnection(join(dir.path, 'loket.db'));
    try {
      const first = await exportToFile(reader, options(), path);
      expect(first).toMatchObject({ rows: expectedOrders().length, path });
      expect(existsSync(`${path}.part`)).toBe(false);
      expect(readFileSync(path).length).toBe(first.bytes);
      writeFileSync(path, 'keep me');
      await expect(exportToFile(reader, options(), path)).rejects.toBeInstanceOf(ExportFileExistsError);
      expect(readFileSync(path, 'utf8')).toBe('keep me');
      await exportToFile(reader, options({ format: 'xlsx' }), path, { force: true });
      expect(readFileSync(path).subarray(0, 2).toString()).toBe('PK');
      const missing = join(dir.path, 'no-such-folder', 'orders.csv');
      await expect(exportToFile(reader, options(), missing)).rejects.toMatchObject({ code: 'ENOENT' });
      expect(existsSync(`${missing}.part`)).toBe(false);
    } finally {
      reader.close();
    }
  });
});

describe('bounded memory', () => {
  const N = 40_000;
  let bulk: Database;

  beforeAll(() => {
    bulk = openDatabase(join(dir.path, 'bulk.db'));
    bulk.pragma('synchronous = OFF');
    const insertOrder = bulk.prepare(
      `INSERT INTO orders (id, terminal_id, api, state, method_id, kind, amount, currency, item_name, user_id, training,
         request_body, delivery, created_at, updated_at) VALUES (?, 'T01', 'v2', 'paid', 'qris_dynamic', 'qris', ?, 'IDR', ?, 'u', 0, '{}', 'answered', ?, ?)`,
    );
    const insertEvent = bulk.prepare(
      `INSERT INTO order_events (order_id, at, type, to_state, source) VALUES (?, ?, 'created', 'creating', 'cashier')`,
    );
    const start = midnight(DAYS[0]).getTime();
    bulk.transaction(() => {
      for (let i = 0; i < N; i++) {
        const at = new Date(start + i * 1000).toISOString();
        const id = `B-${String(i).padStart(6, '0')}`;
        insertOrder.run(id, 1000 + i, `Barang nomor ${i} dengan nama yang agak panjang`, at, at);
        insertEvent.run(id, at);
      }
    })();
  });

  afterAll(() => bulk.close());

  /** The connection, counting the rows its statements hand out. */
  function counting(source: Database): { db: Database; pulled: () => number } {
    let pulled = 0;
    const db = new Proxy(source, {
      get(target, key) {
        if (key === 'prepare')
          return (sql: string) => {
            const statement = target.prepare(sql);
            const iterate = statement.iterate.bind(statement);
            statement.iterate = ((...params: unknown[]) => {
              const rows = iterate(...params);
              return {
                [Symbol.iterator]() {
                  return this;
                },
                next() {
                  const step = rows.next();
                  if (!step.done) pulled++;
                  return step;
                },
                return(value?: unknown) {
                  return rows.return?.(value) ?? { done: true, value };
                },
              };
            }) as typeof statement.iterate;
            return statement;
          };
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { db, pulled: () => pulled };
  }

  /**
   * A destination that stops taking data after its first chunk, until the export has stopped reading rows
   * (the count stays the same over many turns of the event loop); then it takes everything. Returns the most
   * rows read while it was stopped.
   */
  async function throughStalledConsumer(format: 'csv' | 'xlsx'): Promise<{ stalledAt: number; rows: number }> {
    const { db: source, pulled } = counting(bulk);
    let release: (() => void) | undefined;
    let stalled = true;
    const out = new Writable({
      highWaterMark: 16 * 1024,
      write(_chunk, _encoding, callback) {
        if (stalled && release === undefined) release = callback;
        else callback();
      },
    });
    const exporting = exportOrders(source, { ...options({ format }), from: DAYS[0], to: DAYS[2] }, out);
    let stalledAt = 0;
    let same = 0;
    while (stalled) {
      await new Promise((resolve) => setImmediate(resolve));
      const n = pulled();
      same = release !== undefined && n === stalledAt ? same + 1 : 0;
      stalledAt = n;
      // Rows stopped coming while the destination held its first chunk: let everything through.
      if (same >= 200 || n >= N) {
        stalled = false;
        release?.();
      }
    }
    const result = await exporting;
    return { stalledAt, rows: result.rows };
  }

  it('CSV: reads no more rows than its buffers hold while the destination takes nothing', async () => {
    const { stalledAt, rows } = await throughStalledConsumer('csv');
    expect(rows).toBe(N);
    expect(stalledAt).toBeGreaterThan(0);
    // Buffers: 256 records, 64 KiB of text in the stringifier, 16 KiB at the destination: well under 2,000 rows.
    expect(stalledAt).toBeLessThan(2_000);
  });

  it('XLSX: the same, through exceljs and the zip (whose sheet stream is watched: sheetInput)', async () => {
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: new PassThrough().resume() });
    expect(() => sheetInput(book.addWorksheet('x'))).not.toThrow();
    const { stalledAt, rows } = await throughStalledConsumer('xlsx');
    expect(rows).toBe(N);
    expect(stalledAt).toBeGreaterThan(0);
    // The zip's input (64 KiB of XML) and its way out (16 KiB compressed, and what zlib holds): a few thousand
    // rows at most. Unbounded, either would take all 40,000 while the destination holds its first chunk.
    expect(stalledAt).toBeLessThan(5_000);
  });
});

describe('ZoneClock', () => {
  it('gives each instant its own offset across a daylight-saving change, and odd offsets', () => {
    const berlin = new ZoneClock('Europe/Berlin');
    expect(berlin.withOffset('2026-03-29T00:59:59.999Z')).toBe('2026-03-29T01:59:59.999+01:00');
    expect(berlin.withOffset('2026-03-29T01:00:00.000Z')).toBe('2026-03-29T03:00:00.000+02:00');
    expect(berlin.withOffset('2026-10-25T00:59:59.999Z')).toBe('2026-10-25T02:59:59.999+02:00');
    expect(berlin.withOffset('2026-10-25T01:00:00.000Z')).toBe('2026-10-25T02:00:00.000+01:00');
    expect(new ZoneClock('Asia/Kathmandu').withOffset('2026-11-23T01:15:02.123Z')).toBe(
      '2026-11-23T07:00:02.123+05:45',
    );
    expect(new ZoneClock('America/St_Johns').withOffset('2026-01-01T00:00:00.000Z')).toBe(
      '2025-12-31T20:30:00.000-03:30',
    );
    for (const iso of ['2026-03-29T00:59:59.999Z', '2026-03-29T01:00:00.000Z', '2026-10-25T01:00:00.000Z'])
      expect(new Date(berlin.withOffset(iso)).toISOString()).toBe(iso);
  });

  it('neutralise touches only text that starts like a formula or holds invisible characters', () => {
    expect(['=1', '+1', '-1', '@a', '\ta', '\ra'].map(neutralise)).toEqual([
      "'=1",
      "'+1",
      "'-1",
      "'@a",
      "'\ta",
      "'\ra",
    ]);
    // A blank in front (which an import may trim) or a full-width sign (which some read as the ASCII one).
    expect(
      [' =1', '\u00a0=1', '\u2007x', '\u3000x', '\nx', '\uff1d1', '\uff0b1', '\uff0d1', '\uff20a'].map(neutralise),
    ).toEqual(["' =1", "'\u00a0=1", "'\u2007x", "'\u3000x", "'\nx", "'\uff1d1", "'\uff0b1", "'\uff0d1", "'\uff20a"]);
    expect(['1', 'a=1', 'a =1', '', "'x", 'Kopi susu', '\u{1f469}\u200d\u{1f373} Koki'].map(neutralise)).toEqual([
      '1',
      'a=1',
      'a =1',
      '',
      "'x",
      'Kopi susu',
      '\u{1f469}\u200d\u{1f373} Koki',
    ]);
    // Invisible and direction characters are written as markers, wherever they are.
    expect(['Kopi\u202egnp.exe', '\u2066=1', 'a\u200bb\ufeff'].map(neutralise)).toEqual([
      'Kopi<U+202E>gnp.exe',
      '<U+2066>=1',
      'a<U+200B>b<U+FEFF>',
    ]);
  });
});
