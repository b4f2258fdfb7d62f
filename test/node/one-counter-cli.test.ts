// One counter at the command line (issue 26 items 7 and 9): a sale paid by `order pay` or settled by `reconcile` in
// another run completes its sale in that run's transaction (the books count it at once), and the drawer opens for
// every cash tender and cash refund made at the command line. Real parts: the CLI's commands in this process on a
// real data folder, a sandbox gateway over HTTP on 127.0.0.1, a TCP printer stand-in whose bytes are decoded.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runOrderCommand, runReconcileCommand } from '../../src-main/cli/order-commands';
import { runRefundCommand } from '../../src-main/cli/refund-commands';
import { runReportCommand } from '../../src-main/cli/report-commands';
import { runSaleCommand } from '../../src-main/cli/sale-commands';
import { runShiftCommand } from '../../src-main/cli/shift-commands';
import { DEFAULT_SETTINGS } from '../../src-main/common/settings';
import { SETTINGS_KEY } from '../../src-main/core/settings/settings-store';
import { DRAWER_PULSE } from '../../src-main/core/shifts/drawer';
import { openStoreBooks } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { gatewayEnv, tempDir } from './helpers/loket';
import { printerStandIn } from './helpers/printer-stand-in';
import { waitFor } from './helpers/wait-for';
import type { OpenOptions } from '../../src-main/runtime';

let sandbox: SandboxHandle;
let dir: { path: string; remove(): void };
let options: OpenOptions;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  dir = tempDir('loket-one-counter-cli-');
  options = { dataDir: dir.path, env: gatewayEnv(sandbox, { LOKET_TERMINAL_ID: 'T05' }) };
});
afterEach(() => dir.remove());

type Command = (
  argv: string[],
  options: OpenOptions,
  io: { out(t: string): void; err(t: string): void },
) => Promise<number>;
async function run(command: Command, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await command(args, options, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}
const sale = (...args: string[]) => run(runSaleCommand as Command, ...args);

function saleState(saleId: string): string | undefined {
  const store = openStoreBooks({ dataDir: dir.path, env: {}, readOnly: true });
  try {
    return store.db.prepare<[string], string>('SELECT state FROM sales WHERE id = ?').pluck().get(saleId);
  } finally {
    store.close();
  }
}

describe('a sale settled outside the running app completes in the same run', () => {
  it('order pay: the QRIS sale is completed by the confirmation, and the day report counts it', async () => {
    const charged = await sale('--line', 'free:Kopi susu=18000', '--method', 'qris_dynamic', '--json');
    expect(charged.code).toBe(0);
    const { saleId, order } = JSON.parse(charged.out) as { saleId: string; order: { id: string } };
    expect(saleState(saleId)).toBe('tendering');
    const paid = await run(runOrderCommand as Command, 'pay', order.id, '--reason', 'seen in the bank app');
    expect(paid.code).toBe(0);
    expect(saleState(saleId)).toBe('completed');
    const report = await run(runReportCommand as Command, '--json');
    expect(report.code).toBe(0);
    expect(JSON.parse(report.out).sales.completed).toEqual({ count: 1, amount: 18_000 });
  });

  it('reconcile: an unknown QRIS sale the gateway says is paid is completed by that run', async () => {
    sandbox.faults.set({ drop_after_store: true, count: 2 });
    const charged = await sale('--line', 'free:Kopi susu=18000', '--method', 'qris_dynamic', '--json');
    expect(charged.code).toBe(4);
    const { saleId, order } = JSON.parse(charged.out) as { saleId: string; order: { id: string; state: string } };
    expect(order.state).toBe('unknown');
    // While it is unknown, no other tender is taken at this till, from any process.
    expect((await run(runShiftCommand as Command, 'open', '--float', '0')).code).toBe(0);
    const cash = await sale('--line', 'free:Teh=5000', '--pay', 'cash:5000');
    expect(cash).toMatchObject({ code: 4, err: expect.stringContaining(`order ${order.id} is still unknown`) });
    sandbox.settle(order.id, 'PAID');
    expect((await run(runReconcileCommand as Command)).code).toBe(0);
    expect(saleState(saleId)).toBe('completed');
    expect((await sale('--line', 'free:Teh=5000', '--pay', 'cash:5000')).code).toBe(0);
  });
});

describe('the drawer opens for every cash tender and cash refund made at the command line', () => {
  it('shift open, three cash sales, a cash refund and the close: six pulses, each ESC p 0 25 250', async () => {
    const printer = await printerStandIn();
    try {
      const store = openStoreBooks({ dataDir: dir.path, env: {} });
      store.settings.set(SETTINGS_KEY, {
        ...DEFAULT_SETTINGS,
        printer: { kind: 'network', host: '127.0.0.1', port: printer.port, paper: 58, autoPrint: false },
      });
      store.close();
      expect((await run(runShiftCommand as Command, 'open', '--float', '100000')).code).toBe(0);
      const saleIds: string[] = [];
      for (const handed of ['20000', '50000', '18000']) {
        const r = await sale('--line', 'free:Kopi susu=18000', '--pay', `cash:${handed}`, '--json');
        expect(r.code).toBe(0);
        saleIds.push((JSON.parse(r.out) as { saleId: string }).saleId);
      }
      const refund = await run(runRefundCommand as Command, saleIds[0]!, '--reason', 'spilled', '--cash');
      expect(refund.code).toBe(0);
      expect((await run(runShiftCommand as Command, 'close', '--counted', '136000')).code).toBe(0);
      await waitFor(() => printer.jobs.length === 6, 'six drawer pulses at the printer');
      for (const job of printer.jobs) expect(job.equals(DRAWER_PULSE)).toBe(true);
    } finally {
      await printer.close();
    }
  });
});
