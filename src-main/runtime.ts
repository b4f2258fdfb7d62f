import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PaymentMethod } from './common/payment-methods';
import type { LoketSettings } from './common/settings';
import { DEFAULT_GATEWAY_TIME_ZONE } from './common/gateway-time';
import { gatewayTransportProblem } from './common/settings';
import { AuditLog } from './core/audit/audit-log';
import { DEFAULT_SIGNING_PROFILE } from './core/bodysign';
import { loadPaymentCatalogue } from './core/catalogue';
import { CallbackReceipts } from './core/confirmation/callback-receipts';
import { defaultDataDir } from './core/data-dir';
import { DEFAULT_TIMEOUT_MS, GatewayClient, type GatewayConfig } from './core/gateway/client';
import { OrderLog } from './core/orders/order-log';
import { OrderService } from './core/payments/order-service';
import { catchUpSales } from './core/counter/catch-up';
import { systemClock, type Clock, type SecretStore } from './core/ports';
import { SettingsStore } from './core/settings/settings-store';
import { AccessControl } from './core/staff/access';
import { DatabaseProblem, makePrivateDir, openDatabase, openDatabaseReadOnly, type Database } from './db/open';
import { describeThisProcess, lockDataFolder, type FolderLock } from './db/folder-lock';
import { BACKUP_FOLDER, Backups } from './core/backup/backups';
import { logFileCheck } from './core/payments/log-file';
import { DEFAULT_MIN_FREE_BYTES, diskSpaceCheck } from './core/payments/disk-space';
import { EnvSecretStore, MemorySecretStore } from './adapters/env-secret-store';
import { KeychainSecretStore } from './adapters/keychain-secret-store';
import { OverrideSecretStore } from './adapters/override-secret-store';
import { reason, type Reason } from './common/reasons';
import {
  liveCredentialsProblem as credentialsProblem,
  type CredentialsProblem,
} from './core/settings/live-credentials';
import { SANDBOX_DEFAULTS, startSandbox, type SandboxHandle } from './sandbox/server';
import { enrolledStoreCode } from './store-book/local-book';

/**
 * The store's own books (`loket.db` in the data folder): its settings, staff, audit log, and — in live
 * mode — its orders. Opened once by a host and kept open while the order runtime below is rebuilt (a
 * switch between training and live), so the manager's screens never lose their footing.
 */
export interface StoreBooks {
  readonly dataDir: string;
  /**
   * True: this process holds the data folder (its lock) and may change the books; false: opened read-only, beside
   * whichever process holds it (docs/cli.md, "Who writes the data folder").
   */
  readonly writable: boolean;
  readonly db: Database;
  readonly settings: SettingsStore;
  readonly audit: AuditLog;
  readonly access: AccessControl;
  /** Where a configured gateway's appkey and signing secret live: LOKET_APP_KEY, else the OS keychain. */
  readonly secrets: SecretStore;
  close(): void;
}

export function openStoreBooks(
  options: {
    env?: NodeJS.ProcessEnv;
    dataDir?: string;
    clock?: Clock;
    secrets?: SecretStore;
    /**
     * Read only: opened read-only, without the data folder's lock, beside whichever process holds it. By default the
     * books are opened to be written: the folder's lock is taken, or FolderBusyError says who holds it.
     */
    readOnly?: boolean;
    /** This process in the words a refused second writer is shown (by default from its command line). */
    holder?: string;
  } = {},
): StoreBooks {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const dataDir = options.dataDir ?? defaultDataDir(env);
  const writable = options.readOnly !== true;
  const path = join(dataDir, 'loket.db');
  let lock: FolderLock | undefined;
  let db: Database;
  if (writable) {
    makePrivateDir(dataDir);
    lock = lockDataFolder(dataDir, {
      command: options.holder ?? describeThisProcess(),
      since: clock.now().toISOString(),
    });
    try {
      refuseEmptyOverBackups(path, new Backups(dataDir, clock));
      db = openDatabase(path);
    } catch (err) {
      lock.release();
      throw err;
    }
  } else {
    refuseEmptyOverBackups(path, new Backups(dataDir, clock));
    db = openDatabaseReadOnly(path);
  }
  const close = () => {
    db.close();
    lock?.release();
  };
  try {
    const settings = new SettingsStore(db, clock);
    const audit = new AuditLog(db, clock);
    const access = new AccessControl(db, {
      clock,
      audit,
      idleMs: settings.load().access.managerIdleMinutes * 60_000,
    });
    return {
      dataDir,
      writable,
      db,
      settings,
      audit,
      access,
      secrets: options.secrets ?? new OverrideSecretStore(new KeychainSecretStore(), env),
      close,
    };
  } catch (err) {
    close();
    throw err;
  }
}

/**
 * A missing or empty order log while backups exist is not a new till: it is a lost file. Refused, with the
 * newest backup named, rather than silently started from nothing.
 */
function refuseEmptyOverBackups(path: string, backups: Backups): void {
  const missing = !existsSync(path);
  if (!missing && statSync(path).size > 0) return;
  const newest = backups.newest();
  if (!newest) return;
  throw new DatabaseProblem(
    missing ? 'missing' : 'empty',
    path,
    `the order log ${path} is ${missing ? 'missing' : 'empty (0 bytes)'}, but backups exist: Loket will not start ` +
      `a new, empty log over them. Restore the newest one: npm run cli -- restore ${newest.path} (taken ${newest.at}).`,
  );
}

/**
 * The order runtime shared by the CLI, browser mode and the desktop shell: opens the order log, turns
 * interrupted orders into `unknown`, and picks the gateway — the environment's (LOKET_GATEWAY_URL), else the
 * configured one when the settings say live, else an embedded sandbox (training mode).
 */
export interface Loket {
  readonly dataDir: string;
  /** The order log's database: the store's own in live mode, `training/loket.db` in training mode. */
  readonly db: Database;
  readonly store: StoreBooks;
  readonly log: OrderLog;
  /** Callback receipts, on the order log's connection (so a receipt commits with its change). */
  readonly receipts: CallbackReceipts;
  readonly orders: OrderService;
  readonly client: GatewayClient;
  readonly settings: LoketSettings;
  /** The payment methods in effect: the store's own list (settings), else the bundled catalogue. */
  readonly methods: PaymentMethod[];
  /** LOKET_TERMINAL_ID, else the settings': the prefix of every merchant_transaction_id. */
  readonly terminalId: string;
  readonly training: boolean;
  /** Why Loket runs in training mode although the settings say live (the app only; the CLI fails instead). */
  readonly notice?: string;
  /** The same, for a screen to word in its language. */
  readonly noticeReason?: Reason;
  /** Orders that were `creating` when Loket last stopped, now `unknown`. */
  readonly interrupted: string[];
  readonly sandbox?: SandboxHandle;
  readonly gatewayDescription: string;
  /** The key that signs requests and callbacks (appkey or signing secret): for the callback listener only. */
  signingKey(): Promise<string>;
  /** A manager changed the payment methods: the one list the client, the sandbox and the screens read. */
  setMethods(methods: readonly PaymentMethod[]): void;
  /** A manager changed the terminal id (LOKET_TERMINAL_ID, when set, still wins). */
  setTerminalId(terminalId: string): void;
  close(): Promise<void>;
}

export interface OpenOptions {
  env?: NodeJS.ProcessEnv;
  dataDir?: string;
  clock?: Clock;
  /** The SecretStore for a configured gateway; by default LOKET_APP_KEY, else the OS keychain. */
  secrets?: SecretStore;
  /** Passed to an embedded sandbox. */
  sandboxLog?: (line: string) => void;
  /**
   * Training mode on the LAN (browser mode's --lan): the embedded sandbox listens there too, and the URLs it
   * hands out (payment page, QR image) name this host, so a customer's phone on the same network opens them.
   */
  sandboxLan?: { publicHost: string };
  /** The store's books, already open (a host keeps them across mode switches); opened and closed here if not. */
  store?: StoreBooks;
  /**
   * When the settings say live but the credentials cannot be read (no keychain, a locked one, no appkey):
   * `fail` throws LiveUnavailableError (the CLI exits with its message); `training` carries on in training
   * mode with a notice (the app). Never a fallback to a key written anywhere in clear.
   */
  whenLiveUnavailable?: 'fail' | 'training';
  /** Run in training mode whatever the settings say, with this notice (a live start that failed). */
  forceTraining?: string;
}

/** Live mode is set, but its credentials cannot be used: the message says why and what to do. */
export class LiveUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LiveUnavailableError';
  }
}

export async function openLoket(options: OpenOptions = {}): Promise<Loket> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const ownStore = options.store === undefined;
  const store =
    options.store ??
    openStoreBooks({
      env,
      clock,
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
    });
  // Sending orders and the start-up work on interrupted ones are for the process that holds the data folder.
  if (!store.writable) throw new Error('openLoket: the store must be opened to be written (it holds the data folder)');
  const dataDir = store.dataDir;
  let db: Database | undefined;
  let sandbox: SandboxHandle | undefined;
  try {
    const settings = store.settings.load();
    const methods = settings.paymentMethods ?? loadPaymentCatalogue(env.LOKET_CATALOGUE);

    let config: GatewayConfig | undefined;
    let secrets: SecretStore | undefined;
    let description = '';
    let notice: string | undefined;
    let noticeReason: Reason | undefined;
    if (env.LOKET_GATEWAY_URL) {
      if (!env.LOKET_APP_ID) throw new Error('LOKET_APP_ID: is required when LOKET_GATEWAY_URL is set');
      const transport = gatewayTransportProblem({
        baseUrl: env.LOKET_GATEWAY_URL,
        allowHttp: env.LOKET_ALLOW_HTTP === '1',
      });
      if (transport)
        throw new Error(
          `LOKET_GATEWAY_URL: ${transport.replace(/^gateway\.baseUrl: /, '').replace('(gateway.allowHttp)', '(LOKET_ALLOW_HTTP=1)')}`,
        );
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
    } else if (options.forceTraining) {
      notice = options.forceTraining;
      noticeReason = reason('live.start_failed');
    } else if (settings.mode === 'live' && settings.gateway) {
      const transport = gatewayTransportProblem(settings.gateway);
      const problem = transport
        ? {
            message: `${transport.replace(/^gateway\.baseUrl: /, '')}: in the manager's settings (Gateway) or with npm run cli -- config set-gateway.`,
            reason: reason('live.plain_http'),
          }
        : await liveCredentialsProblem(store.secrets, settings.gateway.signing.key);
      if (problem === undefined) {
        config = { ...settings.gateway };
        secrets = store.secrets;
        description = `${config.baseUrl} (from settings)`;
      } else if (options.whenLiveUnavailable === 'training') {
        notice = `Live mode is set, but ${problem.message} Loket runs in training mode until then.`;
        noticeReason = problem.reason;
      } else {
        throw new LiveUnavailableError(`live mode is set, but ${problem.message}`);
      }
    }
    if (!config || !secrets) {
      sandbox = await startSandbox({
        port: 0,
        methods,
        ...(options.sandboxLog ? { log: options.sandboxLog } : {}),
        ...(options.sandboxLan
          ? { host: '0.0.0.0', publicHost: options.sandboxLan.publicHost, controlFrom: 'loopback' as const }
          : {}),
      });
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

    const training = sandbox !== undefined;
    // Training mode never writes into the store's books: its orders go to training/loket.db.
    const orderDb = training ? openDatabase(join(dataDir, 'training', 'loket.db')) : store.db;
    db = orderDb;
    const log = new OrderLog(orderDb, clock);
    const receipts = new CallbackReceipts(orderDb, clock);
    // Only the process holding the data folder gets here (openStoreBooks took its lock): a `creating` order is one
    // that process left behind, never one another process has in flight.
    const interrupted = log.markInterrupted({ reason: 'Loket stopped while the request was in flight' });
    // Sales whose order settled before their sale knew (a log of a Loket from before the counter): caught up now.
    catchUpSales(log);

    const client = new GatewayClient(config, secrets, methods);
    const terminalId = env.LOKET_TERMINAL_ID ?? settings.terminalId;
    const minFreeMb = Number(env.LOKET_MIN_FREE_MB);
    // Enrolled in a store book: order ids carry the store's code, so they stay unique across a chain.
    const storeCode = enrolledStoreCode(store.db);
    const orders = new OrderService(log, client, clock, {
      terminalId,
      ...(storeCode ? { storeCode } : {}),
      training,
      diskCheck: diskSpaceCheck(
        dataDir,
        Number.isFinite(minFreeMb) && minFreeMb >= 0 && env.LOKET_MIN_FREE_MB !== undefined
          ? minFreeMb * 1024 * 1024
          : DEFAULT_MIN_FREE_BYTES,
      ),
      // A deleted or replaced log: refused, and in live mode what it held is saved among the backups.
      logCheck: logFileCheck(orderDb, { clock, ...(training ? {} : { rescueDir: join(dataDir, BACKUP_FOLDER) }) }),
      gatewayTimeZone: settings.gateway?.timeZone ?? DEFAULT_GATEWAY_TIME_ZONE,
      fallbackTtlSeconds: settings.fallbackTtlSeconds,
    });
    const signingStore = secrets;
    const signingProfile = config.signing;
    let currentTerminal = terminalId;
    return {
      dataDir,
      db: orderDb,
      store,
      log,
      receipts,
      orders,
      client,
      settings,
      methods,
      get terminalId() {
        return currentTerminal;
      },
      training,
      ...(notice ? { notice } : {}),
      ...(noticeReason ? { noticeReason } : {}),
      interrupted,
      ...(sandbox ? { sandbox } : {}),
      gatewayDescription: description,
      signingKey: async () => {
        const appKey = await signingStore.get('appkey');
        if (!appKey) throw new Error(`no appkey is stored in ${signingStore.description}`);
        if (signingProfile.key === 'appkey') return appKey;
        const secret = await signingStore.get('signing-secret');
        // Never an empty key: a listener verifying with '' would accept anyone's "signed" callback.
        if (!secret)
          throw new Error(
            `the signing profile needs a signing secret, and none is stored in ${signingStore.description}`,
          );
        return secret;
      },
      // In place: the gateway client, the embedded sandbox and the screens hold this one array.
      setMethods: (next) => void methods.splice(0, methods.length, ...next),
      setTerminalId: (next) => {
        if (env.LOKET_TERMINAL_ID) return;
        currentTerminal = next;
        orders.setTerminalId(next);
      },
      close: async () => {
        await sandbox?.close();
        if (orderDb !== store.db) orderDb.close();
        if (ownStore) store.close();
      },
    };
  } catch (err) {
    await sandbox?.close();
    if (db && db !== store.db) db.close();
    if (ownStore) store.close();
    throw err;
  }
}

/**
 * Why the configured gateway's credentials cannot be used (core/settings/live-credentials.ts, the one rule of going
 * live), with the OS keychain's own probe where the store reads from it; undefined when they can be used.
 */
export async function liveCredentialsProblem(
  secrets: SecretStore,
  signWith: 'appkey' | 'secret',
): Promise<CredentialsProblem | undefined> {
  const keychain = secrets instanceof OverrideSecretStore ? secrets.keychainStore : undefined;
  const probe = keychain instanceof KeychainSecretStore ? () => keychain.probe() : undefined;
  return credentialsProblem(secrets, signWith, probe);
}
