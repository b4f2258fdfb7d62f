/**
 * The money-safety audit's items of the counter (issue 26; scripts/audit-money-safety.ts runs them after its own): what
 * was tried, how often, and how often money slipped — a double charge booked twice, cash taken while a QRIS charge is
 * unknown, a void without its cash back, a shift closed under a sale being paid, a payment after a void not kept as a
 * late payment, the Z report and the day report apart, a sale settled outside the app left unfinished, the expected
 * cash shown without a manager, a cash tender or refund at the command line without its drawer pulse. Real parts, as
 * the tests have them (test/node/one-counter*.test.ts, counter-books.test.ts): the app host in training mode with its
 * embedded sandbox, the CLI's commands in this process against a sandbox on 127.0.0.1, a TCP printer stand-in.
 */
import { randomUUID } from 'node:crypto';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { runOrderCommand } from '../../src-main/cli/order-commands';
import { runRefundCommand } from '../../src-main/cli/refund-commands';
import { runSaleCommand } from '../../src-main/cli/sale-commands';
import { runShiftCommand } from '../../src-main/cli/shift-commands';
import type { TenderInput } from '../../src-main/common/cash';
import { dayIn } from '../../src-main/common/gateway-time';
import type { Cart } from '../../src-main/common/sale';
import { DEFAULT_SETTINGS } from '../../src-main/common/settings';
import { SETTINGS_KEY } from '../../src-main/core/settings/settings-store';
import { DRAWER_PULSE } from '../../src-main/core/shifts/drawer';
import { openStoreBooks, type OpenOptions } from '../../src-main/runtime';
import { startSandbox } from '../../src-main/sandbox/server';
import { gatewayEnv, tempDir } from '../../test/node/helpers/loket';
import { printerStandIn } from '../../test/node/helpers/printer-stand-in';
import { becomesTrue } from '../../test/node/helpers/wait-for';

/** One item's tally (the audit's): `record(false, what)` counts a failure and says what slipped. */
export interface AuditTally {
  record(held: boolean, what: string): void;
  detail: string;
}

export interface AuditItem {
  item: number;
  title: string;
  tried: string;
  run: (t: AuditTally) => Promise<void>;
}

const cart = (price = 18_000): Cart => ({
  lines: [{ lineId: 'l1', name: 'Kopi susu', unitPrice: price, qty: 1, taxCategory: 'ppn' }],
  saleDiscount: null,
  saleKey: randomUUID(),
});
const split = (cash = 5_000): TenderInput[] => [
  { kind: 'cash', handed: cash },
  { kind: 'gateway', methodId: 'qris_dynamic' },
];

/** A fresh app host on its own data folder with an open shift; closed and removed after `run`. */
async function withHost(run: (h: AppHost) => Promise<void>, float = 100_000): Promise<void> {
  const dir = tempDir('loket-audit-counter-');
  const h = await startAppHost({ version: 'audit', dataDir: dir.path, env: {} });
  try {
    await h.app.openShift({ float });
    await run(h);
  } finally {
    await h.close();
    dir.remove();
  }
}

const count = (h: AppHost, sql: string, ...params: unknown[]) =>
  h.loket.db
    .prepare(sql)
    .pluck()
    .get(...params) as number;
const saleState = (h: AppHost, id: string) => count(h, 'SELECT state FROM sales WHERE id = ?', id) as unknown as string;

async function doubleTap(t: AuditTally): Promise<void> {
  await withHost(async (h) => {
    for (let pair = 0; pair < 20; pair++) {
      const input = { cart: cart(10_000 + pair * 100), tenders: [{ kind: 'cash', handed: 20_000 }] as TenderInput[] };
      const before = count(h, 'SELECT COUNT(*) FROM sales');
      await Promise.all([h.app.chargeSale(input), h.app.chargeSale(structuredClone(input))]);
      const made = count(h, 'SELECT COUNT(*) FROM sales') - before;
      t.record(made === 1, `pair ${pair}: ${made} sales for one cart`);
    }
  });
}

async function cashWhileUnknown(t: AuditTally): Promise<void> {
  await withHost(async (h) => {
    h.loket.sandbox!.faults.set({ drop_after_store: true, count: 2 });
    const qris = await h.app.chargeSale({ cart: cart(), methodId: 'qris_dynamic' });
    if (qris.ok || qris.order?.state !== 'unknown') throw new Error('the QRIS charge did not become unknown');
    await h.app.showOnDisplay(null);
    for (let i = 0; i < 10; i++) {
      const tenders: TenderInput[] =
        i % 2 === 0 ? [{ kind: 'cash', handed: 20_000 }] : [{ kind: 'other', reference: `EDC ${i}` }];
      const taken = await Promise.resolve()
        .then(() => h.app.chargeSale({ cart: cart(), tenders }))
        .then(
          (r) => r.ok,
          () => false,
        );
      t.record(!taken, `try ${i}: a ${tenders[0]!.kind} sale went through while ${qris.order.id} was unknown`);
    }
  });
}

async function voidWithoutCashBack(t: AuditTally): Promise<void> {
  await withHost(async (h) => {
    for (let i = 0; i < 25; i++) {
      const r = await h.app.chargeSale({ cart: cart(20_000 + i), tenders: split() });
      if (!r.ok || !r.order) throw new Error('a split sale was not charged');
      if (i % 2 === 0) h.loket.sandbox!.settle(r.order.id, 'FAILED');
      else await h.app.voidSale({ saleId: r.saleId, reason: 'customer left' });
      await becomesTrue(() => saleState(h, r.saleId) === 'voided', 10_000);
      const back = count(
        h,
        "SELECT COALESCE(SUM(amount), 0) FROM shift_events WHERE type = 'cash_void' AND document_id = ?",
        r.saleId,
      );
      t.record(back === 5_000, `sale ${r.saleId} voided with Rp${back} of its Rp5.000 given back`);
    }
  });
}

async function closeUnderPendingSale(t: AuditTally): Promise<void> {
  await withHost(async (h) => {
    for (let i = 0; i < 10; i++) {
      const r = await h.app.chargeSale({ cart: cart(), tenders: split() });
      if (!r.ok || !r.order) throw new Error('a split sale was not charged');
      const closed = await Promise.resolve()
        .then(() => h.app.closeShift({ counted: 0 }))
        .then(
          () => true,
          () => false,
        );
      t.record(!closed, `try ${i}: the shift closed while sale ${r.saleId} was being paid`);
      if (closed) await h.app.openShift({ float: 0 });
      await h.app.simulatePayment(r.order.id);
      await becomesTrue(() => saleState(h, r.saleId) === 'completed', 10_000);
    }
  });
}

async function paidAfterVoid(t: AuditTally): Promise<void> {
  await withHost(async (h) => {
    for (let i = 0; i < 10; i++) {
      const r = await h.app.chargeSale({ cart: cart(), tenders: split() });
      if (!r.ok || !r.order) throw new Error('a split sale was not charged');
      await h.app.voidSale({ saleId: r.saleId, reason: 'customer left' });
      h.loket.sandbox!.settle(r.order.id, 'PAID');
      const late = await becomesTrue(
        () => count(h, 'SELECT late_payment FROM sale_tenders WHERE order_id = ?', r.order!.id) === 1,
        10_000,
      );
      t.record(late, `sale ${r.saleId}: its QRIS part paid after the void is not a late payment of the sale`);
    }
  });
}

async function zAgainstDay(t: AuditTally): Promise<void> {
  await withHost(async (h) => {
    const token = (await h.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
    let kept = 0;
    for (let i = 0; i < 30; i++) {
      const kind = i % 3;
      const r = await h.app.chargeSale({
        cart: cart(10_000 + i * 250),
        tenders: kind === 0 ? [{ kind: 'cash', handed: 50_000 }] : split(2_000 + i * 10),
      });
      if (!r.ok) throw new Error('a sale was not charged');
      const cash = r.sale.tenders.filter((x) => x.kind === 'cash').reduce((a, x) => a + x.amount, 0);
      if (!r.order) kept += cash;
      else if (kind === 1) {
        await h.app.simulatePayment(r.order.id);
        await becomesTrue(() => saleState(h, r.saleId) === 'completed', 10_000);
        kept += cash;
      } else await h.app.voidSale({ saleId: r.saleId, reason: 'customer left' });
    }
    const z = await h.app.shiftReport(token, {});
    const day = await h.app.dayReport(token, dayIn(new Date(), 'Asia/Jakarta'));
    const dayCash = day.sales?.taken?.byTender.find((x) => x.kind === 'cash')?.amount ?? 0;
    const zCash = z.tenders.find((x) => x.tender === 'cash')?.amount ?? 0;
    t.record(zCash === dayCash && zCash === kept, `Z cash Rp${zCash}, day report Rp${dayCash}, kept Rp${kept}`);
    t.record(z.expected === 100_000 + kept, `expected Rp${z.expected}, float and kept cash Rp${100_000 + kept}`);
  });
}

async function cliRig(run: (options: OpenOptions, cli: CliRunner) => Promise<void>): Promise<void> {
  const sandbox = await startSandbox({ port: 0 });
  const dir = tempDir('loket-audit-cli-');
  const options: OpenOptions = { dataDir: dir.path, env: gatewayEnv(sandbox, { LOKET_TERMINAL_ID: 'T07' }) };
  const cli: CliRunner = async (command, ...args) => {
    let out = '';
    const code = await command(args, options, { out: (s) => (out += s), err: () => undefined });
    return { code, out };
  };
  try {
    await run(options, cli);
  } finally {
    await sandbox.close();
    dir.remove();
  }
}
type Command = (
  argv: string[],
  options: OpenOptions,
  io: { out(t: string): void; err(t: string): void },
) => Promise<number>;
type CliRunner = (command: Command, ...args: string[]) => Promise<{ code: number; out: string }>;

async function settledOutside(t: AuditTally): Promise<void> {
  await cliRig(async (options, cli) => {
    for (let i = 0; i < 10; i++) {
      const sold = await cli(
        runSaleCommand as Command,
        '--line',
        `free:Kopi ${i}=18000`,
        '--method',
        'qris_dynamic',
        '--json',
      );
      const { saleId, order } = JSON.parse(sold.out) as { saleId: string; order: { id: string } };
      await cli(runOrderCommand as Command, 'pay', order.id, '--reason', 'seen in the bank app');
      const store = openStoreBooks({ dataDir: options.dataDir!, env: {}, readOnly: true });
      const state = store.db.prepare<[string], string>('SELECT state FROM sales WHERE id = ?').pluck().get(saleId);
      store.close();
      t.record(state === 'completed', `sale ${saleId} is ${state} after order pay`);
    }
  });
}

async function blindCount(t: AuditTally): Promise<void> {
  await withHost(async (h) => {
    // The drawer should hold Rp37.000: neither the X report nor a refused pay-out may tell the cashier so.
    await h.app.chargeSale({ cart: cart(37_000), tenders: [{ kind: 'cash', handed: 50_000 }] });
    const x = await Promise.resolve()
      .then(() => h.app.shiftReport(null, {}))
      .then(
        (r) => JSON.stringify(r),
        () => '',
      );
    t.record(!/37\.?000/.test(x), 'the X report with the expected cash answered without a manager');
    const refusal = await Promise.resolve()
      .then(() => h.app.shiftMovement({ type: 'pay_out', amount: 50_000, reason: 'supplier' }))
      .then(
        (r) => JSON.stringify(r),
        (e: Error) => e.message,
      );
    t.record(!/37\.?000/.test(refusal), `a pay-out's refusal: ${refusal}`);
  }, 0);
}

async function drawerAtCli(t: AuditTally): Promise<void> {
  const printer = await printerStandIn();
  try {
    await cliRig(async (options, cli) => {
      const store = openStoreBooks({ dataDir: options.dataDir!, env: {} });
      store.settings.set(SETTINGS_KEY, {
        ...DEFAULT_SETTINGS,
        printer: { kind: 'network', host: '127.0.0.1', port: printer.port, paper: 58, autoPrint: false },
      });
      store.close();
      await cli(runShiftCommand as Command, 'open', '--float', '0');
      const base = printer.jobs.length;
      const sales: string[] = [];
      for (let i = 0; i < 10; i++) {
        const r = await cli(runSaleCommand as Command, '--line', `free:Teh ${i}=5000`, '--pay', 'cash:10000', '--json');
        sales.push((JSON.parse(r.out) as { saleId: string }).saleId);
      }
      for (const id of sales.slice(0, 2)) await cli(runRefundCommand as Command, id, '--reason', 'spilled', '--cash');
      await becomesTrue(() => printer.jobs.length - base >= 12, 5_000);
      const pulses = printer.jobs.slice(base).filter((j) => j.equals(DRAWER_PULSE)).length;
      for (let i = 0; i < 12; i++) t.record(i < pulses, `cash ${i < 10 ? 'sale' : 'refund'} ${i + 1}: no drawer pulse`);
    });
  } finally {
    await printer.close();
  }
}

export const COUNTER_ITEMS: AuditItem[] = [
  { item: 14, title: 'a cash cart charged twice at once', tried: '20 pairs of the same chargeSale', run: doubleTap },
  {
    item: 15,
    title: 'cash or slip while QRIS unknown',
    tried: '5 cash, 5 card slips after a lost answer',
    run: cashWhileUnknown,
  },
  {
    item: 16,
    title: 'a void without its cash back',
    tried: '25 split sales failed or voided',
    run: voidWithoutCashBack,
  },
  {
    item: 17,
    title: 'shift closed under a sale being paid',
    tried: '10 closes while a split QRIS waits',
    run: closeUnderPendingSale,
  },
  { item: 18, title: 'QRIS paid after its sale was voided', tried: '10 splits voided, then PAID', run: paidAfterVoid },
  {
    item: 19,
    title: 'Z report against the day report',
    tried: '30 sales (cash, split paid, split voided)',
    run: zAgainstDay,
  },
  {
    item: 20,
    title: 'a sale settled outside the app',
    tried: '10 CLI QRIS sales, then order pay',
    run: settledOutside,
  },
  { item: 21, title: 'the blind count', tried: "the X report and a pay-out's refusal, no manager", run: blindCount },
  {
    item: 22,
    title: 'the drawer at the command line',
    tried: '10 cash sales, 2 cash refunds, network printer',
    run: drawerAtCli,
  },
];
