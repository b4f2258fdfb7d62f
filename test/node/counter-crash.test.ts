// kill -9 at seeded points while the counter works (issue 26 items 3 and 11): a sale, its tenders, its order, the
// shift's cash and the audit entry are written together or not at all; a void and the cash it gives back are one
// transaction; a discount's approval and a refund's approval are audited in the transaction of the change. Real parts:
// a child process on a real data folder against a sandbox gateway over HTTP on 127.0.0.1, killed with SIGKILL.
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { openLoket } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { gatewayEnv, tempDir } from './helpers/loket';
import { seededRandom } from './helpers/property';
import { runAndKill } from './helpers/kill-child';

const RUNS = Number(process.env.CRASH_RUNS ?? 10);

let sandbox: SandboxHandle;
const dir = tempDir('loket-counter-crash-');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  // A little latency widens the window in which a kill lands with a charge in flight.
  sandbox.faults.set({ latency_ms: 10 });
});
afterAll(async () => {
  await sandbox.close();
  dir.remove();
});

/** What the books say, read after a restart: every invariant of the counter's one transaction. */
async function checkBooks(): Promise<{ sales: number; voided: number; refunds: number }> {
  const loket = await openLoket({ dataDir: dir.path, env: gatewayEnv(sandbox, { LOKET_TERMINAL_ID: 'T09' }) });
  try {
    const db = loket.db;
    const all = <T>(sql: string) => db.prepare(sql).all() as T[];
    // Every sale with a cash tender has exactly one cash movement of its cash; none without.
    const cashMismatch = all<{ id: string }>(
      `SELECT s.id FROM sales s
       WHERE (SELECT COALESCE(SUM(t.handed - t.change), 0) FROM sale_tenders t WHERE t.sale_id = s.id AND t.kind = 'cash')
          <> (SELECT COALESCE(SUM(e.amount - e.change), 0) FROM shift_events e WHERE e.document_id = s.id AND e.type = 'cash_tender')`,
    );
    expect(cashMismatch, 'a sale whose cash and drawer movement differ').toEqual([]);
    // A voided sale gave back exactly the cash it took, in its own shift; a sale not voided gave back nothing.
    const voidMismatch = all<{ id: string; state: string }>(
      `SELECT s.id, s.state FROM sales s
       WHERE (SELECT COALESCE(SUM(e.amount), 0) FROM shift_events e WHERE e.document_id = s.id AND e.type = 'cash_void')
          <> CASE WHEN s.state = 'voided' THEN
               (SELECT COALESCE(SUM(e.amount - e.change), 0) FROM shift_events e
                WHERE e.document_id = s.id AND e.type = 'cash_tender') ELSE 0 END`,
    );
    expect(voidMismatch, 'a void without its cash back, or cash back without a void').toEqual([]);
    // Every sale's gateway tender has its order, and every order of this till its sale (a charge is a sale).
    expect(
      all(`SELECT t.order_id FROM sale_tenders t LEFT JOIN orders o ON o.id = t.order_id
                WHERE t.order_id IS NOT NULL AND o.id IS NULL`),
    ).toEqual([]);
    expect(
      all(`SELECT o.id FROM orders o LEFT JOIN sale_tenders t ON t.order_id = o.id WHERE t.order_id IS NULL`),
    ).toEqual([]);
    // A discount's approval is on its sale and in the audit log together; a refund's approval likewise.
    const approvedSales = all<{ id: string }>(
      `SELECT DISTINCT sale_id AS id FROM sale_events WHERE json_extract(payload, '$.discountApprovedBy') IS NOT NULL`,
    ).map((r) => r.id);
    const auditedSales = all<{ id: string }>(
      `SELECT json_extract(detail, '$.saleId') AS id FROM audit_events WHERE action = 'discount.approved'`,
    ).map((r) => r.id);
    expect(auditedSales.sort()).toEqual(approvedSales.sort());
    const refunds = all<{ id: string }>('SELECT id FROM refunds').map((r) => r.id);
    const auditedRefunds = all<{ id: string }>(
      `SELECT json_extract(detail, '$.refundId') AS id FROM audit_events WHERE action = 'refund.approved'`,
    ).map((r) => r.id);
    expect(auditedRefunds.sort()).toEqual(refunds.sort());
    // A void the cashier made is audited with it; the gateway's failures void without a person's entry.
    const cashierVoids = all<{ id: string }>(
      `SELECT DISTINCT s.id FROM sales s JOIN sale_tenders t ON t.sale_id = s.id JOIN order_events e ON e.order_id = t.order_id
       WHERE s.state = 'voided' AND e.to_state = 'cancelled'`,
    ).map((r) => r.id);
    const auditedVoids = all<{ id: string }>(
      `SELECT json_extract(detail, '$.saleId') AS id FROM audit_events WHERE action = 'sale.voided'`,
    ).map((r) => r.id);
    expect(auditedVoids.sort()).toEqual(cashierVoids.sort());
    // The drawer's expected cash is the float and the net of its movements, rebuilt from them.
    const shift = db.prepare<[], { id: string }>("SELECT id FROM shifts WHERE state = 'open'").get();
    if (shift) {
      const moved = db
        .prepare<[string], { net: number }>(
          `SELECT COALESCE(SUM(CASE type WHEN 'float' THEN amount WHEN 'cash_tender' THEN amount - change
             WHEN 'cash_void' THEN -amount WHEN 'cash_refund' THEN -amount ELSE 0 END), 0) AS net
           FROM shift_events WHERE shift_id = ?`,
        )
        .get(shift.id)!.net;
      const sold = db
        .prepare<[], { net: number }>(
          `SELECT COALESCE(SUM(t.amount), 0) AS net FROM sale_tenders t JOIN sales s ON s.id = t.sale_id
           WHERE t.kind = 'cash' AND s.state <> 'voided'`,
        )
        .get()!.net;
      const back = db
        .prepare<[], { n: number }>("SELECT COALESCE(SUM(paid_back), 0) AS n FROM refunds WHERE how = 'cash'")
        .get()!.n;
      expect(moved).toBe(1_000_000 + sold - back);
    }
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    return {
      sales: all('SELECT id FROM sales').length,
      voided: all("SELECT id FROM sales WHERE state = 'voided'").length,
      refunds: refunds.length,
    };
  } finally {
    await loket.close();
  }
}

describe('crash safety of the counter: SIGKILL at seeded moments', () => {
  it(`over ${RUNS} kills: every sale is whole — its cash, its void's cash back and its audit entries with it`, async () => {
    const random = seededRandom('LOKET_CRASH_SEED');
    onTestFailed(() => console.error(`counter crash: ${random.describeSeed()}`));
    let lines = 0;
    for (let run = 0; run < RUNS; run++) {
      const out = await runAndKill(
        'test/node/fixtures/counter-crash-child.ts',
        { ...gatewayEnv(sandbox), LOKET_DATA_DIR: dir.path, LOKET_TERMINAL_ID: 'T09' },
        40 + Math.floor(random.next() * 500),
      );
      lines += out.split('\n').filter((l) => /^(SALE|SPLIT|REFUND) /.test(l)).length;
      await checkBooks();
    }
    const books = await checkBooks();
    expect(books.sales).toBeGreaterThan(RUNS);
    expect(books.voided).toBeGreaterThan(0);
    expect(books.refunds).toBeGreaterThan(0);
    console.log(
      `counter crash: ${RUNS} kills, ${lines} charges reported, ${books.sales} sales (${books.voided} voided, ` +
        `${books.refunds} refunds) whole`,
    );
  }, 240_000);
});
