import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PaymentMethod } from './common/payment-methods';
import type { LoketSettings } from './common/settings';
import { DEFAULT_GATEWAY_TIME_ZONE } from './common/gateway-time';
import { DEFAULT_SIGNING_PROFILE } from './core/bodysign';
import { loadPaymentCatalogue } from './core/catalogue';
import { CallbackReceipts } from './core/confirmation/callback-receipts';
import { defaultDataDir } from './core/data-dir';
import { DEFAULT_TIMEOUT_MS, GatewayClient, type GatewayConfig } from './core/gateway/client';
import { OrderLog } from './core/orders/order-log';
import { OrderService } from './core/payments/order-service';
import { systemClock, type Clock, type SecretStore } from './core/ports';
import { SettingsStore } from './core/settings/settings-store';
import { openDatabase, type Database } from './db/open';
import { EnvSecretStore, MemorySecretStore } from './adapters/env-secret-store';
import { SANDBOX_DEFAULTS, startSandbox, type SandboxHandle } from './sandbox/server';

/**
 * The composition root shared by the CLI, browser mode and the desktop shell: opens the order log,
 * turns interrupted orders into `unknown`, and picks the gateway — the environment's, else the
 * configured one, else an embedded sandbox (training mode).
 */
export interface Loket {
  readonly dataDir: string;
  readonly db: Database;
  readonly log: OrderLog;
  /** Callback receipts, on the order log's connection (so a receipt commits with its change). */
  readonly receipts: CallbackReceipts;
  readonly orders: OrderService;
  readonly client: GatewayClient;
  readonly settings: LoketSettings;
  readonly methods: PaymentMethod[];
  /** LOKET_TERMINAL_ID, else the settings': the prefix of every merchant_transaction_id. */
  readonly terminalId: string;
  readonly training: boolean;
  /** Orders that were `creating` when Loket last stopped, now `unknown`. */
  readonly interrupted: string[];
  readonly sandbox?: SandboxHandle;
  readonly gatewayDescription: string;
  /** The key that signs requests and callbacks (appkey or signing secret): for the callback listener only. */
  signingKey(): Promise<string>;
  close(): Promise<void>;
}

export interface OpenOptions {
  env?: NodeJS.ProcessEnv;
  dataDir?: string;
  clock?: Clock;
  /** The SecretStore for a configured gateway (the OS keychain in the app); the environment by default. */
  secrets?: SecretStore;
  /** Passed to an embedded sandbox. */
  sandboxLog?: (line: string) => void;
}

export async function openLoket(options: OpenOptions = {}): Promise<Loket> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const dataDir = options.dataDir ?? defaultDataDir(env);
  mkdirSync(dataDir, { recursive: true });
  // Settings live in the store's own database; training orders get a database of their own (below).
  let db = openDatabase(join(dataDir, 'loket.db'));
  let sandbox: SandboxHandle | undefined;
  try {
    const settings = new SettingsStore(db, clock).load();
    if (!env.LOKET_GATEWAY_URL && !settings.gateway) {
      // Training mode never writes into the store's books: its orders go to training/loket.db.
      db.close();
      db = openDatabase(join(dataDir, 'training', 'loket.db'));
    }
    const log = new OrderLog(db, clock);
    const receipts = new CallbackReceipts(db, clock);
    const interrupted = log.markInterrupted({ reason: 'Loket stopped while the request was in flight' });
    const methods = loadPaymentCatalogue(env.LOKET_CATALOGUE);

    let config: GatewayConfig;
    let secrets: SecretStore;
    let description: string;
    if (env.LOKET_GATEWAY_URL) {
      if (!env.LOKET_APP_ID) throw new Error('LOKET_APP_ID: is required when LOKET_GATEWAY_URL is set');
      config = {
        baseUrl: env.LOKET_GATEWAY_URL.replace(/\/+$/, ''),
        appId: env.LOKET_APP_ID,
        signing: {
          key: env.LOKET_SIGN_WITH === 'secret' ? 'secret' : 'appkey',
          encoding: env.LOKET_SIGN_ENCODING === 'base64' ? 'base64' : 'hex',
        },
        timeoutMs: env.LOKET_TIMEOUT_MS
          ? Number(env.LOKET_TIMEOUT_MS)
          : (settings.gateway?.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        // An empty LOKET_INQUIRY_PATH means none, as an unset one does.
        inquiryPath: env.LOKET_INQUIRY_PATH || null,
      };
      secrets = new EnvSecretStore(env);
      description = `${config.baseUrl} (from the environment)`;
    } else if (settings.gateway) {
      config = { ...settings.gateway };
      secrets = options.secrets ?? new EnvSecretStore(env);
      description = `${config.baseUrl} (from settings)`;
    } else {
      sandbox = await startSandbox({ port: 0, methods, ...(options.sandboxLog ? { log: options.sandboxLog } : {}) });
      config = {
        baseUrl: sandbox.url,
        appId: sandbox.appId,
        signing: DEFAULT_SIGNING_PROFILE,
        timeoutMs: DEFAULT_TIMEOUT_MS,
        inquiryPath: '/api/status',
      };
      secrets = new MemorySecretStore('the embedded sandbox', { appkey: SANDBOX_DEFAULTS.appKey });
      description = `embedded sandbox at ${sandbox.url} (training mode)`;
    }
    if (!Number.isInteger(config.timeoutMs) || config.timeoutMs <= 0)
      throw new Error('LOKET_TIMEOUT_MS: must be a positive whole number of milliseconds');

    const client = new GatewayClient(config, secrets, methods);
    const training = sandbox !== undefined;
    const terminalId = env.LOKET_TERMINAL_ID ?? settings.terminalId;
    const orders = new OrderService(log, client, clock, {
      terminalId,
      training,
      gatewayTimeZone: settings.gateway?.timeZone ?? DEFAULT_GATEWAY_TIME_ZONE,
      fallbackTtlSeconds: settings.fallbackTtlSeconds,
    });
    return {
      dataDir,
      db,
      log,
      receipts,
      orders,
      client,
      settings,
      methods,
      terminalId,
      training,
      interrupted,
      ...(sandbox ? { sandbox } : {}),
      gatewayDescription: description,
      signingKey: async () => {
        const appKey = await secrets.get('appkey');
        if (!appKey) throw new Error(`no appkey is stored in ${secrets.description}`);
        if (config.signing.key === 'appkey') return appKey;
        const secret = await secrets.get('signing-secret');
        // Never an empty key: a listener verifying with '' would accept anyone's "signed" callback.
        if (!secret)
          throw new Error(`the signing profile needs a signing secret, and none is stored in ${secrets.description}`);
        return secret;
      },
      close: async () => {
        await sandbox?.close();
        db.close();
      },
    };
  } catch (err) {
    await sandbox?.close();
    db.close();
    throw err;
  }
}
