import { parseArgs } from 'node:util';
import { dayIn, dayRange, formatGatewayDate } from '../common/gateway-time';
import { ORDER_STATES, type OrderState } from '../common/order';
import { OrderRuleError, REASON_RULE, reasonSchema } from '../common/order-policy';
import { MAX_RUPIAH, readWholeRupiah, rupiahMessage } from '../common/whole-rupiah';
import { describeFailure } from '../core/payments/order-service';
import { openLoket, type Loket, type OpenOptions } from '../runtime';
import { EXIT, exitCodeOfCharge, UsageError } from './exit-codes';
import type { ChargeFailure } from '../common/api';
import type { GatewayFailure } from '../core/gateway/client';
import { chargeResultOf, oneLineSale, orderFieldsOf, orderRefusalOf } from '../core/counter/one-line-sale';
import { loadSaleSettings } from '../core/settings/sale-settings';
import { chargeOrRefuse, CLI_CHARGER, cliCounter, newSaleKey } from './sale-commands';
import { orderSummaryLines } from './format';
import { readBooks } from './books';
import { OrderLog } from '../core/orders/order-log';

export const ORDER_USAGE = `Orders (the gateway: LOKET_GATEWAY_URL + LOKET_APP_ID + LOKET_APP_KEY, else settings, else the embedded sandbox;
the data folder: LOKET_DATA_DIR, else the OS's app-data folder):

  order create --method ID --amount N --item NAME [--item-id ID] [--customer-name N]
               [--user-id U] [--phone P] [--api v1|v2] [--json]
  order show ID [--json]
  order pay ID --reason TEXT [--actor NAME]        a manager's confirmation that it was paid
  order cancel ID --reason TEXT [--actor NAME]
  orders list [--date YYYY-MM-DD] [--state S] [--json]    --date is a day in the store's time zone
  reconcile [--json]                               resolve orders whose outcome is unknown

Exit codes: 0 ok, 1 unexpected error, 2 invalid input, 3 rejected by the gateway,
4 not sent or outcome unknown (safe to reconcile; never charge again),
5 live mode is set but the OS keychain cannot be used (nothing sent),
6 the order log cannot be used: the disk is full, the file damaged, empty or missing (nothing sent),
7 another Loket process (the app, serve) holds the data folder: order create/pay/cancel and reconcile are
  refused while it runs; order show and orders list only read, and work beside it.
`;

interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

const defaultIo: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

async function withLoket<T>(options: OpenOptions, io: Io, fn: (loket: Loket) => Promise<T>): Promise<T> {
  const loket = await openLoket(options);
  try {
    if (loket.interrupted.length)
      io.err(
        `note: ${loket.interrupted.length} order(s) interrupted by a stop are now unknown: ${loket.interrupted.join(', ')}\n`,
      );
    return await fn(loket);
  } finally {
    await loket.close();
  }
}

/** The amount typed, judged as digits (never rounded through a number first); the method's own range comes after. */
function wholeRupiah(text: string | undefined): number {
  if (text === undefined) throw new UsageError('--amount: is required');
  const range = { min: 1, max: MAX_RUPIAH };
  const read = readWholeRupiah(text, range);
  if (!read.ok) throw new UsageError(rupiahMessage('--amount', range, text));
  return read.value;
}

export async function runOrderCommand(argv: string[], options: OpenOptions = {}, io: Io = defaultIo): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'create':
      return create(rest, options, io);
    case 'show':
      return show(rest, options, io);
    case 'pay':
    case 'cancel':
      return manual(sub, rest, options, io);
    default:
      throw new UsageError(`order: unknown subcommand ${JSON.stringify(sub ?? '')}; use create, show, pay or cancel`);
  }
}

async function create(argv: string[], options: OpenOptions, io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      method: { type: 'string' },
      amount: { type: 'string' },
      item: { type: 'string' },
      'item-id': { type: 'string' },
      'customer-name': { type: 'string' },
      'user-id': { type: 'string' },
      phone: { type: 'string' },
      api: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (!values.method) throw new UsageError('--method: is required (a payment method id, e.g. qris_dynamic)');
  if (!values.item) throw new UsageError('--item: is required (the item name, at most 25 characters)');
  const amount = wholeRupiah(values.amount);
  const api = values.api ?? 'v2';
  if (api !== 'v1' && api !== 'v2') throw new UsageError(`--api: must be v1 or v2 (got ${JSON.stringify(api)})`);
  return withLoket(options, io, async (loket) => {
    // A typed item and amount is a one-line sale (the counter's one way to charge, as at the till).
    const settings = loadSaleSettings(loket.store.settings);
    const input = {
      methodId: values.method!,
      amount,
      itemName: values.item!,
      api: api as 'v1' | 'v2',
      ...(values['item-id'] === undefined ? {} : { itemId: values['item-id'] }),
      ...(values['customer-name'] === undefined ? {} : { customerName: values['customer-name'] }),
      ...(values.phone === undefined ? {} : { phone: values.phone }),
    };
    const refused = orderRefusalOf(input, loket.methods);
    const charged =
      refused ??
      (await chargeOrRefuse(io, () =>
        cliCounter(loket, options).charge(
          oneLineSale(input, settings.tax.defaultCategory, newSaleKey()),
          CLI_CHARGER,
          orderFieldsOf({ ...input, ...(values['user-id'] === undefined ? {} : { userId: values['user-id'] }) }),
        ),
      ));
    if (typeof charged === 'number') return charged;
    const result = 'sale' in charged ? chargeResultOf(charged) : charged;
    // The gateway has it but the log could not take the answer (a full disk): one more try before this
    // process ends; if the disk still refuses, the order is found `creating` at the next start and reconciled.
    if (loket.orders.pendingWrites() > 0 && loket.orders.flushPendingWrites() > 0 && result.order)
      io.err(
        `order ${result.order.id} reached the gateway but could not be recorded (the disk refused the write). ` +
          'Do not charge again: free space, then run npm run cli -- reconcile.\n',
      );
    if (values.json) {
      io.out(
        JSON.stringify(
          result.ok
            ? { ...result.order, saleId: result.saleId ?? null }
            : { order: result.order ?? null, saleId: result.saleId ?? null, failure: result.failure },
          null,
          2,
        ) + '\n',
      );
    } else {
      if (result.order)
        io.out(orderSummaryLines(result.order, loket.methods, loket.settings.timeZone).join('\n') + '\n');
      if (!result.ok) io.err(`${describeFailure(result.failure as GatewayFailure)}${flagHint(result.failure)}\n`);
    }
    return result.ok ? EXIT.OK : exitCodeOfCharge(result.failure, result.order?.state);
  });
}

const FIELD_FLAGS: Record<string, string> = {
  payment_method: '--method',
  amount: '--amount',
  item_name: '--item',
  item_id: '--item-id',
  customer_name: '--customer-name',
  user_id: '--user-id',
  user_mdn: '--phone',
};

/** The gateway's field names are the contract's; the cashier typed flags, so name those too. */
function flagHint(failure: ChargeFailure): string {
  if (failure.class !== 'invalid_input') return '';
  const flags = [...new Set((failure.issues ?? []).map((i) => FIELD_FLAGS[i.field]).filter(Boolean))];
  return flags.length ? ` (check ${flags.join(', ')})` : '';
}

async function show(argv: string[], options: OpenOptions, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  const id = positionals[0];
  if (!id) throw new UsageError('order show: the order id is required');
  return readBooks(options, async (books) => {
    const log = new OrderLog(books.db, books.clock);
    const order = log.get(id);
    if (!order) {
      io.err(`no order ${id}\n`);
      return EXIT.INVALID_INPUT;
    }
    const events = log.events(id);
    if (values.json) io.out(JSON.stringify({ ...order, events }, null, 2) + '\n');
    else {
      io.out(orderSummaryLines(order, books.methods, books.settings.timeZone).join('\n') + '\n  events:\n');
      for (const e of events) {
        const change = e.to ? `${e.from ?? '∅'} → ${e.to}` : e.type;
        io.out(
          `    ${formatGatewayDate(new Date(e.at), books.settings.timeZone)}  ${change}  ` +
            `(${e.source}${e.actor ? `, ${e.actor}` : ''})${e.reason ? `  ${e.reason}` : ''}\n`,
        );
      }
    }
    return EXIT.OK;
  });
}

async function manual(kind: 'pay' | 'cancel', argv: string[], options: OpenOptions, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { reason: { type: 'string' }, actor: { type: 'string' }, json: { type: 'boolean' } },
  });
  const id = positionals[0];
  if (!id) throw new UsageError(`order ${kind}: the order id is required`);
  const reason = reasonSchema.safeParse(values.reason ?? '');
  if (!reason.success) throw new UsageError(`--${REASON_RULE}`);
  return withLoket(options, io, async (loket) => {
    const meta = {
      source: 'manager' as const,
      actor: values.actor ?? process.env.USER ?? 'manager',
      reason: reason.data,
    };
    try {
      const order = kind === 'pay' ? loket.orders.confirmPaid(id, meta) : loket.orders.cancel(id, meta);
      io.out(
        values.json
          ? JSON.stringify(order, null, 2) + '\n'
          : orderSummaryLines(order, loket.methods, loket.settings.timeZone).join('\n') + '\n',
      );
      return EXIT.OK;
    } catch (err) {
      // A broken rule (no such order, not a state that can change so) is the caller's mistake: exit 2.
      if (err instanceof OrderRuleError) {
        io.err(`${err.message}\n`);
        return EXIT.INVALID_INPUT;
      }
      throw err;
    }
  });
}

export async function runOrdersCommand(argv: string[], options: OpenOptions = {}, io: Io = defaultIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'list') throw new UsageError(`orders: unknown subcommand ${JSON.stringify(sub ?? '')}; use list`);
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { date: { type: 'string' }, state: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (values.state !== undefined && !ORDER_STATES.includes(values.state as OrderState)) {
    throw new UsageError(`--state: must be one of ${ORDER_STATES.join(', ')} (got ${JSON.stringify(values.state)})`);
  }
  // Read-only, beside a running Loket: a `creating` order here may be in flight in the process that holds the
  // folder, so listing never turns it `unknown` (only that process's start-up does, for its own).
  return readBooks(options, async (books) => {
    const tz = books.settings.timeZone;
    const day = values.date ?? dayIn(books.clock.now(), tz);
    const range = dayRange(day, tz);
    if (!range) throw new UsageError(`--date: must be a date YYYY-MM-DD (got ${JSON.stringify(day)})`);
    const orders = new OrderLog(books.db, books.clock).list({
      ...range,
      ...(values.state ? { state: values.state as OrderState } : {}),
    });
    if (values.json) io.out(JSON.stringify(orders, null, 2) + '\n');
    else {
      io.out(`${orders.length} order(s) on ${day} (${tz})${values.state ? `, state ${values.state}` : ''}\n`);
      for (const o of orders) {
        io.out(
          `${formatGatewayDate(new Date(o.createdAt), tz).slice(11)}  ${o.id}  ${o.state.padEnd(16)} ` +
            `${String(o.amount).padStart(10)}  ${o.methodId}  ${o.itemName}${o.training ? '  [SANDBOX]' : ''}\n`,
        );
      }
    }
    return EXIT.OK;
  });
}

export async function runReconcileCommand(
  argv: string[],
  options: OpenOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const { values } = parseArgs({ args: argv, strict: true, options: { json: { type: 'boolean' } } });
  return withLoket(options, io, async (loket) => {
    const results = await loket.orders.reconcile({ source: 'reconcile' });
    if (values.json) io.out(JSON.stringify(results, null, 2) + '\n');
    else {
      io.out(`${results.length} unknown order(s) against ${loket.gatewayDescription}\n`);
      for (const r of results) io.out(`  ${r.id}: ${r.outcome}\n`);
    }
    return loket.log.unresolved().length === 0 ? EXIT.OK : EXIT.NOT_SENT_OR_UNKNOWN;
  });
}
