/**
 * The table of API methods: each method once, with the schema of its argument tuple, its result type, the service
 * that serves it and who may call it. Everything else derives from it: the gate every transport passes
 * (common/api.ts, parseApiCall), the preload bridges (src-preload/), the renderer's clients
 * (src-renderer/src/api/), the host's routing (host/api-routing.ts) and the IPC gate's display rule
 * (electron/ipc-api.ts). A new method is one entry here and the method in its service (docs/architecture.md).
 * Arguments and results are plain data (structured-clone and JSON safe).
 */

import { z } from 'zod';
import type { AppInfo } from './app-info';
import { DOCS_TOPICS, type DocsSection } from './docs';
import { ORDER_STATES, type Order } from './order';
import { reasonSchema } from './order-policy';
import type { PaymentMethod } from './payment-methods';
import type { CatalogueItem, ChargeResult, CurrentSale, DisplayState, PrintResult, ReceiptView } from './api';
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
import type { AttentionItem, AttentionResult, DayReport, DeskPage, DownloadTicket, OrderDetail } from './reports';
import type { Product } from './product';
import {
  cartSchema,
  chargeSaleInputSchema,
  type Cart,
  type ChargeSaleResult,
  type SaleQuote,
  type SaleView,
} from './sale';
import { REFUND_HOWS, type RefundableView, type RefundSaleResult } from './refund-doc';
import {
  CATALOGUE_CHUNK_CHARS,
  type CatalogueImportResult,
  type CataloguePage,
  type CatalogueUploadResult,
  type ProductSaveResult,
} from './product-form';
import type { StoreDayReport, StoreLinkView } from './store-book';

/** Which service serves a method (host/api-routing.ts routes to it; the service implements Pick<ApiHandlers, ...>). */
export type ApiService = 'order' | 'books' | 'shift' | 'sale' | 'refund' | 'storeBook' | 'catalogue' | 'manager';

/**
 * Who may call a method: `cashier`, anyone at the till; `manager`, a manager's session (its token is the method's
 * first argument, and the service checks it); both, a method whose first argument is a manager's token or null,
 * where the service decides which answers need the session (the shift's reports: the X report does); `display`, the
 * customer display's window too (the IPC gate refuses it every method without it).
 */
export type ApiAccess = 'cashier' | 'manager' | 'display';

/** A method's result type, carried by the table as a type only (nothing of it exists at run time). */
export interface Returns<T> {
  readonly __result?: T;
}
function returns<T>(): Returns<T> {
  return {};
}

/** One row of the table. */
export interface ApiMethodSpec {
  service: ApiService;
  access: readonly ApiAccess[];
  args: z.ZodTuple;
  result: Returns<unknown>;
  /** A charge: the host counts it as in flight, so a backup or a switch of mode waits for it to end. */
  charge?: true;
}

const CASHIER = ['cashier'] as const;
const MANAGER = ['manager'] as const;

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
/** An export's days and file: the till's books (prepareExport) and the whole store's (prepareStoreExport) alike. */
const exportRange = z
  .object({
    from: day,
    to: day,
    format: z.enum(['csv', 'xlsx']),
    delimiter: z.enum([',', ';']).optional(),
    bom: z.boolean().optional(),
  })
  .strict();
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

export const API_TABLE = {
  appInfo: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([]),
    result: returns<AppInfo>(),
  },
  listMethods: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([]),
    result: returns<PaymentMethod[]>(),
  },
  listItems: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([]),
    result: returns<CatalogueItem[]>(),
  },
  createOrder: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([chargeInputSchema]),
    result: returns<ChargeResult>(),
    charge: true,
  },
  getOrder: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<Order | null>(),
  },
  listOrders: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([
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
    result: returns<Order[]>(),
  },
  cancelOrder: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId, reasonSchema]),
    result: returns<Order>(),
  },
  retryOrder: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<ChargeResult>(),
    charge: true,
  },
  simulatePayment: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<Order>(),
  },
  showOnDisplay: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId.nullable()]),
    result: returns<DisplayState>(),
  },
  displayState: {
    service: 'order',
    access: ['cashier', 'display'],
    args: z.tuple([]),
    result: returns<DisplayState>(),
  },
  receipt: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId, z.object({ paper: z.union([z.literal(58), z.literal(80)]), copy: z.boolean() }).strict()]),
    result: returns<ReceiptView>(),
  },
  printReceipt: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId, z.object({ copy: z.boolean() }).strict()]),
    result: returns<PrintResult>(),
  },
  /** The payment slip of a VA or store-code order waiting for payment (docs/receipts.md, "The payment slip"). */
  paymentSlip: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId, z.object({ paper: z.union([z.literal(58), z.literal(80)]) }).strict()]),
    result: returns<ReceiptView>(),
  },
  printPaymentSlip: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<PrintResult>(),
  },
  currentSale: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([]),
    result: returns<CurrentSale | null>(),
  },
  parkSale: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<null>(),
  },
  // Late payments shown at the till at once, until the cashier has seen them (docs/orders.md, "Cancelling").
  latePayments: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([]),
    result: returns<Order[]>(),
  },
  acknowledgeLatePayment: {
    service: 'order',
    access: CASHIER,
    args: z.tuple([orderId]),
    result: returns<Order>(),
  },

  // Who sells at this till, and unlocking the manager's screens (docs/roles.md).
  tillStatus: {
    service: 'manager',
    access: CASHIER,
    args: z.tuple([]),
    result: returns<TillStatus>(),
  },
  signIn: {
    service: 'manager',
    access: CASHIER,
    args: z.tuple([staffId, pinSchema.nullable()]),
    result: returns<{ ok: true; till: TillStatus } | PinRefusal>(),
  },
  signOut: {
    service: 'manager',
    access: CASHIER,
    args: z.tuple([]),
    result: returns<TillStatus>(),
  },
  setupManager: {
    service: 'manager',
    access: CASHIER,
    args: z.tuple([z.object({ name: staffName, pin: pinSchema }).strict()]),
    result: returns<ManagerSessionView>(),
  },
  unlockManager: {
    service: 'manager',
    access: CASHIER,
    args: z.tuple([staffId, pinSchema]),
    result: returns<{ ok: true; session: ManagerSessionView } | PinRefusal>(),
  },

  // The manager's screens: each takes the session token first (docs/settings.md).
  lockManager: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<null>(),
  },
  managerView: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<ManagerView>(),
  },
  updateSettings: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session, z.enum(SETTINGS_SECTIONS), z.record(z.string(), z.unknown()).nullable()]),
    result: returns<ManagerResult>(),
  },
  // The Tax section (docs/tax.md): the sale's settings, a partial object per section, checked in core/settings/.
  updateSaleSettings: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([
      session,
      z
        .object({
          tax: z.record(z.string(), z.unknown()).optional(),
          cash: z.record(z.string(), z.unknown()).optional(),
          discounts: z.record(z.string(), z.unknown()).optional(),
        })
        .strict(),
    ]),
    result: returns<ManagerResult>(),
  },
  setSecret: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session, secretName, z.string().min(1).max(1000)]),
    result: returns<ManagerView>(),
  },
  clearSecret: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session, secretName]),
    result: returns<ManagerView>(),
  },
  testConnection: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<ConnectionReport>(),
  },
  setMethodEnabled: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session, z.string().min(1).max(64), z.boolean()]),
    result: returns<ManagerResult>(),
  },
  importMethods: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session, z.enum(['json', 'csv']), z.string().max(IMPORT_TEXT_MAX)]),
    result: returns<MethodImportResult>(),
  },
  resetMethods: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<ManagerView>(),
  },
  testPrint: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<PrintResult>(),
  },
  switchMode: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session, z.enum(['training', 'live']), z.string().max(500)]),
    result: returns<ManagerResult>(),
  },
  addStaff: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session, z.object({ name: staffName, role: z.enum(STAFF_ROLES), pin: pinSchema }).strict()]),
    result: returns<ManagerView>(),
  },
  updateStaff: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([
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
    result: returns<ManagerView>(),
  },
  changeOwnPin: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([session, pinSchema, pinSchema]),
    result: returns<{ ok: true } | PinRefusal>(),
  },

  // The manager's books: the order desk, the attention queue, the day's report and closing, the export
  // (docs/end-of-day.md, docs/export.md).
  deskOrders: {
    service: 'books',
    access: MANAGER,
    args: z.tuple([
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
    result: returns<DeskPage>(),
  },
  orderDetail: {
    service: 'books',
    access: MANAGER,
    args: z.tuple([session, orderId]),
    result: returns<OrderDetail>(),
  },
  attentionQueue: {
    service: 'books',
    access: MANAGER,
    args: z.tuple([session]),
    result: returns<AttentionItem[]>(),
  },
  resolveAttention: {
    service: 'books',
    access: MANAGER,
    args: z.tuple([
      session,
      z.union([orderId, z.number().int().positive()]),
      z.enum(['check', 'mark_paid', 'cancel', 'acknowledge', 'set_aside']),
      reasonSchema,
    ]),
    result: returns<AttentionResult>(),
  },
  dayReport: {
    service: 'books',
    access: MANAGER,
    args: z.tuple([session, day]),
    result: returns<DayReport>(),
  },
  closeDay: {
    service: 'books',
    access: MANAGER,
    args: z.tuple([session, day]),
    result: returns<DayReport>(),
  },
  dayReportHtml: {
    service: 'books',
    access: MANAGER,
    args: z.tuple([session, day]),
    result: returns<ReceiptView>(),
  },
  printDayReport: {
    service: 'books',
    access: MANAGER,
    args: z.tuple([session, day]),
    result: returns<PrintResult>(),
  },
  prepareExport: {
    service: 'books',
    access: MANAGER,
    args: z.tuple([session, exportRange]),
    result: returns<DownloadTicket>(),
  },
  // This till's shift and its drawer (docs/tenders.md, "Shifts"): the cashier's, a manager's PIN where it is needed.
  currentShift: {
    service: 'shift',
    access: CASHIER,
    args: z.tuple([]),
    result: returns<TillShift | null>(),
  },
  openShift: {
    service: 'shift',
    access: CASHIER,
    args: z.tuple([z.object({ float: z.number() }).strict()]),
    result: returns<TillShiftChange>(),
  },
  shiftMovement: {
    service: 'shift',
    access: CASHIER,
    args: z.tuple([
      z
        .object({
          type: z.enum(['pay_in', 'pay_out']),
          amount: z.number(),
          reason: z.string().max(1000),
          managerPin: managerPin.optional(),
        })
        .strict(),
    ]),
    result: returns<TillShiftChange>(),
  },
  /** The blind count, as one total or by denomination: the answer is the first to say what was expected. */
  closeShift: {
    service: 'shift',
    access: CASHIER,
    args: z.tuple([
      z.union([
        z.object({ counted: z.number() }).strict(),
        z.object({ denominations: z.record(z.string().max(20), z.number()) }).strict(),
      ]),
    ]),
    result: returns<ShiftCloseResult>(),
  },
  // The X report (an open shift's) shows the cash the drawer should hold: only with a manager's session, its token
  // first. A closed shift's Z report is the cashier's too (null for the token): the close's answer told them all of it.
  shiftReport: {
    service: 'shift',
    access: ['cashier', 'manager'],
    args: z.tuple([session.nullable(), shiftRef]),
    result: returns<ShiftReport>(),
  },
  shiftReportHtml: {
    service: 'shift',
    access: ['cashier', 'manager'],
    args: z.tuple([session.nullable(), shiftRef]),
    result: returns<ReceiptView>(),
  },
  noSale: {
    service: 'shift',
    access: CASHIER,
    args: z.tuple([z.object({ reason: z.string().max(1000), managerPin }).strict()]),
    result: returns<TillShiftChange>(),
  },
  printShiftReport: {
    service: 'shift',
    access: ['cashier', 'manager'],
    args: z.tuple([session.nullable(), shiftRef]),
    result: returns<PrintResult>(),
  },
  // The sale at the counter (docs/sale.md): the catalogue as the cashier finds it, the cart, its figures, charging.
  searchProducts: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([
      z.object({ text: z.string().max(200), limit: z.number().int().min(1).max(200).optional() }).strict(),
    ]),
    result: returns<Product[]>(),
  },
  productByCode: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([z.object({ code: z.string().max(64) }).strict()]),
    result: returns<Product | null>(),
  },
  currentCart: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([]),
    result: returns<Cart>(),
  },
  saveCart: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([z.object({ cart: cartSchema }).strict()]),
    result: returns<Cart>(),
  },
  quoteSale: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([z.object({ cart: cartSchema }).strict()]),
    result: returns<SaleQuote>(),
  },
  chargeSale: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([chargeSaleInputSchema]),
    result: returns<ChargeSaleResult>(),
    charge: true,
  },
  saleOf: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([z.object({ orderId }).strict()]),
    result: returns<SaleView | null>(),
  },
  sale: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([z.object({ saleId: z.string().min(1).max(40) }).strict()]),
    result: returns<SaleView | null>(),
  },
  voidSale: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([z.object({ saleId: z.string().min(1).max(40), reason: reasonSchema }).strict()]),
    result: returns<SaleView>(),
  },
  // The struk of a sale: its HTML for the screen's print (58, 80 mm or A4), or printed on the printer set up.
  saleReceipt: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([
      z
        .object({
          saleId: z.string().min(1).max(40),
          paper: z.union([z.literal(58), z.literal(80), z.literal('A4')]),
          copy: z.boolean(),
        })
        .strict(),
    ]),
    result: returns<ReceiptView>(),
  },
  printSaleReceipt: {
    service: 'sale',
    access: CASHIER,
    args: z.tuple([z.object({ saleId: z.string().min(1).max(40), copy: z.boolean() }).strict()]),
    result: returns<PrintResult>(),
  },
  // The manager's catalogue (docs/catalogue.md, "In the app"; core/products/catalogue-service.ts). The form's fields
  // are checked by the service (common/product-form.ts), which names each field and rule: here only their shapes.
  catalogueList: {
    service: 'catalogue',
    access: MANAGER,
    args: z.tuple([
      session,
      z.object({ search: z.string().max(200).optional(), offset: z.number().int().min(0).optional() }).strict(),
    ]),
    result: returns<CataloguePage>(),
  },
  saveProduct: {
    service: 'catalogue',
    access: MANAGER,
    args: z.tuple([
      session,
      z
        .object({
          id: z.string().min(1).max(20).nullable(),
          product: z
            .object({
              sku: z.string().max(400),
              name: z.string().max(800),
              barcodes: z.array(z.string().max(64)).max(100),
              category: z.string().max(400),
              price: z.number(),
              taxCategory: z.string().max(40),
              active: z.boolean(),
              itemId: z.string().max(400).optional(),
            })
            .strict(),
        })
        .strict(),
    ]),
    result: returns<ProductSaveResult>(),
  },
  setProductActive: {
    service: 'catalogue',
    access: MANAGER,
    args: z.tuple([session, z.string().min(1).max(20), z.boolean()]),
    result: returns<ProductSaveResult>(),
  },
  catalogueUpload: {
    service: 'catalogue',
    access: MANAGER,
    args: z.tuple([
      session,
      z
        .object({
          uploadId: z.string().min(16).max(64).nullable(),
          data: z.base64().max(CATALOGUE_CHUNK_CHARS),
        })
        .strict(),
    ]),
    result: returns<CatalogueUploadResult>(),
  },
  catalogueImport: {
    service: 'catalogue',
    access: MANAGER,
    args: z.tuple([session, z.object({ uploadId: z.string().min(16).max(64), dryRun: z.boolean() }).strict()]),
    result: returns<CatalogueImportResult>(),
  },
  prepareCatalogueExport: {
    service: 'catalogue',
    access: MANAGER,
    args: z.tuple([
      session,
      z
        .object({
          format: z.enum(['csv', 'xlsx']),
          delimiter: z.enum([',', ';']).optional(),
          bom: z.boolean().optional(),
        })
        .strict(),
    ]),
    result: returns<DownloadTicket>(),
  },
  // Refunds (docs/tenders.md, "Stored refunds"; core/sales/refund-api.ts): at the till, with a manager's PIN.
  refundableOf: {
    service: 'refund',
    access: CASHIER,
    args: z.tuple([z.object({ saleId: z.string().min(1).max(40) }).strict()]),
    result: returns<RefundableView | null>(),
  },
  refundSale: {
    service: 'refund',
    access: CASHIER,
    args: z.tuple([
      z
        .object({
          saleId: z.string().min(1).max(40),
          lines: z
            .array(z.object({ lineId: z.string().min(1).max(100), qty: z.number() }).strict())
            .max(500)
            .optional(),
          reason: z.string().max(1000),
          how: z.enum(REFUND_HOWS),
          managerPin,
        })
        .strict(),
    ]),
    result: returns<RefundSaleResult>(),
  },
  refundReceipt: {
    service: 'refund',
    access: CASHIER,
    args: z.tuple([
      z
        .object({
          refundId: z.string().min(1).max(40),
          paper: z.union([z.literal(58), z.literal(80)]),
          copy: z.boolean().optional(),
        })
        .strict(),
    ]),
    result: returns<ReceiptView>(),
  },
  printRefundReceipt: {
    service: 'refund',
    access: CASHIER,
    args: z.tuple([z.object({ refundId: z.string().min(1).max(40), copy: z.boolean().optional() }).strict()]),
    result: returns<PrintResult>(),
  },
  /** A section of Loket's docs that a screen links to (common/docs.ts); anyone at the till may read it. */
  docsSection: {
    service: 'manager',
    access: CASHIER,
    args: z.tuple([z.enum(DOCS_TOPICS)]),
    result: returns<DocsSection>(),
  },
  auditLog: {
    service: 'manager',
    access: MANAGER,
    args: z.tuple([
      session,
      // before: the store's log's cursor; trainingBefore: the training log's, whose entries are merged in by time.
      z
        .object({
          limit: z.number().int().min(1).max(1000).optional(),
          before: z.number().int().optional(),
          trainingBefore: z.number().int().optional(),
        })
        .strict(),
    ]),
    result: returns<AuditEntry[]>(),
  },

  // The store book (docs/store-book.md): the link for the cashier's header (anyone at the till), and the whole
  // store's day report and export for the manager, read from the store's PostgreSQL.
  storeLink: {
    service: 'storeBook',
    access: CASHIER,
    args: z.tuple([]),
    result: returns<StoreLinkView>(),
  },
  storeDayReport: {
    service: 'storeBook',
    access: MANAGER,
    args: z.tuple([session, day]),
    result: returns<StoreDayReport>(),
  },
  prepareStoreExport: {
    service: 'storeBook',
    access: MANAGER,
    args: z.tuple([session, exportRange]),
    result: returns<DownloadTicket>(),
  },
} as const satisfies Record<string, ApiMethodSpec>;

type Table = typeof API_TABLE;
export type ApiMethodName = keyof Table;
export type ApiArgs<M extends ApiMethodName> = z.infer<Table[M]['args']>;
type ResultsOfTable = { [M in ApiMethodName]: Table[M]['result'] extends Returns<infer R> ? R : never };
/**
 * Each method's result type, read off the table once. An interface, so that `ApiResult<M>` of a generic M stays an
 * indexed type: a caller's literal answer (`{ ok: true }`) is then typed by it, as with a hand-written map.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface on purpose: see above
interface Results extends ResultsOfTable {}
export type ApiResult<M extends ApiMethodName> = Results[M];
/** The methods a service serves: what it implements (`implements Pick<ApiHandlers, ApiMethodOf<'books'>>`). */
export type ApiMethodOf<S extends ApiService> = {
  [M in ApiMethodName]: Table[M]['service'] extends S ? M : never;
}[ApiMethodName];
/** The methods a caller of that kind may call. */
export type ApiMethodFor<A extends ApiAccess> = {
  [M in ApiMethodName]: A extends Table[M]['access'][number] ? M : never;
}[ApiMethodName];

export function isApiMethodName(name: unknown): name is ApiMethodName {
  return typeof name === 'string' && Object.hasOwn(API_TABLE, name);
}

/** Every method's name, in the table's order. */
export const apiMethodNames: readonly ApiMethodName[] = Object.freeze(Object.keys(API_TABLE).filter(isApiMethodName));

/** A method's row, as the plain shape every row has. */
export function apiMethodSpec(method: ApiMethodName): ApiMethodSpec {
  return API_TABLE[method];
}

/** The methods `service` serves. */
export function apiMethodsOf<S extends ApiService>(service: S): readonly ApiMethodOf<S>[] {
  return Object.freeze(apiMethodNames.filter((m): m is ApiMethodOf<S> => API_TABLE[m].service === service));
}

/** The methods a caller of kind `access` may call. */
export function apiMethodsFor<A extends ApiAccess>(access: A): readonly ApiMethodFor<A>[] {
  return Object.freeze(apiMethodNames.filter((m): m is ApiMethodFor<A> => apiMethodSpec(m).access.includes(access)));
}
