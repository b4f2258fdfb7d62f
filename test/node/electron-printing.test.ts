import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-fake')).createFakeElectron());

import * as electron from 'electron';
import type { FakeElectron, FakeWindow } from './electron-fake';
import { htmlToPdf, printHtml, PrintError, systemPrinter } from '../../src-main/electron/printing';

const fake = electron as unknown as FakeElectron;
const receipt = '<!doctype html><meta charset="utf-8"><title>Struk</title><p>Kopi susu — Rp 25.000 #1</p>';
const lastWindow = () => fake.BrowserWindow.created.at(-1) as FakeWindow;

describe('printing through the system’s printers', () => {
  it('prints from a hidden, sandboxed window with JavaScript off and no preload, then closes it', async () => {
    await printHtml(receipt, { deviceName: 'Thermal-58', silent: true });
    const w = lastWindow();
    expect(w.options.show).toBe(false);
    expect(w.options.webPreferences).toEqual({
      javascript: false,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
    });
    // The HTML travels whole as a data URL (the '#' and non-ASCII survive).
    const url = w.loaded?.url ?? '';
    expect(url.startsWith('data:text/html;charset=utf-8;base64,')).toBe(true);
    expect(Buffer.from(url.split(',')[1]!, 'base64').toString('utf8')).toBe(receipt);
    expect(w.webContents.printCalls).toEqual([{ silent: true, printBackground: true, deviceName: 'Thermal-58' }]);
    expect(w.isDestroyed()).toBe(true);
  });

  it('without a chosen printer: the default one, through the dialog when not silent', async () => {
    await printHtml(receipt, { silent: false });
    expect(lastWindow().webContents.printCalls).toEqual([{ silent: false, printBackground: true }]);
  });

  it('a printer that is not installed is named, and nothing is sent', async () => {
    await expect(printHtml(receipt, { deviceName: 'Epson-TM', silent: true })).rejects.toThrow(
      'The printer "Epson-TM" is not installed on this computer.',
    );
    expect(lastWindow().webContents.printCalls).toEqual([]);
    expect(lastWindow().isDestroyed()).toBe(true);
  });

  it('a failed or cancelled print rejects with the reason, and the window still closes', async () => {
    // The job's window exists as soon as printHtml is called: it answers as the OS would.
    const job = printHtml(receipt, { silent: false });
    lastWindow().webContents.printOutcome = { success: false, failureReason: 'Print job canceled' };
    const cancelled = await job.catch((e: unknown) => e);
    expect(cancelled).toBeInstanceOf(PrintError);
    expect(cancelled).toMatchObject({ message: 'Printing failed: Print job canceled', cancelled: true });
    expect(lastWindow().isDestroyed()).toBe(true);

    const failing = printHtml(receipt, { silent: true });
    lastWindow().webContents.printOutcome = { success: false, failureReason: 'Print job failed' };
    await expect(failing).rejects.toMatchObject({ cancelled: false });
  });

  it('htmlToPdf: the page size from the HTML’s CSS, backgrounds kept', async () => {
    const pdf = await htmlToPdf(receipt);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(lastWindow().webContents.pdfCalls).toEqual([{ printBackground: true, preferCSSPageSize: true }]);
    expect(lastWindow().options.webPreferences).toMatchObject({ javascript: false, sandbox: true });
    expect(lastWindow().isDestroyed()).toBe(true);
  });

  it('systemPrinter(): what the app host is given', async () => {
    const printer = systemPrinter();
    await printer.print(receipt, { silent: true });
    expect(lastWindow().webContents.printCalls).toHaveLength(1);
    expect(Buffer.isBuffer(await printer.pdf(receipt))).toBe(true);
  });
});
