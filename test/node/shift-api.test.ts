// The shift's API methods (common/api.ts) served by the app host, as browser mode and the desktop app call them:
// through the one gate (dispatchApiCall) on a real data folder in training mode, with the cash drawer behind a TCP
// printer stand-in on 127.0.0.1 that records the bytes; a sale's cash through the ledger opens the drawer too.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { dispatchApiCall, type ApiEnvelope } from '../../src-main/common/api';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { DRAWER_PULSE } from '../../src-main/core/shifts/drawer';
import { tempDir } from './helpers/loket';
import { waitFor } from './helpers/wait-for';

let dir: { path: string; remove: () => void };
let host: AppHost | undefined;
let server: Server;
let sockets: Socket[];
let jobs: Buffer[];

const call = (method: string, ...args: unknown[]): Promise<ApiEnvelope<unknown>> =>
  dispatchApiCall(host!.app, method, args, () => undefined);

async function ok<T>(method: string, ...args: unknown[]): Promise<T> {
  const answer = await call(method, ...args);
  if (!answer.ok) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
  return answer.result as T;
}

beforeEach(async () => {
  dir = tempDir('loket-shift-api-');
  jobs = [];
  sockets = [];
  server = createServer((socket) => {
    sockets.push(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => jobs.push(Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  host = await startAppHost({
    version: 't',
    dataDir: dir.path,
    env: {},
    printer: { host: '127.0.0.1', port: (server.address() as AddressInfo).port, paper: 58 },
  });
});

afterEach(async () => {
  await host?.close();
  host = undefined;
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  dir.remove();
});

describe('the shift API', () => {
  it('opens, moves cash, closes blind and reports; the drawer opens on each, and on a sale’s cash', async () => {
    expect(await ok('currentShift')).toBeNull();
    const opened = await ok<{ shift: { id: string }; drawer: { ok: boolean } }>('openShift', { float: 100_000 });
    expect(opened.drawer).toMatchObject({ ok: true, reason: { key: 'drawer.opened' } });
    expect(opened.shift.id).toBe('T01-S0001');
    const paidIn = await ok('shiftMovement', { type: 'pay_in', amount: 20_000, reason: 'coins from the bank' });
    // Blind: what the drawer should hold is in none of the cashier's answers before the count.
    for (const answer of [opened, paidIn, await ok('currentShift')])
      expect(JSON.stringify(answer)).not.toMatch(/expected|120000/);

    // A cash sale at the counter: its cash goes into the shift in the sale's transaction, then the drawer opens.
    const sold = await ok<{ ok: boolean; drawer?: { ok: boolean } }>('chargeSale', {
      cart: {
        lines: [{ lineId: 'l1', name: 'Kopi', unitPrice: 47_000, qty: 1, taxCategory: 'ppn' }],
        saleDiscount: null,
        saleKey: 'shift-api-sale-1',
      },
      tenders: [{ kind: 'cash', handed: 50_000 }],
    });
    expect(sold).toMatchObject({ ok: true, drawer: { ok: true } });
    await waitFor(() => jobs.length === 3, 'the drawer to open for the float, the pay-in and the cash tender');

    // The X report shows the expected cash: a manager's session only.
    const session = await host!.app.setupManager({ name: 'Bu Sri', pin: '97531864' });
    const x = await ok<{ kind: string; expected: number }>('shiftReport', session.token, {});
    expect(x).toMatchObject({ kind: 'X', expected: 167_000 });
    const html = await ok<{ html: string }>('shiftReportHtml', session.token, {});
    expect(html.html).toContain('LAPORAN X');
    expect(await ok('printShiftReport', session.token, {})).toMatchObject({ ok: true });

    const closed = await ok<Record<string, unknown>>('closeShift', {
      denominations: { note100000: 1, note50000: 1, note10000: 1, note5000: 1, note2000: 1 },
    });
    expect(closed).toMatchObject({ expected: 167_000, counted: 167_000, difference: 0, status: 'even' });
    await waitFor(() => jobs.length === 5, 'the report and the drawer at the close');
    expect(jobs.filter((j) => j.equals(DRAWER_PULSE))).toHaveLength(4);
    expect(await ok('currentShift')).toBeNull();
    // The closed shift's Z report is anyone's at the till: the close's answer already said it all.
    const z = await ok<{ kind: string; expected: number }>('shiftReport', null, { shiftId: 'T01-S0001' });
    expect(z).toMatchObject({ kind: 'Z', expected: 167_000 });
    expect((await ok<{ html: string }>('shiftReportHtml', null, {})).html).toContain('LAPORAN Z');
  });

  it("answers the X report and every expected-cash figure to a manager's session only", async () => {
    await ok('openShift', { float: 73_500 });
    await ok('shiftMovement', { type: 'pay_in', amount: 11_100, reason: 'coins from the bank' });
    // Without a session, or with one that is not live, the X report is refused in all three forms.
    for (const method of ['shiftReport', 'shiftReportHtml', 'printShiftReport'])
      for (const token of [null, 'b'.repeat(32)]) {
        const refused = await call(method, token, {});
        expect(refused, `${method} ${String(token)}`).toMatchObject({ ok: false, error: { code: 'locked' } });
        expect(JSON.stringify(refused)).not.toMatch(/84600|84\.600|expected/);
      }
    // The old call without the token is refused by the table, not answered.
    expect(await call('shiftReport', {})).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    // A live manager's session reads it; a locked one no longer does.
    const session = await host!.app.setupManager({ name: 'Bu Sri', pin: '97531864' });
    expect(await ok('shiftReport', session.token, {})).toMatchObject({ kind: 'X', expected: 84_600 });
    await host!.app.lockManager(session.token);
    expect(await call('shiftReport', session.token, {})).toMatchObject({ ok: false, error: { code: 'locked' } });

    // A pay-out the drawer cannot pay is refused without the drawer's figure; so is one over the limit.
    const short = await call('shiftMovement', { type: 'pay_out', amount: 90_000, reason: 'the rent' });
    expect(short).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_arguments',
        reason: { key: 'shift.field_rule', params: { field: 'amount', rule: 'drawer' } },
      },
    });
    const overLimit = await call('shiftMovement', { type: 'pay_out', amount: 150_000, reason: 'the rent' });
    expect(overLimit).toMatchObject({ ok: false, error: { reason: { key: 'shift.manager_pin' } } });
    for (const answer of [short, overLimit, await call('currentShift')])
      expect(JSON.stringify(answer)).not.toMatch(/84600|84\.600|expected/);
  });

  it('refuses bad input with the field and the rule, and a no sale without a manager’s right PIN', async () => {
    const bad = await call('openShift', { float: -1 });
    expect(bad).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_arguments',
        reason: { key: 'shift.field_rule', params: { field: 'float', rule: 'amount' } },
      },
    });
    expect(await call('shiftMovement', { type: 'pay_in', amount: 5, reason: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'conflict', reason: { key: 'shift.none_open' } },
    });
    await ok('openShift', { float: 0 });
    expect(await call('shiftMovement', { type: 'pay_in', amount: 5, reason: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', reason: { params: { field: 'reason', rule: 'reason' } } },
    });
    // The schema wants the manager's id and PIN; a wrong PIN is refused and never echoed.
    expect(await call('noSale', { reason: 'change for a note' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments' },
    });
    const session = await host!.app.setupManager({ name: 'Bu Sri', pin: '97531864' });
    const wrong = await call('noSale', {
      reason: 'change for a note',
      managerPin: { staffId: session.staff.id, pin: '11112222' },
    });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'forbidden', reason: { key: 'shift.manager_pin' } } });
    expect(JSON.stringify(wrong)).not.toContain('11112222');
    const right = await ok<{ event: { approvedBy: { name: string } } }>('noSale', {
      reason: 'change for a note',
      managerPin: { staffId: session.staff.id, pin: '97531864' },
    });
    expect(right.event.approvedBy.name).toBe('Bu Sri');
  });
});
