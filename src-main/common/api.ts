import { z } from 'zod';
import type { AppInfo } from './app-info';
import { DOCS_TOPICS, type DocsSection } from './docs';
import type { FieldIssue } from './order-request';
import { ORDER_STATES, type Order, type OrderState, type PaymentInstruction } from './order';
import {
  OrderRuleError,
  REASON_MAX,
  REASON_MIN,
  REASON_RULE,
  reasonSchema,
  type ApiErrorCode,
  type FailureClass,
  type RetrySafety,
} from './order-policy';
import type { PaymentKind, PaymentMethod } from './payment-methods';
import { reason, type Reason } from './reasons';
import type {
  AuditEntry,
  ConnectionReport,
  ManagerResult,
  ManagerSessionView,
  ManagerView,
  MethodImportResult,
  TillStatus,
} from './manager';
import { pinSchema, STAFF_NAME_MAX, STAFF_ROLES, type PinRefusal } from './staff';
import type { ShiftCloseResult, ShiftReport, TillShift, TillShiftChange } from './shifts';
import type {
  AttentionItem,
  AttentionResult,
  DayReport,
  DeskPage,
  DownloadTicket,
  OrderDetail,
  SaveResult,
} from './reports';
import type { Product } from './product';
import {
  cartSchema,
  chargeSaleInputSchema,
  type Cart,
  type ChargeSaleResult,
  type SaleQuote,
  type SaleView,
} from './sale';
import type { StoreDayReport, StoreLinkView } from './store-book';

/**
 * The API contract, one entry per method: a zod schema of its argument tuple, and its result type.
 * Every transport (IPC through the preload, HTTP + server-sent events in browser mode) goes through
 * one registry that rejects unknown names and parses arguments with these schemas before a handler runs.
 * Arguments and results are plain data (structured-clone and JSON safe).
 */

export const chargeInputSchema = z
  .object({
    methodId: z.string().min(1).max(64),
    amount: z.number(),
    itemName: z.string().max(200),
    itemId: z.string().max(50).optional(),
    customerName: z.string().max(200).optional(),
    phone: z.string().max(40).optional(),
    api: z.enum(['v1', 'v2']).optional(),
  })
  .strict();
export type ChargeInput = z.infer<typeof chargeInputSchema>;

const orderId = z.string().min(1).max(36);
/** A store day in the store's time zone. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day YYYY-MM-DD');
/** A manager session's token: every manager method takes it first, and it locks when idle. */
const session = z.string().min(16).max(100);
const staffId = z.number().int().positive();
const staffName = z
  .string()
  .min(1)
  .max(STAFF_NAME_MAX * 4);
const secretName = z.enum(['appkey', 'signing-secret']);
/** A manager's PIN given at the till to allow one thing (a pay-out over the limit, a no sale): whose, and the PIN. */
const managerPin = z.object({ staffId, pin: pinSchema }).strict();
/** Amounts and reasons of a shift are checked by its rules (common/cash.ts), which name the field and the rule. */
const shiftRef = z.object({ shiftId: z.string().min(1).max(64).optional() }).strict();
const SETTINGS_SECTIONS = ['store', 'gateway', 'printer', 'display', 'language', 'access', 'backup'] as const;
/** Browser mode reads at most 64 KiB per call; an operator's method list is a few kilobytes. */
const IMPORT_TEXT_MAX = 60_000;

export const apiArgSchemas = {
  appInfo: z.tuple([]),
  listMethods: z.tuple([]),
  listItems: z.tuple([]),
  createOrder: z.tuple([chargeInputSchema]),
  getOrder: z.tuple([orderId]),
  listOrders: z.tuple([
    z
      .object({
        date: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional(),
        state: z.enum(ORDER_STATES).optional(),
      })
      .strict(),
  ]),
  cancelOrder: z.tuple([orderId, reasonSchema]),
  retryOrder: z.tuple([orderId]),
  simulatePayment: z.tuple([orderId]),
  showOnDisplay: z.tuple([orderId.nullable()]),
  displayState: z.tuple([]),
  receipt: z.tuple([orderId, z.object({ paper: z.union([z.literal(58), z.literal(80)]), copy: z.boolean() }).strict()]),
  printReceipt: z.tuple([orderId, z.object({ copy: z.boolean() }).strict()]),
  /** The payment slip of a VA or store-code order waiting for payment (docs/receipts.md, "The payment slip"). */
  paymentSlip: z.tuple([orderId, z.object({ paper: z.union([z.literal(58), z.literal(80)]) }).strict()]),
  printPaymentSlip: z.tuple([orderId]),
  currentSale: z.tuple([]),
  parkSale: z.tuple([orderId]),
  // Late payments shown at the till at once, until the cashier has seen them (docs/orders.md, "Cancelling").
  latePayments: z.tuple([]),
  acknowledgeLatePayment: z.tuple([orderId]),

  // Who sells at this till, and unlocking the manager's screens (docs/roles.md).
  tillStatus: z.tuple([]),
  signIn: z.tuple([staffId, pinSchema.nullable()]),
  signOut: z.tuple([]),
  setupManager: z.tuple([z.object({ name: staffName, pin: pinSchema }).strict()]),
  unlockManager: z.tuple([staffId, pinSchema]),

  // The manager's screens: each takes the session token first (docs/settings.md).
  lockManager: z.tuple([session]),
  managerView: z.tuple([session]),
  updateSettings: z.tuple([session, z.enum(SETTINGS_SECTIONS), z.record(z.string(), z.unknown()).nullable()]),
  setSecret: z.tuple([session, secretName, z.string().min(1).max(1000)]),
  clearSecret: z.tuple([session, secretName]),
  testConnection: z.tuple([session]),
  setMethodEnabled: z.tuple([session, z.string().min(1).max(64), z.boolean()]),
  importMethods: z.tuple([session, z.enum(['json', 'csv']), z.string().max(IMPORT_TEXT_MAX)]),
  resetMethods: z.tuple([session]),
  testPrint: z.tuple([session]),
  switchMode: z.tuple([session, z.enum(['training', 'live']), z.string().max(500)]),
  addStaff: z.tuple([session, z.object({ name: staffName, role: z.enum(STAFF_ROLES), pin: pinSchema }).strict()]),
  updateStaff: z.tuple([
    session,
    staffId,
    z
      .object({
        name: staffName.optional(),
        role: z.enum(STAFF_ROLES).optional(),
        pin: pinSchema.optional(),
        active: z.boolean().optional(),
      })
      .strict(),
  ]),
  changeOwnPin: z.tuple([session, pinSchema, pinSchema]),

  // The manager's books: the order desk, the attention queue, the day's report and closing, the export
  // (docs/end-of-day.md, docs/export.md).
  deskOrders: z.tuple([
    session,
    z
      .object({
        from: day,
        to: day,
        state: z.enum(ORDER_STATES).optional(),
        methodId: z.string().min(1).max(64).optional(),
        staffId: z.number().int().positive().optional(),
        search: z.string().max(64).optional(),
        limit: z.number().int().min(1).max(500).optional(),
        offset: z.number().int().min(0).optional(),
      })
      .strict(),
  ]),
  orderDetail: z.tuple([session, orderId]),
  attentionQueue: z.tuple([session]),
  resolveAttention: z.tuple([
    session,
    z.union([orderId, z.number().int().positive()]),
    z.enum(['check', 'mark_paid', 'cancel', 'acknowledge', 'set_aside']),
    reasonSchema,
  ]),
  dayReport: z.tuple([session, day]),
  closeDay: z.tuple([session, day]),
  dayReportHtml: z.tuple([session, day]),
  printDayReport: z.tuple([session, day]),
  prepareExport: z.tuple([
    session,
    z
      .object({
        from: day,
        to: day,
        format: z.enum(['csv', 'xlsx']),
        delimiter: z.enum([',', ';']).optional(),
        bom: z.boolean().optional(),
      })
      .strict(),
  ]),
  // This till's shift and its drawer (docs/tenders.md, "Shifts"): the cashier's, a manager's PIN where it is needed.
  currentShift: z.tuple([]),
  openShift: z.tuple([z.object({ float: z.number() }).strict()]),
  shiftMovement: z.tuple([
    z
      .object({
        type: z.enum(['pay_in', 'pay_out']),
        amount: z.number(),
        reason: z.string().max(1000),
        managerPin: managerPin.optional(),
      })
      .strict(),
  ]),
  /** The blind count, as one total or by denomination: the answer is the first to say what was expected. */
  closeShift: z.tuple([
    z.union([
      z.object({ counted: z.number() }).strict(),
      z.object({ denominations: z.record(z.string().max(20), z.number()) }).strict(),
    ]),
  ]),
  shiftReport: z.tuple([shiftRef]),
  shiftReportHtml: z.tuple([shiftRef]),
  noSale: z.tuple([z.object({ reason: z.string().max(1000), managerPin }).strict()]),
  printShiftReport: z.tuple([shiftRef]),
  // The sale at the counter (docs/sale.md): the catalogue as the cashier finds it, the cart, its figures, charging.
  searchProducts: z.tuple([
    z.object({ text: z.string().max(200), limit: z.number().int().min(1).max(200).optional() }).strict(),
  ]),
  productByCode: z.tuple([z.object({ code: z.string().max(64) }).strict()]),
  currentCart: z.tuple([]),
  saveCart: z.tuple([z.object({ cart: cartSchema }).strict()]),
  quoteSale: z.tuple([z.object({ cart: cartSchema }).strict()]),
  chargeSale: z.tuple([chargeSaleInputSchema]),
  saleOf: z.tuple([z.object({ orderId }).strict()]),
  sale: z.tuple([z.object({ saleId: z.string().min(1).max(40) }).strict()]),
  voidSale: z.tuple([z.object({ saleId: z.string().min(1).max(40), reason: reasonSchema }).strict()]),
  // The struk of a sale (tenders-ui): its HTML for the screen's print (58, 80 mm or A4), or printed on the printer set up.
  saleReceipt: z.tuple([
    z
      .object({
        saleId: z.string().min(1).max(40),
        paper: z.union([z.literal(58), z.literal(80), z.literal('A4')]),
        copy: z.boolean(),
      })
      .strict(),
  ]),
  printSaleReceipt: z.tuple([z.object({ saleId: z.string().min(1).max(40), copy: z.boolean() }).strict()]),
  /** A section of Loket's docs that a screen links to (common/docs.ts); anyone at the till may read it. */
  docsSection: z.tuple([z.enum(DOCS_TOPICS)]),
  auditLog: z.tuple([
    session,
    z.object({ limit: z.number().int().min(1).max(1000).optional(), before: z.number().int().optional() }).strict(),
  ]),

  // The store book (docs/store-book.md): the link for the cashier's header (anyone at the till), and the whole
  // store's day report and export for the manager, read from the store's PostgreSQL.
  storeLink: z.tuple([]),
  storeDayReport: z.tuple([session, day]),
  prepareStoreExport: z.tuple([
    session,
    z
      .object({
        from: day,
        to: day,
        format: z.enum(['csv', 'xlsx']),
        delimiter: z.enum([',', ';']).optional(),
        bom: z.boolean().optional(),
      })
      .strict(),
  ]),
} as const;

/** A failure the cashier can act on, in plain data: no raw bodies, no secrets. */
export interface ChargeFailure {
  class: FailureClass;
  /** What the cashier may do next (order-policy.ts): screens show this, they do not work it out. */
  retry: RetrySafety;
  message: string;
  issues?: FieldIssue[];
  retcode?: string;
  httpStatus?: number;
}

export type ChargeResult = { ok: true; order: Order } | { ok: false; order?: Order; failure: ChargeFailure };

/** An item of the store's quick-item catalogue (resources/items.json): fixed price, `item_id` sent along. */
export interface CatalogueItem {
  itemId: string;
  name: string;
  price: number;
}

export interface ReceiptView {
  html: string;
}

export interface PrintResult {
  ok: boolean;
  /** Plain words (English: the CLI and the log); a failed print never undoes the sale. */
  message: string;
  /** The same, for a screen to word in its language. */
  reason?: Reason;
}

/**
 * The sale in progress at this till: the order on the customer display, kept across reloads and restarts,
 * until a new sale starts or the cashier parks it. The cashier's screen comes back to it exactly as it was.
 */
export interface CurrentSale {
  order: Order;
  /** Its receipt was printed (or shown for printing), not as a copy: a paid sale still needing one is not. */
  receiptPrinted: boolean;
}

/** What the customer display shows: only what the customer needs, never ids or raw data. */
export interface DisplayOrder {
  amount: number;
  itemName: string;
  methodLabel: { id: string; en: string };
  provider: string;
  kind: PaymentKind;
  state: OrderState;
  expiresAt?: string;
  instruction?: PaymentInstruction;
  /** An SMS reply without a short code: the number the SMS to reply to goes to, masked (smsReplyNumber). */
  smsTo?: string;
  /**
   * An order whose outcome is open because the gateway did not take it (an outage, or the request never left):
   * nothing was charged. The display says so rather than "being checked".
   */
  notCharged?: true;
}

/** The cart being rung up, as the customer display shows it: each line's name, quantity and total, and the sale's. */
export interface DisplayCart {
  lines: { name: string; qty: number; total: number }[];
  /** The sale's total as the server computes it; null while the cart has an issue (the lines still show). */
  total: number | null;
}

/**
 * The sale of the order on the display, or a sale just paid in cash or other (tenders-ui): what is paid so far and
 * still due during a split tender, and the change of a cash tender (shown large).
 */
export interface DisplaySale {
  total: number;
  /** Paid so far by cash and other tenders and paid gateway orders (a settling cash tender: the rounded due). */
  paid: number;
  /** Still due: what the order on the display asks for during a split; 0 once paid. */
  due: number;
  /** The change given back (cash only). */
  change: number;
  /** The cash rounding line (negative when rounded down); 0 when none. */
  rounding: number;
  /** The sale has a cash tender (its change is shown, Rp0 included). */
  cash: boolean;
  complete: boolean;
}

export interface DisplayState {
  mode: AppInfo['mode'];
  storeName: string;
  /** The customer display's own language (settings: display), not the cashier's. */
  lang: AppInfo['lang'];
  /** What the idle display says between sales (settings: display). */
  idleMessage: string;
  /** The store's zone: a tablet display may be set to another, and times are shown in the store's. */
  timeZone: string;
  order: DisplayOrder | null;
  /** The cart being rung up at the till, when it has lines (shown until an order takes the display). */
  cart?: DisplayCart;
  /** The sale of the order on the display, or a sale just paid in cash or other (no order): tenders-ui. */
  sale?: DisplaySale;
}

/** Pushed over the live channel (server-sent events in browser mode, IPC events in the desktop app). */
export type LiveEvent =
  | { type: 'order'; order: Order }
  | { type: 'display'; state: DisplayState }
  /** The mode, the store or the till changed (a manager's setting, a switch to live, a sign-in). */
  | { type: 'info'; info: AppInfo; till: TillStatus };

interface Results {
  appInfo: AppInfo;
  listMethods: PaymentMethod[];
  listItems: CatalogueItem[];
  createOrder: ChargeResult;
  getOrder: Order | null;
  listOrders: Order[];
  cancelOrder: Order;
  retryOrder: ChargeResult;
  simulatePayment: Order;
  showOnDisplay: DisplayState;
  displayState: DisplayState;
  receipt: ReceiptView;
  printReceipt: PrintResult;
  paymentSlip: ReceiptView;
  printPaymentSlip: PrintResult;
  currentSale: CurrentSale | null;
  parkSale: null;
  latePayments: Order[];
  acknowledgeLatePayment: Order;
  tillStatus: TillStatus;
  signIn: { ok: true; till: TillStatus } | PinRefusal;
  signOut: TillStatus;
  setupManager: ManagerSessionView;
  unlockManager: { ok: true; session: ManagerSessionView } | PinRefusal;
  lockManager: null;
  managerView: ManagerView;
  updateSettings: ManagerResult;
  setSecret: ManagerView;
  clearSecret: ManagerView;
  testConnection: ConnectionReport;
  setMethodEnabled: ManagerResult;
  importMethods: MethodImportResult;
  resetMethods: ManagerView;
  testPrint: PrintResult;
  switchMode: ManagerResult;
  addStaff: ManagerView;
  updateStaff: ManagerView;
  changeOwnPin: { ok: true } | PinRefusal;
  auditLog: AuditEntry[];
  deskOrders: DeskPage;
  orderDetail: OrderDetail;
  attentionQueue: AttentionItem[];
  resolveAttention: AttentionResult;
  dayReport: DayReport;
  closeDay: DayReport;
  dayReportHtml: ReceiptView;
  printDayReport: PrintResult;
  prepareExport: DownloadTicket;
  docsSection: DocsSection;
  currentShift: TillShift | null;
  openShift: TillShiftChange;
  shiftMovement: TillShiftChange;
  closeShift: ShiftCloseResult;
  shiftReport: ShiftReport;
  shiftReportHtml: ReceiptView;
  noSale: TillShiftChange;
  printShiftReport: PrintResult;
  searchProducts: Product[];
  productByCode: Product | null;
  currentCart: Cart;
  saveCart: Cart;
  quoteSale: SaleQuote;
  chargeSale: ChargeSaleResult;
  saleOf: SaleView | null;
  sale: SaleView | null;
  voidSale: SaleView;
  // The struk of a sale (tenders-ui).
  saleReceipt: ReceiptView;
  printSaleReceipt: PrintResult;
  storeLink: StoreLinkView;
  storeDayReport: StoreDayReport;
  prepareStoreExport: DownloadTicket;
}

export type ApiMethodName = keyof typeof apiArgSchemas;

/** The methods of the order runtime (core/app-service.ts); the rest are the manager's (core/manager-service.ts). */
export const ORDER_API_METHODS = [
  'appInfo',
  'listMethods',
  'listItems',
  'createOrder',
  'getOrder',
  'listOrders',
  'cancelOrder',
  'retryOrder',
  'simulatePayment',
  'showOnDisplay',
  'displayState',
  'receipt',
  'printReceipt',
  'paymentSlip',
  'printPaymentSlip',
  'currentSale',
  'parkSale',
  'latePayments',
  'acknowledgeLatePayment',
] as const satisfies readonly ApiMethodName[];
export type OrderApiMethod = (typeof ORDER_API_METHODS)[number];

/** The manager's books (core/books-service.ts): they read and change the order log in use, like the order methods. */
export const BOOKS_API_METHODS = [
  'deskOrders',
  'orderDetail',
  'attentionQueue',
  'resolveAttention',
  'dayReport',
  'closeDay',
  'dayReportHtml',
  'printDayReport',
  'prepareExport',
] as const satisfies readonly ApiMethodName[];
export type BooksApiMethod = (typeof BOOKS_API_METHODS)[number];
/** This till's shift (core/shifts/shift-api.ts): on the order log in use, like the order methods. */
export const SHIFT_API_METHODS = [
  'currentShift',
  'openShift',
  'shiftMovement',
  'closeShift',
  'shiftReport',
  'shiftReportHtml',
  'noSale',
  'printShiftReport',
] as const satisfies readonly ApiMethodName[];
export type ShiftApiMethod = (typeof SHIFT_API_METHODS)[number];

/** The sale at the counter (core/sales/sale-service.ts): the cashier's, beside the order methods. */
export const SALE_API_METHODS = [
  'searchProducts',
  'productByCode',
  'currentCart',
  'saveCart',
  'quoteSale',
  'chargeSale',
  'saleOf',
  'sale',
  'voidSale',
  // The struk of a sale (tenders-ui).
  'saleReceipt',
  'printSaleReceipt',
] as const satisfies readonly ApiMethodName[];
export type SaleApiMethod = (typeof SALE_API_METHODS)[number];

/** The store book's methods (store-book/store-view.ts): the link, and the whole store's books. */
export const STORE_BOOK_API_METHODS = [
  'storeLink',
  'storeDayReport',
  'prepareStoreExport',
] as const satisfies readonly ApiMethodName[];
export type StoreBookApiMethod = (typeof STORE_BOOK_API_METHODS)[number];
export type ManagerApiMethod = Exclude<
  ApiMethodName,
  OrderApiMethod | BooksApiMethod | ShiftApiMethod | SaleApiMethod | StoreBookApiMethod
>;
export type ApiArgs<M extends ApiMethodName> = z.infer<(typeof apiArgSchemas)[M]>;
export type ApiResult<M extends ApiMethodName> = Results[M];

/** What the renderer calls: every method is asynchronous because every transport crosses a process boundary. */
export type LoketApi = {
  [M in ApiMethodName]: (...args: ApiArgs<M>) => Promise<ApiResult<M>>;
};

/** What a host implements: the same methods, free to answer synchronously. */
export type ApiHandlers = {
  [M in ApiMethodName]: (...args: ApiArgs<M>) => ApiResult<M> | Promise<ApiResult<M>>;
};

export const apiMethodNames = Object.freeze(Object.keys(apiArgSchemas)) as readonly ApiMethodName[];

export function isApiMethodName(name: unknown): name is ApiMethodName {
  return typeof name === 'string' && Object.hasOwn(apiArgSchemas, name);
}

export type { ApiErrorCode } from './order-policy';

/**
 * Error a transport carries back to the renderer: a code it can branch on, words for people (English: the CLI and
 * the log), and, where Loket knows what it means, a reason a screen words in its own language (reasons.ts).
 */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly reason?: Reason,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * A call's error as it travels: the code, the English words, the reason when there is one, and for an `internal`
 * error the log file that has its details (`logFile`), where the host keeps one.
 */
export interface ApiErrorBody {
  code: ApiErrorCode;
  message: string;
  reason?: Reason;
  logFile?: string;
}

/** What every call answers, over IPC and over HTTP alike: a result, or an error code with words for people. */
export type ApiEnvelope<T> = { ok: true; result: T } | { ok: false; error: ApiErrorBody };

/** What a caller may be told about an unexpected failure: nothing of its insides. */
export const INTERNAL_ERROR_MESSAGE = 'Internal error in Loket; the log has the details.';

/** The same, naming the log file (the data folder's loket.log) when the host keeps one. */
export function internalErrorMessage(logFile?: string): string {
  return logFile ? `Internal error in Loket; the log has the details: ${logFile}` : INTERNAL_ERROR_MESSAGE;
}

/**
 * The one mapping from what a handler threw to what the caller sees. Broken order rules carry their own
 * code; anything else is `internal` with no detail (the host logs the original).
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof OrderRuleError) return new ApiError(err.code, err.message, err.why);
  return new ApiError('internal', INTERNAL_ERROR_MESSAGE);
}

/** The one gate every call passes: known method, arguments that parse. */
export function parseApiCall(method: unknown, args: unknown): { method: ApiMethodName; args: unknown[] } {
  if (!isApiMethodName(method)) throw new ApiError('unknown_method', `unknown API method ${JSON.stringify(method)}`);
  const parsed = apiArgSchemas[method].safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || '(list)';
    // A person's reason breaks a rule people are told about (order-policy.ts); any other argument is the caller's.
    const why =
      issue.message === REASON_RULE
        ? reason('order.reason_rule', { min: REASON_MIN, max: REASON_MAX })
        : reason('arguments.invalid', { field });
    throw new ApiError('invalid_arguments', `${method}: argument ${field}: ${issue.message}`, why);
  }
  return { method, args: parsed.data as unknown[] };
}

/**
 * Runs one call through the gate and the handler and wraps the outcome in the envelope; both transports
 * use it, so they answer alike. `onInternal` sees the original of an unexpected error, for the log only;
 * `logFile` is where that log is kept, named to the caller.
 */
export async function dispatchApiCall(
  handlers: ApiHandlers,
  method: unknown,
  args: unknown,
  onInternal: (method: string, err: unknown) => void,
  options: { logFile?: string } = {},
): Promise<ApiEnvelope<unknown>> {
  try {
    const parsed = parseApiCall(method, args);
    const handler = handlers[parsed.method] as (...a: unknown[]) => unknown;
    const result = await handler.apply(handlers, parsed.args);
    return { ok: true, result: result ?? null };
  } catch (err) {
    const error = toApiError(err);
    if (error.code === 'internal' && !(err instanceof ApiError)) {
      onInternal(String(method), err);
      return { ok: false, error: internalError(options.logFile) };
    }
    return {
      ok: false,
      error: { code: error.code, message: error.message, ...(error.reason ? { reason: error.reason } : {}) },
    };
  }
}

/** The envelope's error for an unexpected failure, naming the log file where the host keeps one. */
export function internalError(logFile?: string): { code: 'internal'; message: string; logFile?: string } {
  return { code: 'internal', message: internalErrorMessage(logFile), ...(logFile ? { logFile } : {}) };
}

/**
 * What the preload puts on `window.loket`: every method answers the envelope (errors thrown across
 * Electron's IPC keep only their message, so they are answered, not thrown), and a subscription to live events.
 */
export type LoketBridge = {
  [M in ApiMethodName]: (...args: ApiArgs<M>) => Promise<ApiEnvelope<ApiResult<M>>>;
} & {
  onEvent(listener: (event: LiveEvent) => void): () => void;
  /**
   * The desktop app only: save an export prepared with prepareExport to a file the manager picks in the OS's
   * save dialog (browser mode downloads GET /api/download/{downloadId} instead).
   */
  saveDownload(downloadId: string): Promise<SaveResult>;
};

/** What the cashier's bridge holds besides the API's methods (LoketBridge): the live events and the desktop's save. */
export const BRIDGE_EXTRAS = ['onEvent', 'saveDownload'] as const satisfies readonly Exclude<
  keyof LoketBridge,
  ApiMethodName
>[];
/** Every name on the cashier's `window.loket`: the API's methods and the extras. */
export const bridgeNames: readonly (keyof LoketBridge)[] = [...apiMethodNames, ...BRIDGE_EXTRAS];
/** Every name on the customer display's `window.loket` (src-preload/display.ts): what the display reads, no more. */
export const DISPLAY_BRIDGE_NAMES = ['displayState', 'onEvent'] as const satisfies readonly (keyof LoketBridge)[];
