import type { PrintResult } from '../common/api';
import { reason } from '../common/reasons';
import type { LoketSettings } from '../common/settings';
import type { Clock } from '../core/ports';
import { printProblemOf } from '../core/print-problem';
import { buildTestReceipt, type Receipt } from '../core/receipts/receipt-model';
import { renderEscPos } from '../core/receipts/receipt-escpos';
import { renderReceiptHtml } from '../core/receipts/receipt-html';
import type { ReportDoc } from '../core/reports/report-model';
import { renderReportEscPos } from '../core/reports/report-escpos';
import { renderReportHtml } from '../core/reports/report-html';
import { sendToNetworkPrinter } from '../adapters/tcp-printer';
import type { DrawerPrinter } from '../core/shifts/drawer';
import type { SaleReceiptInput } from '../core/receipts/sale-receipt-input';
import type { SaleReceiptContext } from '../core/receipts/sale-receipt';
import { saleReceiptEscPos, saleReceiptHtml } from '../core/receipts/sale-receipt-render';

/** A sale's struk and how to print it (language, zone, copy, when): what the sale's printer sends. */
export interface SaleStruk {
  input: SaleReceiptInput;
  context: SaleReceiptContext;
}

/** An ESC/POS network printer given on the command line. */
export interface NetworkPrinterOption {
  host: string;
  port: number;
  paper: 58 | 80;
}

/** The operating system's printers (the desktop app): used when the settings choose kind 'system'. */
export interface SystemPrinter {
  print(html: string, options: { deviceName?: string; silent: boolean }): Promise<void>;
  pdf(html: string): Promise<Buffer>;
}

/** Where one kind of document prints without the screen's print dialog. */
export interface Printer<D> {
  /** For the log and the English message. */
  name: string;
  /** For a screen: the printer's own name only (the default printer goes unnamed, not in English). */
  label?: string;
  system: boolean;
  send(doc: D): Promise<void>;
}

/** The store's name, address, header and footer, zone and language: what every receipt and slip prints. */
export function receiptContext(s: LoketSettings) {
  return {
    storeName: s.storeName,
    ...(s.storeAddress ? { storeAddress: s.storeAddress } : {}),
    ...(s.receiptHeader ? { headerText: s.receiptHeader } : {}),
    ...(s.receiptFooter ? { footerText: s.receiptFooter } : {}),
    timeZone: s.timeZone,
    lang: s.lang,
  };
}

/**
 * The host's printing: one choice of printer for receipts and the day's report — the network printer (the command
 * line's, else the settings'), as ESC/POS; or the OS printer chosen in settings (the desktop app), as HTML; none:
 * from the screen — each document with its two renderings, and the test page and the report's print results.
 */
export class HostPrinting {
  constructor(
    private readonly options: { printer?: NetworkPrinterOption; systemPrinter?: SystemPrinter; clock: Clock },
  ) {}

  /** Where receipts and slips print with these settings; undefined: from the screen. */
  readonly receipt = this.printerFor<Receipt>(
    (receipt, paper) => renderEscPos(receipt, { paper }),
    (receipt, paper) => renderReceiptHtml(receipt, { paper }),
  );

  /** A sale's struk: ESC/POS on the receipt printer, or its HTML on the OS printer (the receipt paper's width). */
  readonly saleReceipt = this.printerFor<SaleStruk>(
    (doc, paper) => saleReceiptEscPos(doc.input, { ...doc.context, paper }),
    (doc, paper) => saleReceiptHtml(doc.input, { ...doc.context, paper }),
  );

  /** The day's report: ESC/POS on the receipt printer, or its A4 page on the OS printer. */
  readonly report = this.printerFor<ReportDoc>(
    (doc, paper) => renderReportEscPos(doc, { paper }),
    (doc) => renderReportHtml(doc),
  );

  async printReport(s: LoketSettings, doc: ReportDoc): Promise<PrintResult> {
    const printer = this.report(s);
    if (!printer)
      return {
        ok: false,
        message: 'No printer is set up: print the A4 page from the screen instead.',
        reason: reason('print.no_printer', { what: 'report' }),
      };
    return this.send(printer, doc, `The report printed on ${printer.name}.`, 'report');
  }

  /** A receipt (a refund's: core/sales/refund-api.ts) on the receipt printer; says so when none is set up. */
  async printReceiptDoc(s: LoketSettings, receipt: Receipt): Promise<PrintResult> {
    const printer = this.receipt(s);
    if (!printer)
      return {
        ok: false,
        message: 'No printer is set up: print from this screen instead.',
        reason: reason('print.no_printer', { what: 'receipt' }),
      };
    return this.send(printer, receipt, `The receipt printed on ${printer.name}.`, 'receipt');
  }

  /** The receipt printer as the cash drawer needs it (core/shifts/drawer.ts): the network printer, the OS's, or none. */
  drawer(s: LoketSettings): DrawerPrinter {
    const network =
      this.options.printer ??
      (s.printer.kind === 'network' && s.printer.host && s.printer.port
        ? { host: s.printer.host, port: s.printer.port }
        : undefined);
    if (network)
      return {
        kind: 'network',
        label: `${network.host}:${network.port}`,
        send: (bytes) => sendToNetworkPrinter(bytes, { host: network.host, port: network.port }),
      };
    return s.printer.kind === 'system' && this.options.systemPrinter ? { kind: 'system' } : { kind: 'none' };
  }

  async testPrint(s: LoketSettings): Promise<PrintResult> {
    const printer = this.receipt(s);
    if (!printer)
      return {
        ok: false,
        message: 'No printer is set up: receipts print from the screen instead.',
        reason: reason('print.no_printer', { what: 'test' }),
      };
    const receipt = buildTestReceipt({ ...receiptContext(s), printedAt: this.options.clock.now() });
    return this.send(printer, receipt, `Test page printed on ${printer.name}.`, 'test');
  }

  private async send<D>(
    printer: Printer<D>,
    doc: D,
    done: string,
    what: 'report' | 'test' | 'receipt',
  ): Promise<PrintResult> {
    const named = printer.label ? { printer: printer.label } : {};
    try {
      await printer.send(doc);
      return { ok: true, message: done, reason: reason('print.done', { ...named, what }) };
    } catch (err) {
      return {
        ok: false,
        message: (err as Error).message,
        reason: reason('print.failed', { ...named, problem: printProblemOf(err, printer) }),
      };
    }
  }

  private printerFor<D>(
    escPos: (doc: D, paper: 58 | 80) => Buffer,
    html: (doc: D, paper: 58 | 80) => string,
  ): (s: LoketSettings) => Printer<D> | undefined {
    return (s) => {
      const network =
        this.options.printer ??
        (s.printer.kind === 'network' && s.printer.host && s.printer.port
          ? { host: s.printer.host, port: s.printer.port, paper: s.printer.paper }
          : undefined);
      if (network)
        return {
          name: `${network.host}:${network.port}`,
          label: `${network.host}:${network.port}`,
          system: false,
          send: (doc) => sendToNetworkPrinter(escPos(doc, network.paper), network),
        };
      const system = this.options.systemPrinter;
      if (s.printer.kind !== 'system' || !system) return undefined;
      const deviceName = s.printer.systemName;
      return {
        name: deviceName ?? 'the default printer',
        ...(deviceName ? { label: deviceName } : {}),
        system: true,
        send: (doc) =>
          system.print(html(doc, s.printer.paper), { ...(deviceName ? { deviceName } : {}), silent: true }),
      };
    };
  }
}
