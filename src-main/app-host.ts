import { ApiError } from './common/api';
import type { AppInfo, Lang } from './common/app-info';
import { AppService, type ReceiptPort } from './core/app-service';
import { loadItemCatalogue } from './core/catalogue';
import { startCallbackListener, type CallbackListener } from './core/confirmation/callback-listener';
import { pollUntilSettled } from './core/confirmation/status-poller';
import { buildReceipt } from './core/receipts/receipt-model';
import { renderReceiptHtml } from './core/receipts/receipt-html';
import { renderEscPos } from './core/receipts/receipt-escpos';
import { sendToNetworkPrinter } from './adapters/tcp-printer';
import { systemClock } from './core/ports';
import { openLoket, type Loket, type OpenOptions } from './runtime';
import type { Order } from './common/order';

export interface AppHostOptions extends OpenOptions {
  version: string;
  lang?: Lang;
  /** `host:port` of an ESC/POS network printer (TCP 9100); else receipts print from the browser. */
  printer?: { host: string; port: number; paper: 58 | 80 };
  log?: (line: string) => void;
}

export interface AppHost {
  readonly app: AppService;
  readonly loket: Loket;
  close(): Promise<void>;
}

/** How long the poller keeps asking after an order's own expiry, for a late answer. */
const POLL_GRACE_MS = 60_000;

/**
 * Everything a host (browser mode, the desktop shell) runs around the core: the order log and gateway,
 * a callback listener, polling for orders waiting for payment, receipts, and the API service.
 */
export async function startAppHost(options: AppHostOptions): Promise<AppHost> {
  const log = options.log ?? (() => undefined);
  const loket = await openLoket(options);
  const polls = new Set<AbortController>();
  let listener: CallbackListener | undefined;
  try {
    const configured = loket.settings.callbackListener;
    // Training mode: the embedded sandbox calls back on loopback. A live gateway needs a listener it can reach.
    if (loket.sandbox || configured) {
      const client = loket.client.config;
      listener = await startCallbackListener({
        host: configured?.host ?? '127.0.0.1',
        port: configured?.port ?? 0,
        path: configured?.path ?? '/loket/callback',
        appId: client.appId,
        key: await loket.signingKey(),
        encoding: client.signing.encoding,
        orders: loket.orders,
        log: loket.log,
        receipts: loket.receipts,
        report: (line) => log(`callback: ${line}`),
      });
      loket.orders.setNotificationUrl(configured?.publicUrl ?? listener.url);
    }

    const printer = options.printer;
    const receipts: ReceiptPort = {
      html: (order, { paper, copy }) => renderReceiptHtml(receiptOf(order, copy), { paper }),
      ...(printer
        ? {
            print: async (order: Order, { copy }: { copy: boolean }) =>
              sendToNetworkPrinter(renderEscPos(receiptOf(order, copy), { paper: printer.paper }), printer),
          }
        : {}),
    };
    function receiptOf(order: Order, copy: boolean) {
      return buildReceipt(order, {
        storeName: loket.settings.storeName,
        method: loket.methods.find((m) => m.id === order.methodId),
        timeZone: loket.settings.timeZone,
        lang: info.lang,
        copy,
        training: loket.training,
        printedAt: new Date(),
      });
    }

    const info: AppInfo = {
      name: 'Loket',
      version: options.version,
      mode: loket.training ? 'sandbox' : 'live',
      storeName: loket.settings.storeName,
      terminalId: loket.terminalId,
      timeZone: loket.settings.timeZone,
      lang: options.lang ?? 'id',
      networkPrinter: printer !== undefined,
    };

    /** Polls an order waiting for payment until it settles, as a fallback to the gateway's callback. */
    const watch = (order: Order): void => {
      if (!loket.client.config.inquiryPath || !order.expiresAt) return;
      const controller = new AbortController();
      polls.add(controller);
      void pollUntilSettled(order.id, {
        orders: loket.orders,
        log: loket.log,
        client: loket.client,
        initialDelayMs: 2000,
        maxDelayMs: 30_000,
        deadline: new Date(Date.parse(order.expiresAt) + POLL_GRACE_MS),
        signal: controller.signal,
      })
        .catch((err: unknown) => log(`poll ${order.id}: ${(err as Error).message}`))
        .finally(() => polls.delete(controller));
    };

    const sandbox = loket.sandbox;
    const app = new AppService({
      info,
      log: loket.log,
      orders: loket.orders,
      methods: loket.methods,
      items: loadItemCatalogue(),
      clock: systemClock,
      receipts,
      ...(sandbox
        ? {
            simulatePayment: async (id: string) => {
              if (!sandbox.orders.get(id)) {
                // The embedded sandbox lives in memory: after a restart it no longer knows earlier orders.
                throw new ApiError(
                  'conflict',
                  'The training gateway was restarted and no longer knows this order: cancel it and charge again.',
                );
              }
              sandbox.settle(id, 'PAID');
              // Do not wait for the callback: ask once, so the cashier sees "paid" at once. Both paths are idempotent.
              const answer = await loket.client.inquire(id);
              if (answer.ok)
                loket.orders.applyGatewayStatus(id, answer.status, {
                  source: 'inquiry',
                  reason: 'training: simulated payment',
                });
            },
          }
        : {}),
      watch,
    });

    // Orders still waiting from before a restart are watched too, not only the ones charged from now on.
    for (const order of loket.log.list({ state: 'awaiting_payment' })) watch(order);

    return {
      app,
      loket,
      close: async () => {
        for (const c of polls) c.abort();
        app.close();
        await listener?.close();
        await loket.close();
      },
    };
  } catch (err) {
    for (const c of polls) c.abort();
    await listener?.close();
    await loket.close();
    throw err;
  }
}
