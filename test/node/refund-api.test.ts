// The refund's API methods (common/api-table/refund-methods.ts) served by the app host, as browser mode and the
// desktop app call them: through the one gate (dispatchApiCall) on a real data folder in training mode, with the
// receipt printer and its cash drawer behind a TCP printer stand-in on 127.0.0.1 that records the bytes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { dispatchApiCall, type ApiEnvelope } from '../../src-main/common/api';
import type { RefundableView, RefundSaleResult } from '../../src-main/common/refund-doc';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { formatRupiah } from '../../src-main/common/money';
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
  dir = tempDir('loket-refund-api-');
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

describe('the refund API', () => {
  it("refunds one line of a cash sale with a manager's PIN: the drawer opens, the receipt shows and prints", async () => {
    const session = await host!.app.setupManager({ name: 'Bu Sri', pin: '97531864' });
    await ok('openShift', { float: 100_000 });
    const kopi = (await ok<{ id: string; price: number; sku: string; name: string; taxCategory: string }>(
      'productByCode',
      { code: 'KOPI-SUSU' },
    ))!;
    const sold = await ok<{ ok: boolean; saleId: string }>('chargeSale', {
      cart: {
        lines: [
          {
            lineId: 'a',
            productId: kopi.id,
            sku: kopi.sku,
            name: kopi.name,
            unitPrice: kopi.price,
            qty: 2,
            taxCategory: kopi.taxCategory,
          },
        ],
        saleDiscount: null,
      },
      tenders: [{ kind: 'cash', handed: 40_000 }],
    });
    expect(sold.ok).toBe(true);
    await waitFor(() => jobs.length === 2, 'the drawer to open for the float and the sale');

    const left = await ok<RefundableView>('refundableOf', { saleId: sold.saleId });
    expect(left).toMatchObject({ refundable: true, hows: ['cash'], defaultHow: 'cash', paid: 36_000 });
    expect(left.lines).toMatchObject([{ lineId: 'a', position: 1, qtyLeft: 2, name: 'Kopi susu' }]);

    // The schema: a PIN is required at the till; a wrong one is refused with its rule, and never echoed.
    expect(
      await call('refundSale', {
        saleId: sold.saleId,
        reason: 'spilt it',
        how: 'cash',
        lines: [{ lineId: 'a', qty: 1 }],
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_arguments' } });
    const wrong = await ok<RefundSaleResult>('refundSale', {
      saleId: sold.saleId,
      lines: [{ lineId: 'a', qty: 1 }],
      reason: 'spilt it',
      how: 'cash',
      managerPin: { staffId: session.staff.id, pin: '11112222' },
    });
    expect(wrong).toMatchObject({ ok: false, issues: [{ field: 'managerPin', rule: 'wrong_pin' }] });
    expect(JSON.stringify(wrong)).not.toContain('11112222');

    const done = await ok<RefundSaleResult>('refundSale', {
      saleId: sold.saleId,
      lines: [{ lineId: 'a', qty: 1 }],
      reason: 'spilt it',
      how: 'cash',
      managerPin: { staffId: session.staff.id, pin: '97531864' },
    });
    if (!done.ok) throw new Error(JSON.stringify(done.issues));
    expect(done.refund).toMatchObject({ paidBack: 18_000, approvedBy: { name: 'Bu Sri' }, training: true });
    expect(done.refundable.lines[0]!.qtyLeft).toBe(1);
    await waitFor(() => jobs.length === 3, 'the drawer to open for the cash refund');
    expect(jobs[2]!.equals(DRAWER_PULSE)).toBe(true);

    const receipt = await ok<{ html: string }>('refundReceipt', { refundId: done.refund.id, paper: 80 });
    expect(receipt.html).toMatch(/STRUK PENGEMBALIAN|REFUND RECEIPT/);
    expect(receipt.html).toContain('spilt it');
    expect(receipt.html).toMatch(/18\.000/);
    // The original struk's number (the sale's serial: the terminal and its place among the terminal's sales) and
    // the PPN given back, with its DPP, as the refund stored them.
    expect(receipt.html).toMatch(/<dt>No\. struk asal<\/dt><dd>[A-Z0-9]+-000001<\/dd>/);
    expect(done.refund.tax.ppn).toBeGreaterThan(0);
    expect(receipt.html).toContain(`<dt>PPN</dt><dd>${formatRupiah(done.refund.tax.ppn)}</dd>`);
    expect(receipt.html).toContain(`<dt>DPP</dt><dd>${formatRupiah(done.refund.tax.dpp)}</dd>`);
    const printed = await ok<{ ok: boolean; reason: { key: string } }>('printRefundReceipt', {
      refundId: done.refund.id,
    });
    expect(printed).toMatchObject({ ok: true, reason: { key: 'print.done' } });
    await waitFor(() => jobs.length === 4, 'the refund receipt on the printer');
    expect(jobs[3]!.toString('latin1')).toMatch(/18\.000/);
    expect(jobs[3]!.toString('latin1')).toMatch(/No\. struk asal +[A-Z0-9]+-000001/);
    expect(jobs[3]!.toString('latin1')).toContain('Pajak yang dikembalikan');
    expect(jobs[3]!.toString('latin1')).not.toMatch(/SALINAN|COPY/);
    // The first went out: every later one is a copy.
    expect((await ok<{ html: string }>('refundReceipt', { refundId: done.refund.id, paper: 58 })).html).toMatch(
      /SALINAN|COPY/,
    );

    expect(await call('refundReceipt', { refundId: 'nope', paper: 58 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    // The X report counts the cash refund, and the expected cash gives it back.
    const x = await ok<{ refunds: { count: number; amount: number }; expected: number }>(
      'shiftReport',
      session.token,
      {},
    );
    expect(x.refunds).toEqual({ count: 1, amount: 18_000 });
    expect(x.expected).toBe(100_000 + 36_000 - 18_000);
  });
});
