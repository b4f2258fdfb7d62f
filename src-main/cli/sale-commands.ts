import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../common/api';
import { MAX_CASH, type TenderInput } from '../common/cash';
import { formatRupiah } from '../common/money';
import { lineOfProduct, type ChargeSaleResult, type SaleFieldIssue, type SaleView } from '../common/sale';
import {
  DISCOUNT_AMOUNT_RANGE,
  MAX_QTY,
  nameProblem,
  QTY_RULE,
  UNIT_PRICE_RANGE,
  type Discount,
  type SaleLine,
} from '../common/sale-line';
import { readWholeRupiah, rupiahMessage, rupiahRule, type RupiahRange } from '../common/whole-rupiah';
import { loadItemCatalogue } from '../core/catalogue';
import { systemClock, type Clock } from '../core/ports';
import { ProductStore } from '../core/products/product-store';
import { AuditLog } from '../core/audit/audit-log';
import { Counter, type Charger } from '../core/counter/counter';
import { SaleStore } from '../core/sales/sale-store';
import { loadSaleSettings } from '../core/settings/sale-settings';
import type { CashLedger } from '../core/shifts/cash-ledger';
import { openLoket, type Loket, type OpenOptions } from '../runtime';
import { defaultIo, type Io } from './cli-support';
import { readSecret } from './secret-input';
import { StaffStore } from '../core/staff/staff-store';
import { EXIT, exitCodeOfCharge, UsageError } from './exit-codes';
import { orderSummaryLines } from './format';
import { ShiftBook } from '../core/shifts/shift-book';
import { cashSettingsOf, ShiftService } from '../core/shifts/shift-service';
import { printerDrawer, type DrawerPort } from '../core/shifts/drawer';
import type { DrawerResult } from '../common/shifts';
import { drawerPrinterOf } from './shift-commands';

export { SALE_USAGE } from './sale-usage';

export interface SaleCommandOptions extends OpenOptions {
  /** The drawer's shift for cash (core/shifts); none: a cash tender is refused (no shift is open). */
  cashLedger?: (loket: Loket) => CashLedger | undefined;
  /** The quick items that become products the first time (tests pass their own). */
  itemsPath?: string;
}

const FLAGS: Record<string, string> = { lines: '--line', saleDiscount: '--discount', tenders: '--pay' };

/** `--line 2 --pay 1` style names for a field of the cart or the tenders. */
function flagOf(field: string): string {
  const m = /^(lines|tenders)\[(\d+)\]/.exec(field);
  if (m) return `${FLAGS[m[1]!]} #${Number(m[2]) + 1}`;
  return FLAGS[field.split(/[.[]/)[0]!] ?? field;
}

export function parseDiscount(text: string): Discount {
  const pct = /^(\d{1,3})(?:[.,](\d{1,2}))?%$/.exec(text);
  if (pct) {
    const valueBp = Number(pct[1]) * 100 + Number((pct[2] ?? '').padEnd(2, '0'));
    if (valueBp > 10_000)
      throw new UsageError(`--discount: a percentage from 0% to 100% (got ${JSON.stringify(text)})`);
    return { kind: 'percent', valueBp };
  }
  if (/^\d+$/.test(text)) return { kind: 'amount', value: typedRupiah(text, '--discount', DISCOUNT_AMOUNT_RANGE) };
  throw new UsageError(
    `--discount: ${rupiahRule(DISCOUNT_AMOUNT_RANGE)} (5000) or a percentage (10%, 12.5%) (got ${JSON.stringify(text)})`,
  );
}

/** What a cash tender may hand over (0: only when rounding leaves nothing due), and what another tender may pay. */
const HANDED_RANGE = { min: 0, max: MAX_CASH };
const TENDER_AMOUNT_RANGE = { min: 1, max: MAX_CASH };

/** Digits typed for `flag` as an amount in `range`; else a UsageError naming the rule, echoing the text as typed. */
function typedRupiah(text: string, flag: string, range: RupiahRange): number {
  const read = readWholeRupiah(text, range);
  if (!read.ok) throw new UsageError(rupiahMessage(flag, range, text));
  return read.value;
}

export function parsePay(text: string, i: number): TenderInput {
  const at = `--pay #${i + 1}`;
  const amount = (s: string | undefined, range: RupiahRange): number => typedRupiah(s ?? '', `${at}: AMOUNT`, range);
  const [head, ...rest] = text.split(':');
  if (head === 'cash') {
    if (rest.length !== 1)
      throw new UsageError(`${at}: cash:AMOUNT, the cash handed over (got ${JSON.stringify(text)})`);
    return { kind: 'cash', handed: amount(rest[0], HANDED_RANGE) };
  }
  if (head === 'other') {
    if (rest.length < 2)
      throw new UsageError(
        `${at}: other:AMOUNT:REFERENCE, the slip's or the transfer's reference (got ${JSON.stringify(text)})`,
      );
    return { kind: 'other', amount: amount(rest[0], TENDER_AMOUNT_RANGE), reference: rest.slice(1).join(':') };
  }
  if (!head || !/^[A-Za-z0-9_.-]{1,64}$/.test(head))
    throw new UsageError(
      `${at}: cash:AMOUNT, other:AMOUNT:REFERENCE or METHOD_ID[:AMOUNT] (got ${JSON.stringify(text)})`,
    );
  if (rest.length > 1) throw new UsageError(`${at}: METHOD_ID[:AMOUNT] (got ${JSON.stringify(text)})`);
  return rest.length === 1
    ? { kind: 'gateway', methodId: head, amount: amount(rest[0], TENDER_AMOUNT_RANGE) }
    : { kind: 'gateway', methodId: head };
}

/** A free line as typed, `free:NAME=PRICE`: its name and price, checked by the cart's own rules. */
export interface FreeLine {
  name: string;
  unitPrice: number;
}

/**
 * `free:NAME=PRICE` (the part of a --line after any *QTY): the name (1 to 80 characters, nothing invisible or
 * direction-changing, as a line's name in the cart) and the price (a whole number of rupiah in the unit price's
 * range), or a UsageError naming the rule and its numbers.
 */
export function parseFreeLine(code: string, i: number): FreeLine {
  const at = `--line #${i + 1}`;
  const m = /^free:(.*)=([^=]*)$/s.exec(code);
  if (!m) throw new UsageError(`${at}: free:NAME=PRICE, the price in whole rupiah (got ${JSON.stringify(code)})`);
  const name = m[1]!.trim();
  const problem = nameProblem(name);
  if (problem !== undefined) throw new UsageError(`${at}: NAME: ${problem}`);
  return { name, unitPrice: typedRupiah(m[2]!, `${at}: PRICE`, UNIT_PRICE_RANGE) };
}

/**
 * CODE[*QTY]: the code and the quantity (1 when none). Any digits after the last `*` are the quantity, so
 * `CODE*10000` is refused by the quantity's rule, not looked up as a code. A free line is checked here too, and its
 * code given back in one form (`free:NAME=PRICE`, the price's digits without leading zeros).
 */
export function parseLine(text: string, i: number): { code: string; qty: number; free?: FreeLine } {
  const m = /^(.*)\*(\d+)$/s.exec(text);
  const code = (m ? m[1]! : text).trim();
  if (code === '') throw new UsageError(`--line #${i + 1}: CODE[*QTY]: a barcode, a SKU or free:NAME=PRICE`);
  let qty = 1;
  if (m) {
    const digits = m[2]!.replace(/^0+(?=\d)/, '');
    qty = digits.length > String(MAX_QTY).length ? MAX_QTY + 1 : Number(digits);
    if (qty < 1 || qty > MAX_QTY) throw new UsageError(`--line #${i + 1}: QTY: ${QTY_RULE} (got ${m[2]})`);
  }
  if (!code.startsWith('free:')) return { code, qty };
  const free = parseFreeLine(code, i);
  return { code: `free:${free.name}=${free.unitPrice}`, qty, free };
}

export async function runSaleCommand(
  argv: string[],
  options: SaleCommandOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      line: { type: 'string', multiple: true },
      discount: { type: 'string' },
      method: { type: 'string' },
      pay: { type: 'string', multiple: true },
      'customer-name': { type: 'string' },
      phone: { type: 'string' },
      manager: { type: 'string' },
      'manager-pin-stdin': { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const lineArgs = (values.line ?? []).map(parseLine);
  if (lineArgs.length === 0) throw new UsageError('--line: is required (CODE[*QTY], once per line)');
  const saleDiscount = values.discount === undefined ? null : parseDiscount(values.discount);
  if (values.method !== undefined && values.pay !== undefined)
    throw new UsageError('--method and --pay: give one of them (--method M is --pay M)');
  if (values.method === undefined && values.pay === undefined)
    throw new UsageError('--method or --pay: is required (how the sale is paid, e.g. --method qris_dynamic)');
  const tenders = values.pay?.map(parsePay);
  // A discount above the limit: the manager approves it with their PIN, never from the command line.
  if (values['manager-pin-stdin'] && values.manager === undefined)
    throw new UsageError('--manager-pin-stdin: with --manager NAME (the manager whose PIN it is)');
  const managerPin =
    values.manager === undefined
      ? undefined
      : await readSecret("manager's PIN", values['manager-pin-stdin'] === true, '--manager-pin-stdin');
  if (managerPin !== undefined && !/^\d{4,8}$/.test(managerPin))
    throw new UsageError("the manager's PIN: 4 to 8 digits (nothing was sent)");

  const loket = await openLoket(options);
  try {
    const products = new ProductStore(loket.store.db, clockOf(options));
    const settings = loadSaleSettings(loket.store.settings);
    products.seedQuickItems(loadItemCatalogue(options.itemsPath), settings.tax.defaultCategory);
    const lines: SaleLine[] = [];
    for (const [i, { code, qty }] of lineArgs.entries()) {
      const lineId = `l${i + 1}`;
      if (code.startsWith('free:')) {
        const m = /^free:(.+)=(\d{1,11})$/s.exec(code);
        if (!m)
          throw new UsageError(
            `--line #${i + 1}: free:NAME=PRICE, the price in whole rupiah (got ${JSON.stringify(code)})`,
          );
        lines.push({
          lineId,
          name: m[1]!.trim(),
          unitPrice: Number(m[2]),
          qty,
          taxCategory: settings.tax.defaultCategory,
        });
        continue;
      }
      const product = products.byCode(code);
      if (!product) {
        io.err(
          `--line #${i + 1}: ${JSON.stringify(code)}: no active product has this barcode or SKU; nothing was sent\n`,
        );
        return EXIT.INVALID_INPUT;
      }
      // Scanned (a barcode of it): the line keeps the barcode in its stored form.
      const barcode = product.barcodes.find((b) => b === code || b === `0${code}`);
      lines.push(lineOfProduct(product, lineId, qty, barcode));
    }
    let manager: { staffId: number; pin: string } | undefined;
    if (values.manager !== undefined) {
      const staff = new StaffStore(loket.store.db).findByName(values.manager);
      if (!staff) {
        io.err(`--manager: no member of staff is named ${JSON.stringify(values.manager)}; nothing was sent\n`);
        return EXIT.INVALID_INPUT;
      }
      manager = { staffId: staff.id, pin: managerPin! };
    }
    // Cash goes through this till's shift (shift open --float): the same ledger and counter the app's sale uses.
    const counter = cliCounter(loket, options, products);
    const result = await chargeOrRefuse(io, () =>
      counter.charge(
        {
          cart: { lines, saleDiscount, saleKey: newSaleKey() },
          ...(tenders ? { tenders } : { methodId: values.method! }),
          ...(values['customer-name'] !== undefined ? { customerName: values['customer-name'] } : {}),
          ...(values.phone !== undefined ? { phone: values.phone } : {}),
          ...(manager ? { managerPin: manager } : {}),
        },
        CLI_CHARGER,
      ),
    );
    if (typeof result === 'number') return result;
    if (result.ok) noteDrawer(io, result.drawer);
    if (values.json) io.out(JSON.stringify(jsonOf(result), null, 2) + '\n');
    else {
      if (result.sale) io.out(saleLines(result.sale).join('\n') + '\n');
      const order = result.ok ? result.order : result.order;
      if (order) io.out(orderSummaryLines(order, loket.methods, loket.settings.timeZone).join('\n') + '\n');
    }
    if (result.ok) return EXIT.OK;
    if (result.issues) {
      for (const issue of result.issues) io.err(`${issue.message} (${flagOf(issue.field)}) [${issue.rule}]\n`);
      io.err('nothing was sent\n');
      return EXIT.INVALID_INPUT;
    }
    io.err(`${result.failure.message}\n`);
    return exitCodeOfCharge(result.failure, result.order?.state);
  } finally {
    await loket.close();
  }
}

function clockOf(options: SaleCommandOptions): Clock {
  return options.clock ?? systemClock;
}

function jsonOf(result: ChargeSaleResult): unknown {
  return result.ok
    ? { ok: true, saleId: result.saleId, sale: result.sale, order: result.order }
    : {
        ok: false,
        saleId: result.saleId,
        sale: result.sale,
        order: result.order ?? null,
        failure: result.failure,
        ...(result.issues ? { issues: result.issues satisfies SaleFieldIssue[] } : {}),
      };
}

/** The sale as the CLI prints it: lines, subtotal, discounts, tax lines, total, tenders. */
export function saleLines(sale: SaleView): string[] {
  const rp = (n: number) => formatRupiah(n).padStart(16);
  const out = [`sale ${sale.id}  ${sale.state}${sale.training ? '  [SANDBOX]' : ''}`];
  for (const l of sale.lines) {
    out.push(
      `  ${String(l.qty).padStart(4)} × ${l.name.padEnd(30)} ${formatRupiah(l.unitPrice).padStart(14)} ${rp(l.gross)}`,
    );
    if (l.lineDiscount > 0) out.push(`         discount${' '.repeat(38)}${rp(-l.lineDiscount)}`);
  }
  out.push(`  subtotal${' '.repeat(45)}${rp(sale.subtotal)}`);
  if (sale.discounts > 0) out.push(`  discounts${' '.repeat(44)}${rp(-sale.discounts)}`);
  for (const t of sale.taxLines) {
    if (t.ppn > 0)
      out.push(
        `  DPP ${t.category}${' '.repeat(49 - t.category.length)}${rp(t.dpp)}`,
        `  PPN ${t.category}${' '.repeat(49 - t.category.length)}${rp(t.ppn)}`,
      );
    if (t.pbjt > 0) out.push(`  PBJT${' '.repeat(50)}${rp(t.pbjt)}`);
    if (t.service > 0) out.push(`  service${' '.repeat(47)}${rp(t.service)}`);
  }
  out.push(`  total${' '.repeat(48)}${rp(sale.total)}`);
  if (sale.rounding !== 0) out.push(`  cash rounding${' '.repeat(40)}${rp(sale.rounding)}`);
  for (const t of sale.tenders) {
    const what =
      t.kind === 'cash'
        ? `cash (handed ${formatRupiah(t.handed)}, change ${formatRupiah(t.change)})`
        : t.kind === 'other'
          ? `other (${t.reference})`
          : `${t.methodId}${t.orderId ? ` order ${t.orderId}` : ''}`;
    out.push(`  paid by ${what.padEnd(46)}${rp(t.amount)}  ${t.state}`);
  }
  return out;
}

/**
 * A charge the counter's guard refuses (an order of this till whose outcome is unknown, or one being sent): its words
 * on stderr and exit 4 (reconcile first; nothing was sent or taken), instead of an unexpected error.
 */
export async function chargeOrRefuse<T>(io: Io, charge: () => Promise<T>): Promise<T | number> {
  try {
    return await charge();
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'conflict') throw err;
    io.err(`${err.message}\n`);
    return EXIT.NOT_SENT_OR_UNKNOWN;
  }
}

/** A drawer that should have opened and did not (a network printer set up that failed), said on stderr. */
export function noteDrawer(io: Io, drawer: DrawerResult | undefined): void {
  if (drawer && !drawer.ok && drawer.reason?.key === 'drawer.failed') io.err(`note: ${drawer.message}\n`);
}

/** The command line charges as a member of staff would at the till: as the machine's account (docs/cli.md). */
export const CLI_CHARGER: Charger = { source: 'cli', staff: null };

/** A new idempotency key: each run of the command is a charge of its own. */
export function newSaleKey(): string {
  return randomUUID();
}

/**
 * The counter for one command (core/counter/counter.ts): the order log and gateway of `loket`, this till's shift for
 * cash, the drawer on the receipt printer when it is a network one (pulsed and awaited before the process ends), the
 * audit log of the order log's database.
 */
export function cliCounter(loket: Loket, options: SaleCommandOptions, products?: ProductStore): Counter {
  const clock = clockOf(options);
  const settings = loadSaleSettings(loket.store.settings);
  return new Counter({
    log: loket.log,
    orders: loket.orders,
    sales: new SaleStore(loket.db, clock),
    products: products ?? new ProductStore(loket.store.db, clock),
    settings: () => settings,
    terminalId: () => loket.terminalId,
    training: loket.training,
    clock,
    cashLedger: options.cashLedger?.(loket) ?? shiftLedgerOf(loket, clock),
    audit: tillAuditOf(loket, clock),
    approveAsManager: (staffId, pin) => loket.store.access.approveAsManager(staffId, pin),
    drawer: cliDrawerOf(loket),
  });
}

/**
 * The audit log of the order log's own database, so an entry commits with the change it records: the store's in live
 * mode (the same file), the training log's in training mode.
 */
export function tillAuditOf(loket: Loket, clock: Clock): AuditLog {
  return loket.db === loket.store.db ? loket.store.audit : new AuditLog(loket.db, clock, { standInStaff: true });
}

/** The drawer behind the receipt printer set up, when it is a network one (the pulse is awaited before exiting). */
export function cliDrawerOf(loket: Loket): DrawerPort {
  return printerDrawer(() => drawerPrinterOf(loket.store.settings.load()));
}

/** This till's shifts over the order log in use, for a sale's cash (the drawer opens when the printer is a network one). */
export function shiftLedgerOf(loket: Loket, clock: Clock): CashLedger {
  const settings = loket.store.settings.load();
  return new ShiftService({
    book: new ShiftBook(loket.db),
    clock,
    terminalId: () => loket.terminalId,
    timeZone: () => settings.timeZone,
    cash: () => cashSettingsOf(settings),
    drawer: printerDrawer(() => drawerPrinterOf(settings)),
    approver: loket.store.access,
    staffName: (id) => loket.store.access.staff.get(id)?.name,
  }).ledger;
}
