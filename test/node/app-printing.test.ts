import { formatDay } from '../../src-main/common/dates';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { ReceiptPrinterError } from '../../src-main/adapters/tcp-printer';
import { dayIn } from '../../src-main/common/gateway-time';
import { AppService } from '../../src-main/core/app-service';
import { systemClock } from '../../src-main/core/ports';
import { openLoket } from '../../src-main/runtime';
import { appCounterDeps } from './helpers/counter';
import { tempDir } from './helpers/loket';

let host: AppHost | undefined;
let printer: Server | undefined;
const dir = tempDir('loket-print-');

afterEach(async () => {
  await host?.close();
  host = undefined;
  await new Promise<void>((r) => (printer ? printer.close(() => r()) : r()));
  printer = undefined;
});

/** A stand-in for a network receipt printer: keeps the bytes of every job. */
async function fakeNetworkPrinter(): Promise<{ port: number; received: Buffer[] }> {
  const received: Buffer[] = [];
  printer = createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('end', () => received.push(Buffer.concat(chunks)));
  });
  await new Promise<void>((r) => printer!.listen(0, '127.0.0.1', r));
  return { port: (printer.address() as AddressInfo).port, received };
}

async function paidSale(h: AppHost) {
  const charged = await h.app.createOrder({ methodId: 'qris_dynamic', amount: 25000, itemName: 'Kopi susu' });
  if (!charged.ok) throw new Error(charged.failure.message);
  return h.app.simulatePayment(charged.order.id);
}

describe('receipts from a sale', () => {
  it('prints ESC/POS to a network printer; a reprint says SALINAN (copy) and SANDBOX', async () => {
    const received: Buffer[] = [];
    printer = createServer((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (d) => chunks.push(d));
      socket.on('end', () => received.push(Buffer.concat(chunks)));
    });
    await new Promise<void>((r) => printer!.listen(0, '127.0.0.1', r));
    const port = (printer.address() as AddressInfo).port;
    host = await startAppHost({
      version: 't',
      dataDir: join(dir.path, 'a'),
      env: {},
      printer: { host: '127.0.0.1', port, paper: 58 },
    });
    expect((await host.app.appInfo()).networkPrinter).toBe(true);
    const order = await paidSale(host);
    expect(order.state).toBe('paid');
    expect(await host.app.printReceipt(order.id, { copy: false })).toEqual({
      ok: true,
      message: 'Receipt printed.',
      reason: { key: 'print.done', params: { what: 'receipt' } },
    });
    expect(await host.app.printReceipt(order.id, { copy: true })).toMatchObject({ ok: true });
    await expect.poll(() => received.length).toBe(2);
    const [original, copy] = received.map((b) => b.toString('latin1'));
    expect(original!.startsWith('\x1b@')).toBe(true);
    expect(original).toContain('Rp25.000');
    expect(original).toContain('LUNAS');
    expect(original).toContain('SANDBOX');
    expect(original).not.toContain('SALINAN');
    expect(copy).toContain('SALINAN');
  });

  it("the day's report prints on the same network printer, as ESC/POS with the day's paid total", async () => {
    const received: Buffer[] = [];
    printer = createServer((socket) => {
      const chunks: Buffer[] = [];
      socket.on('data', (d) => chunks.push(d));
      socket.on('end', () => received.push(Buffer.concat(chunks)));
    });
    await new Promise<void>((r) => printer!.listen(0, '127.0.0.1', r));
    const port = (printer.address() as AddressInfo).port;
    host = await startAppHost({
      version: 't',
      dataDir: join(dir.path, 'report'),
      env: {},
      printer: { host: '127.0.0.1', port, paper: 80 },
    });
    await paidSale(host);
    const manager = (await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' })).token;
    const day = (await host.app.dayReport(manager, dayIn(new Date(), 'Asia/Jakarta'))).date;
    const result = await host.app.printDayReport(manager, day);
    expect(result).toMatchObject({ ok: true, message: expect.stringContaining(`127.0.0.1:${port}`) });
    await expect.poll(() => received.length).toBe(1);
    const text = received[0]!.toString('latin1');
    expect(text.startsWith('\x1b@')).toBe(true);
    expect(text).toContain('Rp25.000');
    expect(text).toContain(formatDay(day));
  });

  it('with the printer down the sale still completes, and the cashier is told in plain words', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    host = await startAppHost({
      version: 't',
      dataDir: join(dir.path, 'b'),
      env: {},
      printer: { host: '127.0.0.1', port, paper: 80 },
    });
    const order = await paidSale(host);
    const result = await host.app.printReceipt(order.id, { copy: false });
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/refused the connection/);
    expect((await host.app.getOrder(order.id))!.state).toBe('paid');
    expect(host.loket.log.events(order.id).at(-1)).toMatchObject({
      type: 'note',
      reason: expect.stringContaining('receipt printer failed'),
    });
  });

  it('without a network printer the receipt comes as HTML for the browser to print', async () => {
    host = await startAppHost({ version: 't', dataDir: join(dir.path, 'c'), env: {} });
    const order = await paidSale(host);
    expect(await host.app.printReceipt(order.id, { copy: false })).toMatchObject({
      ok: false,
      message: expect.stringContaining('print from this screen'),
    });
    const { html } = await host.app.receipt(order.id, { paper: 80, copy: true });
    expect(html).toContain('Rp25.000');
    expect(html).toMatch(/SALINAN/);
    expect(html).toMatch(/size: 80mm/);
  });
});

describe('one original per sale: every later receipt says COPY', () => {
  it('on the network printer, a second print asked as an original is a copy', async () => {
    const { port, received } = await fakeNetworkPrinter();
    host = await startAppHost({
      version: 't',
      dataDir: join(dir.path, 'copy-net'),
      env: {},
      printer: { host: '127.0.0.1', port, paper: 58 },
    });
    const order = await paidSale(host);
    expect(await host.app.printReceipt(order.id, { copy: false })).toEqual({
      ok: true,
      message: 'Receipt printed.',
      reason: { key: 'print.done', params: { what: 'receipt' } },
    });
    expect(await host.app.printReceipt(order.id, { copy: false })).toEqual({
      ok: true,
      message: 'Copy printed.',
      reason: { key: 'print.done', params: { what: 'copy' } },
    });
    await expect.poll(() => received.length).toBe(2);
    const [original, again] = received.map((b) => b.toString('latin1'));
    expect(original).not.toContain('SALINAN');
    expect(again).toContain('** SALINAN **');
  });

  it("on the screen's print, the second receipt of a sale is a copy, and an earlier print counts too", async () => {
    host = await startAppHost({ version: 't', dataDir: join(dir.path, 'copy-html'), env: {} });
    const order = await paidSale(host);
    const first = await host.app.receipt(order.id, { paper: 58, copy: false });
    expect(first.html).not.toContain('SALINAN');
    const second = await host.app.receipt(order.id, { paper: 58, copy: false });
    expect(second.html).toContain('mark-copy');
    expect(second.html).toContain('SALINAN');
    // The log says which print was the original.
    const notes = host.loket.log
      .events(order.id)
      .filter((e) => e.type === 'note')
      .map((e) => e.payload);
    expect(notes).toEqual([
      { receipt: 'shown', copy: false },
      { receipt: 'shown', copy: true },
    ]);
  });

  it('a printer that took the job and did not finish may have printed it: the next receipt is a copy', async () => {
    const l = await openLoket({ dataDir: join(dir.path, 'copy-unfinished'), env: {} });
    try {
      const jobs: boolean[] = [];
      let fail = true;
      const app = new AppService({
        info: () => ({ mode: 'sandbox', timeZone: 'Asia/Jakarta', lang: 'id' }) as never,
        ...appCounterDeps(l),
        log: l.log,
        orders: l.orders,
        methods: l.methods,
        items: [],
        clock: systemClock,
        receipts: {
          html: () => '',
          slipHtml: () => '',
          print: async (_order, { copy }) => {
            jobs.push(copy);
            if (fail) throw new ReceiptPrinterError('did not finish within 4 s', 'unfinished', '10.0.0.9', 9100);
          },
        },
        simulatePayment: async (id) => void l.orders.applyGatewayStatus(id, 'PAID', { source: 'inquiry' }),
      });
      const charged = await app.createOrder({ methodId: 'qris_dynamic', amount: 25000, itemName: 'Kopi' });
      const paid = await app.simulatePayment(charged.order!.id);
      expect((await app.printReceipt(paid.id, { copy: false })).ok).toBe(false);
      fail = false;
      expect(await app.printReceipt(paid.id, { copy: false })).toEqual({
        ok: true,
        message: 'Copy printed.',
        reason: { key: 'print.done', params: { what: 'copy' } },
      });
      expect(jobs).toEqual([false, true]);
    } finally {
      await l.close();
    }
  });
});

describe('the payment slip of a virtual account or a store code', () => {
  it('prints on the network printer as ESC/POS, with the code grouped, the bank, the steps and the deadline', async () => {
    const { port, received } = await fakeNetworkPrinter();
    host = await startAppHost({
      version: 't',
      dataDir: join(dir.path, 'slip-net'),
      env: {},
      printer: { host: '127.0.0.1', port, paper: 80 },
    });
    const charged = await host.app.createOrder({ methodId: 'va_bni', amount: 150000, itemName: 'Beras premium' });
    expect(charged.order?.state).toBe('awaiting_payment');
    const va = (charged.order!.instruction as { va: string }).va;
    expect(await host.app.printPaymentSlip(charged.order!.id)).toEqual({
      ok: true,
      message: 'Payment slip printed.',
      reason: { key: 'print.done', params: { what: 'slip' } },
    });
    await expect.poll(() => received.length).toBe(1);
    const text = received[0]!.toString('latin1');
    expect(text).toContain('SLIP PEMBAYARAN');
    expect(text).toContain(va.replace(/(.{4})(?=.)/g, '$1 '));
    expect(text).toContain('Rp150.000');
    expect(text).toContain('Cara membayar');
    expect(text).toMatch(/Batas bayar +\d{2}\/\d{2}\/\d{4} \d{2}\.\d{2} WIB/);
    expect(text).toContain('SANDBOX');
    expect(text).not.toContain('LUNAS');
    // A slip is not a receipt: the sale's receipt is still to be printed, as the original.
    await host.app.simulatePayment(charged.order!.id);
    expect(await host.app.printReceipt(charged.order!.id, { copy: false })).toEqual({
      ok: true,
      message: 'Receipt printed.',
      reason: { key: 'print.done', params: { what: 'receipt' } },
    });
  });

  it('comes as HTML for the screen to print; it is refused for an order that is not a VA waiting for payment', async () => {
    host = await startAppHost({ version: 't', dataDir: join(dir.path, 'slip-html'), env: {} });
    const charged = await host.app.createOrder({ methodId: 'va_alfamart', amount: 50000, itemName: 'Pulsa' });
    const { html } = await host.app.paymentSlip(charged.order!.id, { paper: 58 });
    expect(html).toContain('SLIP PEMBAYARAN');
    expect(html).toContain('Bayar di</dt><dd>Alfamart');
    expect(html).toMatch(/size: 58mm/);
    expect(await host.app.printPaymentSlip(charged.order!.id)).toMatchObject({
      ok: false,
      message: expect.stringContaining('print from this screen'),
    });

    await host.app.parkSale(charged.order!.id);
    const qris = await paidSale(host);
    await expect(Promise.resolve().then(() => host!.app.paymentSlip(qris.id, { paper: 58 }))).rejects.toThrow(
      /a payment slip is printed only for a virtual account or store code that is waiting for payment/,
    );
  });
});

describe('the OS printer chosen in settings (the desktop app prints through Electron)', () => {
  it('receipts and the test page go to the chosen device, silently, as HTML of the paper width', async () => {
    // The Electron side (webContents.print) cannot run here; the host's side of the seam is what is tested.
    const jobs: { html: string; options: { deviceName?: string; silent: boolean } }[] = [];
    host = await startAppHost({
      version: 't',
      dataDir: join(dir.path, 'system'),
      env: {},
      systemPrinter: {
        print: async (html, options) => void jobs.push({ html, options }),
        pdf: async () => Buffer.alloc(0),
      },
    });
    const session = await host.app.setupManager({ name: 'Bu Sri', pin: '97531864' });
    const saved = await host.app.updateSettings(session.token, 'printer', {
      kind: 'system',
      systemName: 'EPSON TM-T82',
      paper: 80,
    });
    expect(saved.ok).toBe(true);
    expect((await host.app.appInfo()).networkPrinter).toBe(true);

    const order = await paidSale(host);
    expect(await host.app.printReceipt(order.id, { copy: false })).toMatchObject({ ok: true });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.options).toEqual({ deviceName: 'EPSON TM-T82', silent: true });
    expect(jobs[0]!.html).toContain(order.id);
    expect(jobs[0]!.html).toContain('80mm');

    expect(await host.app.testPrint(session.token)).toEqual({
      ok: true,
      message: 'Test page printed on EPSON TM-T82.',
      reason: { key: 'print.done', params: { printer: 'EPSON TM-T82', what: 'test' } },
    });
    expect(jobs[1]!.html).toMatch(/CETAK UJI|TEST PRINT/);

    // A payment slip goes to the same device, as HTML of the paper width.
    const va = await host.app.createOrder({ methodId: 'va_bni', amount: 150000, itemName: 'Beras' });
    expect(await host.app.printPaymentSlip(va.order!.id)).toEqual({
      ok: true,
      message: 'Payment slip printed.',
      reason: { key: 'print.done', params: { what: 'slip' } },
    });
    expect(jobs[2]!.options).toEqual({ deviceName: 'EPSON TM-T82', silent: true });
    expect(jobs[2]!.html).toContain('SLIP PEMBAYARAN');
    expect(jobs[2]!.html).toContain('size: 80mm');
  });
});
