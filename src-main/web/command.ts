import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LogFile } from '../adapters/log-file';
import { rememberSecret } from '../adapters/log-redaction';
import { startAppHost } from '../app-host';
import { defaultDataDir } from '../core/data-dir';
import { UsageError } from '../sandbox/command';
import { newAccessToken } from './security';
import { startWebHost } from './web-host';

export const SERVE_USAGE = `Usage: npm run serve [-- options]     (or: npm run cli -- serve [options])

Browser mode: serves the cashier screen and the customer display to a browser on this machine.

  --host H           address to bind (default 127.0.0.1)
  --port N           port (default 5173; 0 picks a free one)
  --lang id|en       the screens' language (default: the store's language setting)
  --lan              allow a non-loopback --host (0.0.0.0 or ::), e.g. a tablet as customer display;
                     the cashier's and the manager's screens still answer this machine only
  --printer H:P      an ESC/POS network receipt printer (TCP, usually port 9100)
  --paper 58|80      receipt paper width for the network printer (default 58)
`;

export const RENDERER_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));

/** This machine's first LAN IPv4 address (what a phone on the same network reaches it by); loopback if none. */
export function lanAddress(interfaces = networkInterfaces()): string {
  for (const list of Object.values(interfaces))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '127.0.0.1';
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

export async function runServeCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      lang: { type: 'string' },
      lan: { type: 'boolean' },
      printer: { type: 'string' },
      paper: { type: 'string' },
      quiet: { type: 'boolean' },
    },
  });
  const host = values.host ?? '127.0.0.1';
  if (!isLoopback(host) && !values.lan) {
    throw new UsageError(`--host: ${host} would open the till to the network; add --lan if that is what you want`);
  }
  if (values.lan && !isLoopback(host) && host !== '0.0.0.0' && host !== '::') {
    // The API answers loopback peers only (plain HTTP), and a server bound to one LAN address has none.
    throw new UsageError(
      `--host: with --lan, bind every address (--host 0.0.0.0 or --host ::), not ${host} alone: the cashier's ` +
        'screen answers only on this machine (127.0.0.1), which would then not be served',
    );
  }
  const port = values.port === undefined ? 5173 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port: must be a whole number from 0 to 65535 (got ${JSON.stringify(values.port)})`);
  const lang = values.lang;
  if (lang !== undefined && lang !== 'id' && lang !== 'en')
    throw new UsageError(`--lang: must be id or en (got ${JSON.stringify(lang)})`);
  const paper = values.paper === undefined ? 58 : Number(values.paper);
  if (paper !== 58 && paper !== 80)
    throw new UsageError(`--paper: must be 58 or 80 (got ${JSON.stringify(values.paper)})`);
  let printer: { host: string; port: number; paper: 58 | 80 } | undefined;
  if (values.printer) {
    const m = /^([^:]+):(\d{1,5})$/.exec(values.printer);
    if (!m)
      throw new UsageError(
        `--printer: must be HOST:PORT, e.g. 192.168.1.50:9100 (got ${JSON.stringify(values.printer)})`,
      );
    printer = { host: m[1]!, port: Number(m[2]), paper };
  }
  if (!existsSync(`${RENDERER_DIR}/index.html`)) {
    throw new Error(
      `the screens are not built yet (${RENDERER_DIR} is missing): run npm run serve, which builds them first`,
    );
  }
  // The log file in the data folder gets what the console gets (and, with --quiet, what it would have got):
  // what the core reports with console.error, and what would end the process. docs/when-things-break.md.
  const logFile = new LogFile(defaultDataDir());
  logFile.captureConsole(['warn', 'error']);
  logFile.captureCrashes();
  const logger = (prefix: string) =>
    values.quiet
      ? (line: string) => logFile.write(`[${prefix}] ${line}`)
      : (line: string) => console.error(`[${prefix}] ${line}`);
  const log = logger('loket');
  // The cashier's token and the display's key are printed, never logged.
  const token = newAccessToken();
  const displayKey = newAccessToken();
  rememberSecret(token);
  rememberSecret(displayKey);
  const version = (
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;

  // On the LAN, the customer's phone must reach what the training gateway hands out (the payment page, the
  // e-wallet's redirect): it listens on the LAN too, and its URLs name this machine's LAN address.
  const lanHost = values.lan
    ? isLoopback(host) || host === '0.0.0.0' || host === '::'
      ? lanAddress()
      : host
    : undefined;
  const appHost = await startAppHost({
    ...(lanHost ? { sandboxLan: { publicHost: lanHost } } : {}),
    version,
    ...(lang ? { lang } : {}),
    log,
    sandboxLog: logger('sandbox'),
    ...(printer ? { printer } : {}),
    // The start's backup waits until the URLs are printed (below): nothing heavy before the till can be opened.
    deferUpkeep: true,
  });
  let web;
  try {
    web = await startWebHost({
      app: appHost.app,
      staticDir: RENDERER_DIR,
      host,
      port,
      token,
      displayKey,
      log,
      logFile: logFile.path,
    });
  } catch (err) {
    await appHost.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(`--port: ${port} is in use; choose another with --port, or 0 for any free port`);
    throw err;
  }
  const mode = appHost.loket.training ? 'SANDBOX (training mode: no real money moves)' : 'LIVE';
  console.log(`Loket browser mode — ${mode}`);
  console.log(`gateway: ${appHost.loket.gatewayDescription}`);
  console.log(`cashier: ${web.cashierUrl}`);
  console.log(`display: ${web.displayUrl}`);
  console.log(`log:     ${logFile.path}`);
  if (lanHost && !isLoopback(host)) {
    const onLan = new URL(web.displayUrl);
    onLan.hostname = lanHost;
    console.log(`display on the LAN: ${onLan.href}`);
    console.log(
      "The cashier's and the manager's screens answer only on this machine: on the network, plain HTTP would show " +
        'their token and PIN to anyone on it.',
    );
  }
  console.log('Open the cashier URL on this machine and the display URL on the customer screen. Ctrl-C stops.');
  appHost.upkeep.start();
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  console.log('stopping');
  await web.close();
  await appHost.close();
  logFile.close();
  return 0;
}
