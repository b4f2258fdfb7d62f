import { Socket } from 'node:net';

/**
 * A network receipt printer: raw TCP, usually port 9100 ("JetDirect"/"RAW"), that takes ESC/POS bytes and
 * prints them. Loket connects, writes the bytes, ends its side and waits for the printer to close. See
 * docs/receipts.md. A failure here is reported to the cashier; it never blocks or undoes a sale.
 */

export const DEFAULT_PRINTER_PORT = 9100;
export const DEFAULT_PRINTER_TIMEOUT_MS = 4000;

/** One-shot timers. */
export interface PrinterTimers {
  schedule(fn: () => void, ms: number): { cancel(): void };
}

const realTimers: PrinterTimers = {
  schedule(fn, ms) {
    const timer = setTimeout(fn, ms);
    return { cancel: () => clearTimeout(timer) };
  },
};

export interface NetworkPrinterOptions {
  host: string;
  /** Default 9100. */
  port?: number;
  /** The whole job (connect, write, close) must be done within this; default 4000 ms. */
  timeoutMs?: number;
  /** Real timers by default; a test passes its own to run the time limit out without waiting for it. */
  timers?: PrinterTimers;
}

export type PrinterFailure =
  'invalid_options' | 'refused' | 'timeout' | 'unfinished' | 'not_found' | 'unreachable' | 'dropped' | 'error';

/** What went wrong, in plain words in `message`, and as a code in `reason` for the caller's own wording. */
export class ReceiptPrinterError extends Error {
  constructor(
    message: string,
    readonly reason: PrinterFailure,
    readonly host: string,
    readonly port: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ReceiptPrinterError';
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function address(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

function describe(err: NodeJS.ErrnoException, host: string, port: number, timeoutMs: number): ReceiptPrinterError {
  const at = `the receipt printer at ${address(host, port)}`;
  const fail = (message: string, reason: PrinterFailure) =>
    new ReceiptPrinterError(message, reason, host, port, { cause: err });
  switch (err.code) {
    case 'ECONNREFUSED':
      return fail(`${at} refused the connection (is it switched on, and is ${port} its port?)`, 'refused');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
      return fail(`the receipt printer's address "${host}" could not be found`, 'not_found');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
    case 'EADDRNOTAVAIL':
      return fail(`${at} cannot be reached from this computer (${err.code})`, 'unreachable');
    case 'ETIMEDOUT':
      return fail(`${at} did not answer within ${seconds(timeoutMs)}`, 'timeout');
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return fail(`${at} dropped the connection before the receipt was sent`, 'dropped');
    default:
      return fail(`${at} could not be used: ${err.message}`, 'error');
  }
}

/**
 * Sends ESC/POS bytes to a network printer. Resolves once the printer has closed the connection after
 * taking the bytes. Rejects with a ReceiptPrinterError in plain words on refusal, an unknown address, a
 * dropped connection, bad options, or when the whole job takes longer than `timeoutMs` — then the socket
 * is destroyed, so nothing is left hanging. Never throws synchronously.
 */
export function sendToNetworkPrinter(bytes: Buffer, opts: NetworkPrinterOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // Inside the executor, so that even a wrong argument is a rejection, never a synchronous throw.
    const host = typeof opts?.host === 'string' ? opts.host.trim() : '';
    const port = opts?.port ?? DEFAULT_PRINTER_PORT;
    const timeoutMs = opts?.timeoutMs ?? DEFAULT_PRINTER_TIMEOUT_MS;
    const timers = opts?.timers ?? realTimers;
    const invalid = (message: string) =>
      reject(
        new ReceiptPrinterError(
          `the receipt printer settings are wrong: ${message}`,
          'invalid_options',
          host,
          Number(port),
        ),
      );
    if (!host || /\s/.test(host)) return invalid('the printer address is empty or has spaces in it');
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      return invalid(`the port must be a whole number from 1 to 65535, not ${String(port)}`);
    if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > 2_147_483_647) {
      return invalid(`the time limit must be a positive number of milliseconds, not ${String(timeoutMs)}`);
    }
    if (!(bytes instanceof Uint8Array)) return invalid('there are no receipt bytes to send');

    const at = `the receipt printer at ${address(host, port)}`;
    const socket = new Socket();
    let connected = false;
    let settled = false;

    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      timer.cancel();
      if (err) {
        socket.destroy();
        reject(err);
      } else {
        resolve();
      }
    };

    const timer = timers.schedule(() => {
      settle(
        connected
          ? new ReceiptPrinterError(
              `${at} took the connection but did not finish within ${seconds(timeoutMs)}; the receipt may or may not have printed`,
              'unfinished',
              host,
              port,
            )
          : new ReceiptPrinterError(`${at} did not answer within ${seconds(timeoutMs)}`, 'timeout', host, port),
      );
    }, timeoutMs);

    socket.once('connect', () => {
      connected = true;
      socket.end(bytes);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => settle(describe(err, host, port, timeoutMs)));
    socket.once('close', (hadError) => {
      if (hadError) settle(new ReceiptPrinterError(`${at} closed the connection with an error`, 'dropped', host, port));
      else settle();
    });

    try {
      socket.connect({ host, port });
    } catch (err) {
      settle(err instanceof Error ? describe(err, host, port, timeoutMs) : new Error(String(err)));
    }
  });
}
