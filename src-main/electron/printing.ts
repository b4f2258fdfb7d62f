import type { BrowserWindow } from 'electron';
import { hardenedWindow } from './hardened-window';

/**
 * Printing through the operating system's printers (receipts, the end-of-day page): the HTML is laid out in a
 * hidden, sandboxed window with JavaScript off and no preload, loaded as a data URL, so nothing in it can run or
 * reach the API. Network ESC/POS printers are printed to by the core (adapters/tcp-printer.ts), not here.
 */

export interface PrintOptions {
  /** The printer chosen in settings (its system name, PrinterInfo.name); absent: the system's default printer. */
  deviceName?: string;
  /** true: print at once, no dialog (a configured printer); false: the system's print dialog. */
  silent: boolean;
}

/** What the app host is given for receipts and the end-of-day page. */
export interface SystemPrinter {
  print(html: string, options: { deviceName?: string; silent: boolean }): Promise<void>;
  pdf(html: string): Promise<Buffer>;
}

/** A print that did not happen; `cancelled` when the person closed the print dialog. */
export class PrintError extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
    this.name = 'PrintError';
  }
}

export function systemPrinter(): SystemPrinter {
  return { print: printHtml, pdf: htmlToPdf };
}

/** Prints `html` on the chosen printer (or the default one), silently or through the print dialog. */
export async function printHtml(html: string, options: PrintOptions): Promise<void> {
  const window = hiddenWindow();
  try {
    await load(window, html);
    const contents = window.webContents;
    const deviceName = options.deviceName?.trim() || undefined;
    if (deviceName) {
      const printers = await contents.getPrintersAsync();
      if (!printers.some((printer) => printer.name === deviceName)) {
        throw new PrintError(`The printer "${deviceName}" is not installed on this computer.`);
      }
    }
    await new Promise<void>((resolve, reject) => {
      contents.print(
        { silent: options.silent, printBackground: true, ...(deviceName ? { deviceName } : {}) },
        (success, failureReason) => {
          if (success) resolve();
          else reject(new PrintError(`Printing failed: ${failureReason}`, /cancel/i.test(failureReason)));
        },
      );
    });
  } finally {
    if (!window.isDestroyed()) window.destroy();
  }
}

/** Lays `html` out as a PDF (the page size from its CSS `@page`, else A4). */
export async function htmlToPdf(html: string): Promise<Buffer> {
  const window = hiddenWindow();
  try {
    await load(window, html);
    return await window.webContents.printToPDF({ printBackground: true, preferCSSPageSize: true });
  } finally {
    if (!window.isDestroyed()) window.destroy();
  }
}

function hiddenWindow(): BrowserWindow {
  // Receipts are plain HTML and CSS: nothing in them runs.
  return hardenedWindow({ show: false, width: 800, height: 1000 }, { javascript: false });
}

function load(window: BrowserWindow, html: string): Promise<void> {
  return window.loadURL(`data:text/html;charset=utf-8;base64,${Buffer.from(html, 'utf8').toString('base64')}`);
}
