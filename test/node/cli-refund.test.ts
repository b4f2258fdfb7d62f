// npm run cli -- refund: the real CLI in a child process for the exact command, and the commands in this process for
// the rest (shift open, sale, refund, shift report, report), on real SQLite files; the sandbox gateway over real
// HTTP on 127.0.0.1 as the sale command needs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runRefundCommand } from '../../src-main/cli/refund-commands';
import { runReportCommand } from '../../src-main/cli/report-commands';
import { runSaleCommand } from '../../src-main/cli/sale-commands';
import { runShiftCommand } from '../../src-main/cli/shift-commands';
import { openStoreBooks } from '../../src-main/runtime';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { runCli } from './helpers/cli-child';
import { gatewayEnv, tempDir } from './helpers/loket';

let sandbox: SandboxHandle;
const dir = tempDir('loket-cli-refund-');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
  dir.remove();
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) },
    text: () => out.join(''),
    error: () => err.join(''),
  };
}

interface RefundJson {
  ok: boolean;
  refund: { id: string; how: string; paidBack: number; amount: number; lines: { saleLineNo: number; qty: number }[] };
  issues?: { field: string; rule: string }[];
}

describe('npm run cli -- refund', { timeout: 180_000 }, () => {
  it('refunds a line of a cash sale from the drawer, refuses what breaks a rule, records outside for a card sale', async () => {
    const options = { dataDir: join(dir.path, 'data'), env: gatewayEnv(sandbox) };
    expect(await runShiftCommand(['open', '--float', '100000'], options, io().io)).toBe(0);
    const sold = io();
    expect(
      await runSaleCommand(
        ['--line', 'KOPI-SUSU*3', '--line', 'free:Es batu=2000', '--pay', 'cash:60000', '--json'],
        options,
        sold.io,
      ),
    ).toBe(0);
    const saleId = (JSON.parse(sold.text()) as { saleId: string }).saleId;

    // The exact command, through cli.ts in a child process.
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LOKET_')) env[name] = value;
    const child = await runCli(
      ['refund', saleId, '--line', 'KOPI-SUSU', '--reason', 'spilt at the table', '--cash', '--json'],
      { env: { ...env, LOKET_DATA_DIR: options.dataDir, ...gatewayEnv(sandbox) } },
    );
    expect(child.stderr).toBe('');
    expect(child.code).toBe(0);
    const first = JSON.parse(child.stdout) as RefundJson;
    expect(first).toMatchObject({
      ok: true,
      refund: { how: 'cash', amount: 18_000, paidBack: 18_000, lines: [{ saleLineNo: 1, qty: 1 }] },
    });

    // Invalid input: exit 2, naming the flag, the field and the rule; nothing written.
    const over = io();
    expect(await runRefundCommand([saleId, '--line', '1*3', '--reason', 'too many'], options, over.io)).toBe(2);
    expect(over.error()).toMatch(/line 1: at most 2 left to refund \(asked for 3\) \(--line #1\) \[qty\]/);
    const unknown = io();
    await expect(runRefundCommand([saleId, '--line', '9', '--reason', 'no such'], options, unknown.io)).rejects.toThrow(
      /--line #1: the sale has no line "9"/,
    );
    await expect(runRefundCommand([saleId, '--line', '1'], options, io().io)).rejects.toThrow(/--reason: is required/);
    const short = io();
    expect(await runRefundCommand([saleId, '--reason', 'no'], options, short.io)).toBe(2);
    expect(short.error()).toMatch(/reason: say why.*\(--reason\) \[reason\]/);
    const outside = io();
    expect(await runRefundCommand([saleId, '--reason', 'card?', '--outside'], options, outside.io)).toBe(2);
    expect(outside.error()).toMatch(/\[outside_needs_digital\]/);

    // The rest of the sale, in text: two more coffees and the ice.
    const rest = io();
    expect(await runRefundCommand([saleId, '--reason', 'customer changed mind'], options, rest.io)).toBe(0);
    expect(rest.text()).toMatch(/sale refunded in full/);
    expect(rest.text()).toMatch(/paid back: cash from the drawer/);
    expect(rest.text()).toMatch(/Rp\s?38\.000/);

    // A card sale goes back outside Loket by default.
    const card = io();
    expect(await runSaleCommand(['--line', 'ES-TEH', '--pay', 'other:8000:EDC-1', '--json'], options, card.io)).toBe(0);
    const cardId = (JSON.parse(card.text()) as { saleId: string }).saleId;
    const back = io();
    expect(await runRefundCommand([cardId, '--reason', 'wrong drink', '--json'], options, back.io)).toBe(0);
    expect(JSON.parse(back.text())).toMatchObject({ ok: true, refund: { how: 'outside', paidBack: 8_000 } });

    // The X report: the cash refunds, and the card tender beside the cash.
    const x = io();
    expect(await runShiftCommand(['report', '--json'], options, x.io)).toBe(0);
    const report = JSON.parse(x.text()) as {
      refunds: { count: number; amount: number };
      tenders: { tender: string; count: number; amount: number }[];
      expected: number;
    };
    expect(report.refunds).toEqual({ count: 2, amount: 56_000 });
    expect(report.tenders).toEqual([
      { tender: 'cash', count: 1, amount: 56_000 },
      { tender: 'other', count: 1, amount: 8_000 },
    ]);
    expect(report.expected).toBe(100_000);

    // The refund was approved by the command line's account, audited.
    const books = openStoreBooks({ dataDir: options.dataDir, readOnly: true });
    try {
      expect(books.audit.list({ limit: 10 }).filter((e) => e.action === 'refund.approved')).toHaveLength(3);
    } finally {
      books.close();
    }

    // The day report: the refunds by how, and the tax given back.
    const day = io();
    expect(await runReportCommand(['--json'], options, day.io)).toBe(0);
    const json = JSON.parse(day.text()) as {
      refunds: { count: number; amount: number; paidBack: number; byHow: { how: string; count: number }[] };
    };
    expect(json.refunds).toMatchObject({ count: 3, paidBack: 64_000 });
    expect(json.refunds.byHow.map((h) => [h.how, h.count])).toEqual([
      ['cash', 2],
      ['outside', 1],
    ]);
  });
});
