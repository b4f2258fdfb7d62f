// A shift cannot close while a sale of its till is still being paid (docs/tenders.md, "Shifts"): a split sale's cash
// is in the drawer and its QRIS part is pending, so closing would leave the cash owed back on a failure to no shift,
// or to the next one, which never took it. The close is refused inside its write transaction, naming the sale by its
// struk number, its waiting order and method, and what to do; through the API (the app host, its embedded sandbox on
// 127.0.0.1) and at the command line (against the sandbox over real HTTP).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { dispatchApiCall, type ApiEnvelope } from '../../src-main/common/api';
import type { ChargeSaleResult } from '../../src-main/common/sale';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { runSaleCommand } from '../../src-main/cli/sale-commands';
import { runShiftCommand } from '../../src-main/cli/shift-commands';
import { SaleStore } from '../../src-main/core/sales/sale-store';
import { SalesBeingPaid } from '../../src-main/core/sales/sales-being-paid';
import { openLoket } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { gatewayEnv, tempDir } from './helpers/loket';
import { waitFor } from './helpers/wait-for';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

let host: AppHost | undefined;
const dirs: { remove(): void }[] = [];
afterEach(async () => {
  await host?.close();
  host = undefined;
  for (const d of dirs.splice(0)) d.remove();
});

function folder(): string {
  const d = tempDir('loket-close-paying-');
  dirs.push(d);
  return d.path;
}

const FREE_LINE = {
  lineId: 'a',
  name: 'Nasi campur',
  unitPrice: 36_000,
  qty: 1,
  taxCategory: 'exempt',
};

describe('closing a shift while a sale is being paid', () => {
  it('is refused through the API, naming the sale, its order and what to do; once it is paid, the shift closes', async () => {
    host = await startAppHost({ version: 't', dataDir: folder(), env: {} });
    const call = (method: string, ...args: unknown[]): Promise<ApiEnvelope<unknown>> =>
      dispatchApiCall(host!.app, method, args, () => undefined);
    const ok = async <T>(method: string, ...args: unknown[]): Promise<T> => {
      const answer = await call(method, ...args);
      if (!answer.ok) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
      return answer.result as T;
    };
    await ok('openShift', { float: 100_000 });
    // A cash-only sale completes at once and holds nothing up.
    const cash = await ok<ChargeSaleResult>('chargeSale', {
      cart: { lines: [{ ...FREE_LINE, lineId: 'c', unitPrice: 10_000 }], saleDiscount: null },
      tenders: [{ kind: 'cash', handed: 10_000 }],
    });
    expect(cash).toMatchObject({ ok: true, sale: { state: 'completed' } });
    const split = await ok<ChargeSaleResult>('chargeSale', {
      cart: { lines: [FREE_LINE], saleDiscount: null },
      tenders: [
        { kind: 'cash', handed: 20_000 },
        { kind: 'gateway', methodId: 'qris_dynamic' },
      ],
    });
    expect(split).toMatchObject({ ok: true, sale: { state: 'tendering' } });
    if (!split.ok || !split.order) throw new Error('the split sale has no order');
    const orderId = split.order.id;

    const refused = await call('closeShift', { counted: 130_000 });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        reason: {
          key: 'shift.sales_being_paid',
          params: {
            sales: [{ serial: 'T01-000002', orderId, methodId: 'qris_dynamic', orderState: 'awaiting_payment' }],
          },
        },
      },
    });
    const message = (refused as { error: { message: string } }).error.message;
    expect(message).toContain(`T01-000002 (Rp36.000; its qris_dynamic order ${orderId} is awaiting_payment)`);
    expect(message).toMatch(/Wait for the payment, check it again .*, or void the sale/);
    // The blind count stays blind: the refusal says nothing of what the drawer should hold.
    expect(JSON.stringify(refused)).not.toMatch(/130000|expected/);
    expect(await ok('currentShift')).toMatchObject({ state: 'open' });

    await ok('simulatePayment', orderId);
    await waitFor(
      () => host!.loket.db.prepare("SELECT state FROM sales WHERE state = 'tendering'").all().length === 0,
      'the split sale to complete',
    );
    const closed = await ok<{ expected: number; difference: number }>('closeShift', { counted: 130_000 });
    expect(closed).toMatchObject({ expected: 130_000, difference: 0 });
  });

  it('is refused at the command line (exit 2), the shift staying open; the struk number is the sale store’s', async () => {
    const dataDir = join(folder(), 'data');
    const options = { dataDir, env: gatewayEnv(sandbox) };
    const io = () => {
      const out: string[] = [];
      const err: string[] = [];
      return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
    };
    expect(await runShiftCommand(['open', '--float', '50000'], options, io().io)).toBe(0);
    const sold = io();
    expect(
      await runSaleCommand(
        ['--line', 'free:Nasi=36000', '--pay', 'cash:20000', '--pay', 'qris_dynamic', '--json'],
        options,
        sold.io,
      ),
    ).toBe(0);
    const sale = JSON.parse(sold.out.join('')) as { sale: { id: string }; order: { id: string } };
    const close = io();
    expect(await runShiftCommand(['close', '--counted', '70000'], options, close.io)).toBe(2);
    expect(close.err.join('')).toContain(
      'the shift cannot close while a sale of this till is still being paid: ' +
        `T01-000001 (Rp36.000; its qris_dynamic order ${sale.order.id} is awaiting_payment). Wait for the payment`,
    );
    const report = io();
    expect(await runShiftCommand(['report', '--json'], options, report.io)).toBe(0);
    expect(JSON.parse(report.out.join(''))).toMatchObject({ kind: 'X', shift: { state: 'open' } });

    const loket = await openLoket({ dataDir, env: gatewayEnv(sandbox) });
    try {
      const paying = new SalesBeingPaid(loket.db).ofTerminal('T01');
      expect(paying).toEqual([
        expect.objectContaining({ saleId: sale.sale.id, orderId: sale.order.id, methodId: 'qris_dynamic' }),
      ]);
      expect(paying[0]!.serial).toBe(new SaleStore(loket.db, { now: () => new Date() }).serialOf(sale.sale.id));
      // Another till's sales are not this till's to wait for.
      expect(new SalesBeingPaid(loket.db).ofTerminal('T02')).toEqual([]);
    } finally {
      await loket.close();
    }
  });
});
