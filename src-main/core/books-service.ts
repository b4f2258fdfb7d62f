import type { ApiHandlers, BooksApiMethod, PrintResult, ReceiptView } from '../common/api';
import type {
  AttentionAction,
  AttentionItem,
  AttentionResult,
  DayReport,
  DeskPage,
  DeskQuery,
  DownloadTicket,
  ExportTable,
  OrderDetail,
} from '../common/reports';
import type { PaymentMethod } from '../common/payment-methods';
import type { LoketSettings } from '../common/settings';
import type { StaffSummary } from '../common/staff';
import { staffActor, type AuditLog } from './audit/audit-log';
import type { GatewayClient } from './gateway/client';
import type { OrderLog } from './orders/order-log';
import type { OrderService } from './payments/order-service';
import type { Clock } from './ports';
import { attention, resolveAttention } from './reports/attention';
import { closeDay, dayReport } from './reports/day-report';
import { deskQuery, orderDetail } from './reports/order-desk';
import { buildReportDoc, type ReportDoc } from './reports/report-model';
import { renderReportHtml } from './reports/report-html';
import type { AccessControl } from './staff/access';

/** What the books need from the host: the order runtime in use, the store's settings, printing, backups, files. */
export interface BooksHost {
  log(): OrderLog;
  orders(): OrderService;
  client(): GatewayClient;
  methods(): readonly PaymentMethod[];
  /** The order log in use is the training one: its reports count training orders, and say so. */
  training(): boolean;
  settings(): LoketSettings;
  /** Every member of staff, former ones too: old orders name them. */
  staff(): StaffSummary[];
  /** The day's report on the receipt printer (or the OS printer), as the store's settings choose. */
  printReport(doc: ReportDoc): Promise<PrintResult>;
  /** After closing a day: a backup of the store's books. */
  afterClose(): Promise<void>;
  /** An export, prepared to be fetched once (a download, or a file the manager picks). */
  prepareDownload(request: ExportRequest): DownloadTicket;
}

export interface ExportRequest {
  from: string;
  to: string;
  format: 'csv' | 'xlsx';
  delimiter?: ',' | ';';
  bom?: boolean;
  /** CSV: which table (docs/export.md); the orders when absent. A workbook holds them all. */
  table?: ExportTable;
}

/**
 * The manager's books over the API (docs/end-of-day.md): the order desk, the attention queue and its actions,
 * the day's report, closing the day, and the export. Every method needs an unlocked manager session; every
 * action is recorded with the manager's name (on the order's events, and in the audit log).
 */
export class BooksService implements Pick<ApiHandlers, BooksApiMethod> {
  constructor(
    private readonly access: AccessControl,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly host: BooksHost,
  ) {}

  deskOrders(token: string, query: DeskQuery): DeskPage {
    this.access.requireManager(token);
    return deskQuery(this.host.log(), query, this.host.settings().timeZone);
  }

  orderDetail(token: string, id: string): OrderDetail {
    this.access.requireManager(token);
    const log = this.host.log();
    const order = log.require(id);
    const staff = order.staffId === undefined ? undefined : this.host.staff().find((s) => s.id === order.staffId);
    return orderDetail(log, id, staff?.name);
  }

  attentionQueue(token: string): AttentionItem[] {
    this.access.requireManager(token);
    return attention(this.host.log(), this.clock.now(), {
      lang: this.host.settings().lang,
      methods: this.host.methods(),
    });
  }

  async resolveAttention(
    token: string,
    target: string | number,
    action: AttentionAction,
    reason: string,
  ): Promise<AttentionResult> {
    const me = this.access.requireManager(token);
    const outcome = await resolveAttention(
      { log: this.host.log(), orders: this.host.orders(), client: this.host.client() },
      target,
      action,
      { reason, actor: { name: me.name, staffId: me.id } },
    );
    this.audit.record({
      actor: staffActor(me),
      action: 'attention.resolved',
      detail: { target: String(target), action, kind: outcome.kind, resolved: outcome.resolved },
    });
    return {
      resolved: outcome.resolved,
      message: outcome.message,
      reason: outcome.reason,
      ...(outcome.order ? { order: outcome.order } : {}),
    };
  }

  dayReport(token: string, day: string): DayReport {
    this.access.requireManager(token);
    return this.report(day);
  }

  async closeDay(token: string, day: string): Promise<DayReport> {
    const me = this.access.requireManager(token);
    const s = this.host.settings();
    const closing = closeDay(this.host.log(), day, {
      ...this.reportOptions(s),
      by: { name: me.name, ...(this.host.training() ? {} : { staffId: me.id }) },
    });
    this.audit.record({
      actor: staffActor(me),
      action: 'day.closed',
      detail: {
        day,
        // The money taken by every tender (docs/end-of-day.md, "Money taken"), and the gateway orders beside it.
        taken: closing.sales?.taken?.amount ?? 0,
        ordersPaid: closing.figures.paid.amount,
        orders: closing.figures.orders.count,
        training: this.host.training(),
      },
    });
    await this.host.afterClose();
    return this.report(day);
  }

  dayReportHtml(token: string, day: string): ReceiptView {
    this.access.requireManager(token);
    return { html: renderReportHtml(this.doc(day)) };
  }

  async printDayReport(token: string, day: string): Promise<PrintResult> {
    this.access.requireManager(token);
    return this.host.printReport(this.doc(day));
  }

  prepareExport(token: string, request: ExportRequest): DownloadTicket {
    const me = this.access.requireManager(token);
    const ticket = this.host.prepareDownload(request);
    this.audit.record({
      actor: staffActor(me),
      action: 'orders.exported',
      detail: {
        from: request.from,
        to: request.to,
        format: request.format,
        ...(request.format === 'csv' ? { table: request.table ?? 'orders' } : {}),
        file: ticket.filename,
      },
    });
    return ticket;
  }

  private reportOptions(s: LoketSettings) {
    return {
      timeZone: s.timeZone,
      now: this.clock.now(),
      methods: this.host.methods(),
      staffNames: this.host.staff(),
      training: this.host.training(),
      lang: s.lang,
    };
  }

  private report(day: string): DayReport {
    return dayReport(this.host.log(), day, this.reportOptions(this.host.settings()));
  }

  private doc(day: string): ReportDoc {
    const s = this.host.settings();
    return buildReportDoc(this.report(day), {
      storeName: s.storeName,
      ...(s.storeAddress ? { storeAddress: s.storeAddress } : {}),
      lang: s.lang,
      printedAt: this.clock.now(),
    });
  }
}
