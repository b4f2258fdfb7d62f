// The books agree with themselves over random days worked through the counter (issue 26): carts of every tender
// (cash, a card slip, QRIS, split cash + QRIS, split slip + QRIS), split sales voided or failed at the gateway and some
// paid late after that, refunds in cash and outside, shifts closed with a count and opened again, and restarts of the
// app in between. An oracle adds up what the test itself did; the shift's expected cash, the Z report, the day report
// (money taken, sales, refunds) and the manager's export must all say the same, to the rupiah. Real parts: the app
// host in training mode with its embedded sandbox over HTTP on 127.0.0.1, a real SQLite file. Seeded
// (LOKET_PROPERTY_SEED), printed on failure.
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { startAppHost } from '../../src-main/app-host';
import type { TenderInput } from '../../src-main/common/cash';
import { dayIn } from '../../src-main/common/gateway-time';
import type { Cart, ChargeSaleResult } from '../../src-main/common/sale';
import { tempDir } from './helpers/loket';
import { seededRandom } from './helpers/property';
import { waitFor } from './helpers/wait-for';

const TZ = 'Asia/Jakarta';
const DAYS = Number(process.env.COUNTER_BOOKS_DAYS ?? 3);
const SALES_PER_DAY = Number(process.env.COUNTER_BOOKS_SALES ?? 24);
const dir = tempDir('loket-counter-books-');
afterAll(() => dir.remove());

interface Shift {
  float: number;
  /** What the test put in the drawer and took out of it (its own count, not Loket's). */
  cash: number;
}

describe('the books over random days through the counter', () => {
  it(`${DAYS} days of ${SALES_PER_DAY} sales: shift cash, Z, day report and export agree with an oracle`, async () => {
    const random = seededRandom('LOKET_PROPERTY_SEED');
    onTestFailed(() => console.error(`counter books: ${random.describeSeed()}`));
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random.next() * xs.length)]!;
    const chance = (p: number) => random.next() < p;

    let host = await startAppHost({ version: 't', dataDir: dir.path, env: {} });
    let token = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
    const restart = async () => {
      await host.close();
      host = await startAppHost({ version: 't', dataDir: dir.path, env: {} });
      const unlocked = await host.app.unlockManager(1, '97531864');
      if (!unlocked.ok) throw new Error('the manager could not unlock');
      token = unlocked.session.token;
    };
    try {
      // The oracle's books, for the one store day all of this happens on.
      let taken = 0;
      let completedSales = 0;
      let refundedBack = 0;
      let refunds = 0;
      const shifts: Shift[] = [];
      let shift: Shift | undefined;
      const openShift = async () => {
        const float = pick([0, 100_000, 250_000]);
        await host.app.openShift({ float });
        shift = { float, cash: float };
        shifts.push(shift);
      };
      const closeShift = async () => {
        const x = await host.app.shiftReport(token, {});
        // The Z's cash of the shift's sales is the cash the oracle saw go in and stay.
        expect(x.expected).toBe(shift!.cash);
        const short = pick([0, 0, 1_000]);
        const closed = await host.app.closeShift({ counted: shift!.cash - short });
        expect(closed).toMatchObject({ expected: shift!.cash, difference: short === 0 ? 0 : -short });
        shift = undefined;
      };
      const completedIds: { saleId: string; paid: number; cash: boolean }[] = [];

      for (let d = 0; d < DAYS; d++) {
        await openShift();
        for (let i = 0; i < SALES_PER_DAY; i++) {
          const price = 1_000 + Math.floor(random.next() * 60) * 500;
          const cart: Cart = {
            lines: [{ lineId: 'l1', name: `Barang ${d}-${i}`, unitPrice: price, qty: 1 + (i % 3), taxCategory: 'ppn' }],
            saleDiscount: null,
            saleKey: `day${d}-sale${i}-${random.seed}`,
          };
          const total = (await host.app.quoteSale({ cart })) as { ok: true; figures: { total: number } };
          const due = total.figures.total;
          const kind = pick(['cash', 'other', 'qris', 'cash+qris', 'other+qris'] as const);
          const cashPart = Math.min(due - 500, 1_000 * (1 + Math.floor(random.next() * 5)));
          const tenders: TenderInput[] =
            kind === 'cash'
              ? [{ kind: 'cash', handed: due + pick([0, 500, 2_000]) }]
              : kind === 'other'
                ? [{ kind: 'other', reference: `EDC ${i}` }]
                : kind === 'qris'
                  ? [{ kind: 'gateway', methodId: 'qris_dynamic' }]
                  : kind === 'cash+qris'
                    ? [
                        { kind: 'cash', handed: cashPart },
                        { kind: 'gateway', methodId: 'qris_dynamic' },
                      ]
                    : [
                        { kind: 'other', amount: cashPart, reference: `EDC ${i}` },
                        { kind: 'gateway', methodId: 'qris_dynamic' },
                      ];
          // Sometimes the cashier taps twice: the second is the first's answer, never a second sale.
          const [result, again] = chance(0.2)
            ? await Promise.all([host.app.chargeSale({ cart, tenders }), host.app.chargeSale({ cart, tenders })])
            : [await host.app.chargeSale({ cart, tenders }), undefined];
          if (!result.ok) throw new Error(`sale ${d}-${i} refused: ${JSON.stringify(result)}`);
          if (again) expect(again.saleId).toBe(result.saleId);
          const cashIn = result.sale.tenders.filter((t) => t.kind === 'cash').reduce((a, t) => a + t.amount, 0);
          shift!.cash += cashIn;
          const paidNow = (sale: ChargeSaleResult & { ok: true }) => {
            taken += sale.sale.total + sale.sale.rounding;
            completedSales += 1;
            completedIds.push({ saleId: sale.saleId, paid: sale.sale.total + sale.sale.rounding, cash: cashIn > 0 });
          };
          if (!result.order) {
            paidNow(result);
          } else {
            const fate = pick(['paid', 'paid', 'failed', 'voided', 'voided-then-paid'] as const);
            const orderId = result.order.id;
            if (fate === 'paid') {
              await host.app.simulatePayment(orderId);
              await waitFor(
                async () => (await host.app.sale({ saleId: result.saleId }))?.state === 'completed',
                'paid',
              );
              paidNow(result);
            } else {
              if (fate === 'failed') host.loket.sandbox!.settle(orderId, 'FAILED');
              else await host.app.voidSale({ saleId: result.saleId, reason: 'pelanggan batal' });
              await waitFor(async () => (await host.app.sale({ saleId: result.saleId }))?.state === 'voided', 'voided');
              // The void gave the cash back in its own transaction.
              shift!.cash -= cashIn;
              if (fate === 'voided-then-paid') {
                host.loket.sandbox!.settle(orderId, 'PAID');
                await waitFor(() => host.loket.log.get(orderId)?.latePayment === true, 'a late payment');
              }
            }
          }
          if (completedIds.length > 0 && chance(0.15)) {
            const target = pick(completedIds);
            const left = await host.app.refundableOf({ saleId: target.saleId });
            if (left?.refundable) {
              const how = left.hows.includes('outside') && chance(0.5) ? 'outside' : 'cash';
              const r = await host.app.refundSale({
                saleId: target.saleId,
                reason: 'barang rusak',
                how,
                managerPin: { staffId: 1, pin: '97531864' },
              });
              if (r.ok) {
                refunds += 1;
                refundedBack += r.refund.paidBack;
                if (how === 'cash') shift!.cash -= r.refund.paidBack;
              } else expect(r.issues[0]?.rule, JSON.stringify(r.issues)).toBe('drawer');
            }
          }
          if (chance(0.05)) await restart();
          if (i === Math.floor(SALES_PER_DAY / 2) && chance(0.5)) {
            await closeShift();
            await openShift();
          }
        }
        await closeShift();
      }

      // The day report and the export, against the oracle and each other.
      const day = dayIn(new Date(), TZ);
      const report = await host.app.dayReport(token, day);
      expect(report.sales!.taken!.amount).toBe(taken);
      expect(report.sales!.completed.count).toBe(completedSales);
      expect(report.refunds!.count).toBe(refunds);
      expect(report.refunds!.paidBack).toBe(refundedBack);
      const cashTaken = report.sales!.taken!.byTender.find((t) => t.kind === 'cash')?.amount ?? 0;
      // Every shift's Z: its expected cash is its float, the cash taken and kept, less the cash refunds.
      const zs = await Promise.all(
        (report.shifts ?? []).map(
          (s) => host.app.shiftReport(null, { shiftId: s.id }) as Promise<{ expected: number }>,
        ),
      );
      expect(zs.map((z) => z.expected)).toEqual(shifts.map((s) => s.cash));
      expect(zs.reduce((a, z) => a + z.expected, 0)).toBe(
        shifts.reduce((a, s) => a + s.float, 0) +
          cashTaken -
          (report.refunds!.byHow.find((h) => h.how === 'cash')?.paidBack ?? 0),
      );
      const ticket = await host.app.prepareExport(token, { from: day, to: day, format: 'csv', table: 'takings' });
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (c: Buffer) => chunks.push(c));
      await host.app.takeDownload(ticket.downloadId)!.write(out);
      const rows = parse(Buffer.concat(chunks).toString('utf8'), { columns: true, bom: true, delimiter: [',', ';'] });
      expect((rows as { amount: string }[]).reduce((a, r) => a + Number(r.amount), 0)).toBe(taken);
      console.log(
        `counter books: ${random.describeSeed()}: ${DAYS * SALES_PER_DAY} sales, ${completedSales} completed ` +
          `(Rp${taken}), ${refunds} refunds, ${shifts.length} shifts: all agree`,
      );
    } finally {
      await host.close();
    }
  }, 300_000);
});
