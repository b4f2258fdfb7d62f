import { parseArgs } from 'node:util';
import { formatRupiah } from '../common/money';
import type { RefundFieldIssue, RefundHow, RefundSaleResult, RefundView } from '../common/refund-doc';
import type { SaleView } from '../common/sale';
import { systemClock } from '../core/ports';
import { RefundService } from '../core/sales/refund-service';
import { RefundStore } from '../core/sales/refund-store';
import { SaleStore } from '../core/sales/sale-store';
import { loadSaleSettings } from '../core/settings/sale-settings';
import { StaffStore } from '../core/staff/staff-store';
import { openLoket } from '../runtime';
import { cliUser, defaultIo, type Io } from './cli-support';
import { EXIT, UsageError } from './exit-codes';
import {
  cliDrawerOf,
  noteDrawer,
  parseLine,
  shiftLedgerOf,
  tillAuditOf,
  type SaleCommandOptions,
} from './sale-commands';
import { readSecret } from './secret-input';

export { REFUND_USAGE } from './sale-usage';

/** The flag that sets a field of the refund, for the message. */
function flagOf(field: string): string {
  const m = /^lines\[(\d+)\]/.exec(field);
  if (m) return `--line #${Number(m[1]) + 1}`;
  if (field === 'reason') return '--reason';
  if (field === 'how') return '--cash/--outside';
  if (field === 'managerPin') return '--manager';
  if (field === 'saleId') return 'SALE_ID';
  return field;
}

/**
 * The sale's line a CODE names: its number on the receipt, else its SKU (any case) or barcode (a UPC-A also by its
 * 12 digits). A code that names no line, or several (the same product rung up twice), is refused naming the flag.
 */
export function lineOfCode(sale: SaleView, code: string, i: number): string {
  const flag = `--line #${i + 1}`;
  const lower = code.toLowerCase();
  const byCode = sale.lines.filter(
    (l) =>
      l.sku?.toLowerCase() === lower || l.barcode === code || (l.barcode !== undefined && l.barcode === `0${code}`),
  );
  if (byCode.length === 1) return byCode[0]!.lineId;
  if (byCode.length > 1)
    throw new UsageError(
      `${flag}: ${JSON.stringify(code)} names lines ${byCode.map((l) => l.lineNo).join(' and ')} of the sale; give the line's number instead`,
    );
  if (/^\d{1,4}$/.test(code)) {
    const line = sale.lines.find((l) => l.lineNo === Number(code));
    if (line) return line.lineId;
  }
  throw new UsageError(
    `${flag}: the sale has no line ${JSON.stringify(code)} (its lines are 1 to ${sale.lines.length}, or a SKU or barcode of one of them)`,
  );
}

export async function runRefundCommand(
  argv: string[],
  options: SaleCommandOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      line: { type: 'string', multiple: true },
      reason: { type: 'string' },
      cash: { type: 'boolean' },
      outside: { type: 'boolean' },
      manager: { type: 'string' },
      'manager-pin-stdin': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  if (positionals.length !== 1)
    throw new UsageError('SALE_ID: the id of the sale to refund, once (npm run cli -- refund SALE_ID --reason R)');
  const saleId = positionals[0]!;
  if (values.reason === undefined) throw new UsageError('--reason: is required (why, 3 to 200 characters)');
  if (values.cash && values.outside) throw new UsageError('--cash and --outside: give one of them');
  const lineArgs = (values.line ?? []).map(parseLine);
  if (values['manager-pin-stdin'] && values.manager === undefined)
    throw new UsageError('--manager-pin-stdin: with --manager NAME (the manager whose PIN it is)');
  const managerPin =
    values.manager === undefined
      ? undefined
      : await readSecret("manager's PIN", values['manager-pin-stdin'] === true, '--manager-pin-stdin');
  if (managerPin !== undefined && !/^\d{4,8}$/.test(managerPin))
    throw new UsageError("the manager's PIN: 4 to 8 digits (nothing was written)");

  const clock = options.clock ?? systemClock;
  const loket = await openLoket(options);
  try {
    const sales = new SaleStore(loket.db, clock);
    const sale = sales.get(saleId);
    if (!sale) {
      io.err(`SALE_ID: no sale ${JSON.stringify(saleId)} in this order log; nothing was written\n`);
      return EXIT.INVALID_INPUT;
    }
    const lines = lineArgs.map(({ code, qty }, i) => ({ lineId: lineOfCode(sale, code, i), qty }));
    let manager: { staffId: number; pin: string } | undefined;
    if (values.manager !== undefined) {
      const staff = new StaffStore(loket.store.db).findByName(values.manager);
      if (!staff) {
        io.err(`--manager: no member of staff is named ${JSON.stringify(values.manager)}; nothing was written\n`);
        return EXIT.INVALID_INPUT;
      }
      manager = { staffId: staff.id, pin: managerPin! };
    }
    const settings = loadSaleSettings(loket.store.settings);
    const refunds = new RefundService({
      sales,
      refunds: new RefundStore(loket.db),
      settings: () => settings,
      terminalId: () => loket.terminalId,
      training: loket.training,
      clock,
      approveAsManager: (staffId, pin) => loket.store.access.approveAsManager(staffId, pin),
      audit: tillAuditOf(loket, clock),
      cashLedger: options.cashLedger?.(loket) ?? shiftLedgerOf(loket, clock),
      drawer: cliDrawerOf(loket),
    });
    const how: RefundHow = values.cash
      ? 'cash'
      : values.outside
        ? 'outside'
        : (refunds.refundableOf({ saleId })?.defaultHow ?? 'cash');
    const result = await refunds.refundSale(
      {
        saleId,
        ...(lines.length > 0 ? { lines } : {}),
        reason: values.reason,
        how,
        ...(manager ? { managerPin: manager } : {}),
      },
      cliUser(),
    );
    // The drawer opened once the refund committed (awaited by the refund service, before this process ends).
    if (result.ok) noteDrawer(io, result.drawer);
    return report(result, values.json === true, io);
  } finally {
    await loket.close();
  }
}

function report(result: RefundSaleResult, json: boolean, io: Io): number {
  if (json) io.out(JSON.stringify(result, null, 2) + '\n');
  if (!result.ok) {
    for (const issue of result.issues satisfies RefundFieldIssue[])
      io.err(`${issue.message} (${flagOf(issue.field)}) [${issue.rule}]\n`);
    io.err('nothing was written\n');
    return EXIT.INVALID_INPUT;
  }
  if (!json) io.out(refundLines(result.refund).join('\n') + '\n');
  return EXIT.OK;
}

/** The refund as the CLI prints it: its lines, the tax given back, what went back and how. */
export function refundLines(r: RefundView): string[] {
  const rp = (n: number) => formatRupiah(n).padStart(16);
  const out = [
    `refund ${r.id}  of sale ${r.saleId}${r.training ? '  [SANDBOX]' : ''}${r.complete ? '  (sale refunded in full)' : ''}`,
  ];
  for (const l of r.lines)
    out.push(
      `  line ${String(l.saleLineNo).padStart(3)}  ${String(l.qty).padStart(4)} × ${l.name.padEnd(30)} ${rp(l.amount)}`,
    );
  out.push(`  amount${' '.repeat(44)}${rp(r.amount)}`);
  if (r.rounding !== 0) out.push(`  share of the sale's cash rounding${' '.repeat(17)}${rp(r.rounding)}`);
  if (r.cashRounding !== 0) out.push(`  cash refund rounding${' '.repeat(30)}${rp(r.cashRounding)}`);
  const how =
    r.how === 'cash'
      ? `cash from the drawer (shift ${r.shiftId})`
      : `outside Loket${r.methodId ? ` (${r.methodId})` : ''}`;
  out.push(`  paid back: ${how.padEnd(39)}${rp(r.paidBack)}`);
  const t = r.tax;
  const tax = `PPN ${formatRupiah(t.ppn)} (DPP ${formatRupiah(t.dpp)}), PBJT ${formatRupiah(t.pbjt)}`;
  out.push(`  tax given back: ${tax}, service ${formatRupiah(t.service)}`);
  out.push(`  reason: ${r.reason}`, `  approved by ${r.approvedBy.name}`);
  return out;
}
