import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ConnectionReport, KeychainStatus, ModeStatus, SecretName, SecretStatus } from '../common/manager';
import { formatRupiah } from '../common/money';
import type { PaymentMethod } from '../common/payment-methods';
import type { LoketMode, LoketSettings, SettingsIssue } from '../common/settings';
import { KeychainSecretStore, KeychainUnavailableError, secretStatus } from '../adapters/keychain-secret-store';
import { OverrideSecretStore, SECRET_OVERRIDES } from '../adapters/override-secret-store';
import { loadPaymentCatalogue } from '../core/catalogue';
import { testConnection } from '../core/gateway/probe';
import { OrderLog } from '../core/orders/order-log';
import type { SecretStore } from '../core/ports';
import { importMethods } from '../core/settings/method-import';
import { saveSettingsChange, type SettingsChangeAction } from '../core/settings/save-change';
import {
  changeSection,
  modeSwitch,
  replaceMethods,
  resetMethods,
  toggleMethod,
  type ChangeResult,
  type FieldChange,
  type SettingsSection,
} from '../core/settings/settings-changes';
import { openDatabase, openDatabaseReadOnly } from '../db/open';
import { liveCredentialsProblem, type StoreBooks } from '../runtime';
import { cliUser, defaultIo, printIssues, readStore, withStore, type Io, type StoreOptions } from './cli-support';
import { EXIT, UsageError } from './exit-codes';
import { ask, onTerminal, readSecret, secretsFromStdin } from './secret-input';
import { runSetTaxCommand, SET_TAX_USAGE } from './tax-commands';

export const CONFIG_USAGE = `Settings (the store's books: loket.db in the data folder, LOKET_DATA_DIR else the OS's app-data folder).
The appkey and the signing secret live in the OS keychain; LOKET_APP_KEY / LOKET_SIGNING_SECRET, when set,
override it. A secret is never taken from the command line: standard input, or a hidden prompt on a terminal.

  config show [--json]                 every setting, where each secret comes from (never its value), the
                                       mode and what would run, the keychain's state
  config set-gateway [--url URL] [--app-id ID] [--signing appkey|secret] [--encoding hex|base64]
                     [--inquiry-path P|none] [--timeout-ms N] [--time-zone Z] [--allow-http on|off]
                     [--app-key-stdin] [--signing-secret-stdin]
                                       --url and --app-id the first time; with both -stdin flags, the
                                       appkey is line 1 of standard input and the signing secret line 2;
                                       --allow-http on: live mode over a plain http:// address (answers are
                                       unsigned: anyone on the way could change them), off by default
  config set-secret appkey|signing-secret [--stdin]
  config clear-secret appkey|signing-secret
  config test [--json]                 test the configured gateway with the stored credentials
  config set-store [--name N] [--address A] [--terminal-id T] [--time-zone Z]
                   [--receipt-header H] [--receipt-footer F] [--lang id|en]
  config set-printer [--kind none|network|system] [--host H] [--port N] [--paper 58|80] [--system-name N]
  config set-display [--idle-message M] [--lang id|en]
  config set-access [--require-cashier-pin on|off] [--manager-idle-minutes N]
  config set-backup --copy-to FOLDER|none      a second folder every backup is copied to (a USB disk)
${SET_TAX_USAGE}  config methods list [--json]
  config methods enable ID | disable ID
  config methods import FILE [--format json|csv]    (default: from the file's extension)
  config methods reset                 back to the bundled catalogue
  config training on                   training mode: the embedded sandbox, orders marked SANDBOX
  config training off --confirm-gateway URL
                                       live mode: orders go to the configured gateway (on a terminal,
                                       without the flag, type the gateway's base URL when asked)

Exit codes: 0 ok, 1 unexpected error, 2 invalid input or refused (nothing changed), 3 the gateway refused
the credentials (config test), 4 the gateway could not be reached or confirm them (config test),
5 the OS keychain cannot be used, or live mode's secrets are not in it (nothing changed),
7 a change (or config test) while the app or serve runs on the data folder: make it there, or stop it first.
`;

const SECRET_NAMES: readonly SecretName[] = ['appkey', 'signing-secret'];
const SECRET_WORDS: Record<SecretName, string> = { appkey: 'appkey', 'signing-secret': 'signing secret' };

/** The flag that sets each settings field, named after the field's rule in a refusal. */
const FLAGS: Record<string, string> = {
  'gateway.baseUrl': '--url',
  'gateway.appId': '--app-id',
  'gateway.signing.key': '--signing',
  'gateway.signing.encoding': '--encoding',
  'gateway.inquiryPath': '--inquiry-path',
  'gateway.timeoutMs': '--timeout-ms',
  'gateway.timeZone': '--time-zone',
  'gateway.allowHttp': '--allow-http',
  storeName: '--name',
  storeAddress: '--address',
  terminalId: '--terminal-id',
  timeZone: '--time-zone',
  receiptHeader: '--receipt-header',
  receiptFooter: '--receipt-footer',
  lang: '--lang',
  'printer.kind': '--kind',
  'printer.host': '--host',
  'printer.port': '--port',
  'printer.paper': '--paper',
  'printer.systemName': '--system-name',
  'display.idleMessage': '--idle-message',
  'display.lang': '--lang',
  'access.requireCashierPin': '--require-cashier-pin',
  'access.managerIdleMinutes': '--manager-idle-minutes',
  confirm: '--confirm-gateway',
};

export async function runConfigCommand(
  argv: string[],
  options: StoreOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const [sub, ...rest] = argv;
  const env = options.env ?? process.env;
  switch (sub) {
    case 'show':
      return show(rest, options, env, io);
    case 'set-gateway':
      return setGateway(rest, options, io);
    case 'set-secret':
      return setSecret(rest, options, io);
    case 'clear-secret':
      return clearSecret(rest, options, io);
    case 'test':
      return test(rest, options, io);
    case 'set-store':
    case 'set-printer':
    case 'set-display':
    case 'set-access':
    case 'set-backup':
      return setSection(sub, rest, options, io);
    case 'set-tax':
      return runSetTaxCommand(rest, options, io);
    case 'methods':
      return methods(rest, options, env, io);
    case 'training':
      return training(rest, options, env, io);
    default:
      throw new UsageError(
        `config: unknown subcommand ${JSON.stringify(sub ?? '')}; use show, set-gateway, set-secret, clear-secret, ` +
          'test, set-store, set-printer, set-display, set-access, set-backup, set-tax, methods or training',
      );
  }
}

// ---------------------------------------------------------------- the keychain and the secrets

function keychainOf(store: StoreBooks): SecretStore {
  return store.secrets instanceof OverrideSecretStore ? store.secrets.keychainStore : store.secrets;
}

async function keychainStatus(store: StoreBooks): Promise<KeychainStatus> {
  const keychain = keychainOf(store);
  if (!(keychain instanceof KeychainSecretStore)) return { available: true };
  const probe = await keychain.probe();
  return probe.available ? { available: true } : { available: false, message: probe.message };
}

/** A secret's state: the one in effect (the environment's, else the keychain's) and the keychain's own. */
interface SecretReport extends SecretStatus {
  /** What the keychain holds; null when it cannot be read. */
  keychain: { set: boolean; last4?: string } | null;
}

async function secretReport(store: StoreBooks, name: SecretName, keychainUsable: boolean): Promise<SecretReport> {
  const fromEnv = store.secrets instanceof OverrideSecretStore && store.secrets.overridden(name);
  // Overridden: the store answers with the environment's value, without asking the keychain.
  const envStatus = fromEnv ? secretStatus(await store.secrets.get(name)) : undefined;
  let inKeychain: { set: boolean; last4?: string } | null = null;
  if (keychainUsable) {
    try {
      inKeychain = secretStatus(await keychainOf(store).get(name));
    } catch (err) {
      if (!(err instanceof KeychainUnavailableError)) throw err;
    }
  }
  const effective = envStatus ?? inKeychain ?? { set: false };
  const from: SecretStatus['from'] = envStatus ? 'environment' : inKeychain?.set ? 'keychain' : 'none';
  return { ...effective, from, keychain: inKeychain };
}

/** "set (…abcd)", "set" (too short to show any of it) or "not set": never more of a secret. */
function shown(status: { set: boolean; last4?: string }): string {
  return status.set ? (status.last4 ? `set (…${status.last4})` : 'set') : 'not set';
}

function keychainFailure(io: Io, err: KeychainUnavailableError): number {
  io.err(`the OS keychain cannot be used: ${err.message}\nNothing was changed.\n`);
  return EXIT.KEYCHAIN;
}

/** Where a secret written now is read from, and whether the environment overrides it here. */
function overrideNote(store: StoreBooks, name: SecretName): string {
  return store.secrets instanceof OverrideSecretStore && store.secrets.overridden(name)
    ? `note: ${SECRET_OVERRIDES[name]} is set in this environment and overrides the keychain's ${SECRET_WORDS[name]} here\n`
    : '';
}

// ---------------------------------------------------------------- orders open, the mode

/** Orders creating, awaiting payment or unknown in the order log `mode` uses (live: loket.db; training: training/loket.db). */
function openOrderCount(store: StoreBooks, mode: LoketMode): number {
  if (mode === 'live') return new OrderLog(store.db).countOpen();
  const path = join(store.dataDir, 'training', 'loket.db');
  if (!existsSync(path)) return 0;
  const db = store.writable ? openDatabase(path) : openDatabaseReadOnly(path);
  try {
    return new OrderLog(db).countOpen();
  } finally {
    db.close();
  }
}

/** As ManagerService refuses a live gateway or credential change while orders are open. */
function openOrdersRefusal(store: StoreBooks, settings: LoketSettings, what: string): string | undefined {
  if (settings.mode !== 'live') return undefined;
  const open = openOrderCount(store, 'live');
  if (open === 0) return undefined;
  return (
    `${open} order(s) are still creating, awaiting payment or unknown: settle or cancel them before you ${what} ` +
    '(nothing was changed)'
  );
}

async function modeStatus(store: StoreBooks, settings: LoketSettings, env: NodeJS.ProcessEnv): Promise<ModeStatus> {
  if (env.LOKET_GATEWAY_URL)
    return {
      setting: settings.mode,
      running: 'live',
      gateway: `${maskedUrl(env.LOKET_GATEWAY_URL)} (from the environment: LOKET_GATEWAY_URL overrides the settings)`,
    };
  const sandbox = 'an embedded sandbox (training mode: every order is marked SANDBOX, kept in training/loket.db)';
  if (settings.mode === 'live' && settings.gateway) {
    const problem = await liveCredentialsProblem(store.secrets, settings.gateway.signing.key);
    if (problem === undefined)
      return { setting: 'live', running: 'live', gateway: `${settings.gateway.baseUrl} (from settings)` };
    return {
      setting: 'live',
      running: 'sandbox',
      gateway: sandbox,
      notice:
        `Live mode is set, but ${problem.message.replace(/\.$/, '')}. Until then the CLI refuses to send orders (exit 5), and the app runs ` +
        'in training mode with this notice.',
    };
  }
  return { setting: settings.mode, running: 'sandbox', gateway: sandbox };
}

/** An address from the environment, shown without a user name, password or query values (a relay may carry a token). */
function maskedUrl(url: string): string {
  return url.replace(/\/\/[^/?#]*@/, '//***@').replace(/([?&][^=&#]*)=[^&#]*/g, '$1=***');
}

function bundledMethods(env: NodeJS.ProcessEnv): PaymentMethod[] {
  return loadPaymentCatalogue(env.LOKET_CATALOGUE);
}

// ---------------------------------------------------------------- config show

async function show(argv: string[], options: StoreOptions, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values } = parseArgs({ args: argv, strict: true, options: { json: { type: 'boolean' } } });
  return readStore(options, async (store) => {
    const settings = store.settings.load();
    const keychain = await keychainStatus(store);
    const secrets = {} as Record<SecretName, SecretReport>;
    for (const name of SECRET_NAMES) secrets[name] = await secretReport(store, name, keychain.available);
    const mode = await modeStatus(store, settings, env);
    const openOrders = openOrderCount(store, settings.mode);
    const methods = settings.paymentMethods ?? bundledMethods(env);
    const methodsSource = settings.paymentMethods ? 'store' : 'bundled';
    const staff = store.access.staff.list();
    const overrides = Object.fromEntries(
      ['LOKET_GATEWAY_URL', 'LOKET_APP_ID', 'LOKET_TERMINAL_ID', 'LOKET_CATALOGUE']
        .filter((name) => env[name])
        .map((name) => [name, name === 'LOKET_GATEWAY_URL' ? maskedUrl(env[name]!) : env[name]]),
    );
    if (values.json) {
      io.out(
        JSON.stringify(
          {
            dataDir: store.dataDir,
            settings,
            mode,
            openOrders,
            secrets,
            keychain,
            methodsSource,
            staff: { active: staff.length, managers: staff.filter((s) => s.role === 'manager').length },
            environment: overrides,
          },
          null,
          2,
        ) + '\n',
      );
      return EXIT.OK;
    }
    const lines: string[] = [];
    const row = (label: string, value: string) => lines.push(`  ${`${label}:`.padEnd(20)}${value}`);
    const text = (value: string | undefined) => (value ? JSON.stringify(value) : '(none)');

    lines.push(`Loket settings (data folder ${store.dataDir})`, '', 'Mode');
    row('setting', settings.mode);
    row('orders go to', mode.gateway);
    if (mode.notice) row('notice', mode.notice);
    row('open orders', `${openOrders} (creating, awaiting payment or unknown, in ${settings.mode} mode)`);

    lines.push('', 'Store');
    row('name', text(settings.storeName));
    row('address', text(settings.storeAddress));
    row(
      'terminal id',
      settings.terminalId +
        (env.LOKET_TERMINAL_ID ? `  (LOKET_TERMINAL_ID=${env.LOKET_TERMINAL_ID} overrides it)` : ''),
    );
    row('time zone', settings.timeZone);
    row('receipt header', text(settings.receiptHeader));
    row('receipt footer', text(settings.receiptFooter));
    row('language', settings.lang);

    lines.push('', 'Gateway');
    const g = settings.gateway;
    if (!g) {
      lines.push('  none configured: npm run cli -- config set-gateway --url URL --app-id ID --app-key-stdin');
    } else {
      row('base URL', g.baseUrl);
      row('appid', g.appId);
      row(
        'signing',
        `with ${g.signing.key === 'appkey' ? 'the appkey' : 'a separate signing secret'}, ${g.signing.encoding}`,
      );
      row('status inquiry', g.inquiryPath ?? 'none');
      row('timeout', `${g.timeoutMs} ms`);
      row('time zone', g.timeZone);
      if (/^http:/i.test(g.baseUrl))
        row('plain http in live', g.allowHttp ? 'allowed on purpose (answers are unsigned)' : 'refused (https needed)');
      const l = settings.callbackListener;
      row(
        'callback listener',
        l ? `${l.host}:${l.port}${l.path}${l.publicUrl ? ` (the gateway calls ${l.publicUrl})` : ''}` : 'none',
      );
    }

    lines.push('', 'Secrets (LOKET_APP_KEY and LOKET_SIGNING_SECRET, when set, override the keychain)');
    for (const name of SECRET_NAMES) {
      const s = secrets[name];
      const inKeychain = s.keychain === null ? 'cannot be read (see Keychain)' : shown(s.keychain);
      row(
        SECRET_WORDS[name],
        s.from === 'environment'
          ? `${shown(s)}, from ${SECRET_OVERRIDES[name]} (overrides the keychain, which holds: ${inKeychain})`
          : s.keychain === null
            ? `unknown: the keychain cannot be read (see Keychain)`
            : s.set
              ? `${shown(s)}, in ${keychainOf(store).description}`
              : 'not set',
      );
    }

    lines.push('', 'Keychain');
    lines.push(
      keychain.available ? `  available: ${keychainOf(store).description}` : `  cannot be used: ${keychain.message}`,
    );

    lines.push('', 'Printer');
    const p = settings.printer;
    row(
      'kind',
      p.kind === 'network'
        ? `network, ${p.host}:${p.port}`
        : p.kind === 'system'
          ? `system (${p.systemName ?? 'the default printer'})`
          : 'none (receipts print from the screen)',
    );
    row('paper', `${p.paper} mm`);

    lines.push('', 'Customer display');
    row('idle message', text(settings.display.idleMessage));
    row('language', settings.display.lang);

    lines.push('', 'Access');
    row('cashier PIN', settings.access.requireCashierPin ? 'required to sign in' : 'not required');
    row('manager idle lock', `${settings.access.managerIdleMinutes} min`);
    row(
      'staff',
      `${staff.length} active, ${staff.filter((s) => s.role === 'manager').length} manager(s) (npm run cli -- staff list)`,
    );

    lines.push('', 'Payment methods');
    row(
      'list',
      `${methodsSource === 'store' ? "the store's own" : 'the bundled catalogue'}: ` +
        `${methods.filter((m) => m.enabled).length} of ${methods.length} enabled (npm run cli -- config methods list)`,
    );
    if (Object.keys(overrides).length) {
      lines.push('', 'From the environment (they override the settings for this command)');
      for (const [name, value] of Object.entries(overrides)) row(name, String(value));
    }
    io.out(lines.join('\n') + '\n');
    return EXIT.OK;
  });
}

// ---------------------------------------------------------------- changes, saved and audited

/** Several sections' changes in a row (set-store's --lang is the language section), as one change. */
function combine(current: LoketSettings, steps: [SettingsSection, Record<string, unknown>][]): ChangeResult {
  let next = current;
  const changed: FieldChange[] = [];
  const issues: SettingsIssue[] = [];
  for (const [section, patch] of steps) {
    const result = changeSection(next, section, patch);
    if (!result.ok) issues.push(...result.issues);
    else {
      next = result.next;
      changed.push(...result.changed);
    }
  }
  return issues.length ? { ok: false, issues } : { ok: true, next, changed };
}

function printChanges(io: Io, changed: readonly FieldChange[]): void {
  if (changed.length === 0) {
    io.out('nothing changed: the settings already say so\n');
    return;
  }
  for (const c of changed) io.out(`  ${c.field}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}\n`);
}

/** A whole number as a number; anything else as the text, so that the field's own rule refuses it by name. */
function numberOrText(text: string): number | string {
  return /^\d{1,15}$/.test(text) ? Number(text) : text;
}

function onOff(flag: string, text: string): boolean {
  const word = text.toLowerCase();
  if (['on', 'true', 'yes'].includes(word)) return true;
  if (['off', 'false', 'no'].includes(word)) return false;
  throw new UsageError(`${flag}: on or off (got ${JSON.stringify(text)})`);
}

const SECTION_OPTIONS = {
  'set-store': {
    name: { type: 'string' },
    address: { type: 'string' },
    'terminal-id': { type: 'string' },
    'time-zone': { type: 'string' },
    'receipt-header': { type: 'string' },
    'receipt-footer': { type: 'string' },
    lang: { type: 'string' },
  },
  'set-printer': {
    kind: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    paper: { type: 'string' },
    'system-name': { type: 'string' },
  },
  'set-display': { 'idle-message': { type: 'string' }, lang: { type: 'string' } },
  'set-access': { 'require-cashier-pin': { type: 'string' }, 'manager-idle-minutes': { type: 'string' } },
  'set-backup': { 'copy-to': { type: 'string' } },
} as const;

async function setSection(
  command: keyof typeof SECTION_OPTIONS,
  argv: string[],
  options: StoreOptions,
  io: Io,
): Promise<number> {
  const { values } = parseArgs({ args: argv, strict: true, options: SECTION_OPTIONS[command] });
  const v = values as Record<string, string | undefined>;
  const pick = (map: Record<string, string>, convert: (key: string, text: string) => unknown = (_k, t) => t) =>
    Object.fromEntries(
      Object.entries(map)
        .filter(([flag]) => v[flag] !== undefined)
        .map(([flag, field]) => [field, convert(flag, v[flag]!)]),
    );
  let steps: [SettingsSection, Record<string, unknown>][];
  switch (command) {
    case 'set-store':
      steps = [
        [
          'store',
          pick({
            name: 'storeName',
            address: 'storeAddress',
            'terminal-id': 'terminalId',
            'time-zone': 'timeZone',
            'receipt-header': 'receiptHeader',
            'receipt-footer': 'receiptFooter',
          }),
        ],
        ['language', pick({ lang: 'lang' })],
      ];
      break;
    case 'set-printer':
      steps = [
        [
          'printer',
          pick({ kind: 'kind', host: 'host', port: 'port', paper: 'paper', 'system-name': 'systemName' }, (flag, t) =>
            flag === 'port' || flag === 'paper' ? numberOrText(t) : t,
          ),
        ],
      ];
      break;
    case 'set-display':
      steps = [['display', pick({ 'idle-message': 'idleMessage', lang: 'lang' })]];
      break;
    case 'set-backup':
      steps = [['backup', pick({ 'copy-to': 'copyTo' }, (_f, t) => (t === 'none' || t === '' ? null : t))]];
      break;
    case 'set-access':
      steps = [
        [
          'access',
          pick(
            { 'require-cashier-pin': 'requireCashierPin', 'manager-idle-minutes': 'managerIdleMinutes' },
            (flag, t) => (flag === 'require-cashier-pin' ? onOff(`--${flag}`, t) : numberOrText(t)),
          ),
        ],
      ];
      break;
  }
  steps = steps.filter(([, patch]) => Object.keys(patch).length > 0);
  if (steps.length === 0)
    throw new UsageError(
      `config ${command}: nothing to change; give at least one of ${Object.keys(SECTION_OPTIONS[command])
        .map((f) => `--${f}`)
        .join(', ')}`,
    );
  return withStore(options, async (store) => {
    const result = combine(store.settings.load(), steps);
    if (!result.ok) {
      printIssues(io, result.issues, FLAGS);
      io.err('Nothing was changed.\n');
      return EXIT.INVALID_INPUT;
    }
    saveSettingsChange(store, cliUser(), result);
    printChanges(io, result.changed);
    return EXIT.OK;
  });
}

// ---------------------------------------------------------------- the gateway and its secrets

async function setGateway(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      'app-id': { type: 'string' },
      signing: { type: 'string' },
      encoding: { type: 'string' },
      'inquiry-path': { type: 'string' },
      'timeout-ms': { type: 'string' },
      'time-zone': { type: 'string' },
      'allow-http': { type: 'string' },
      'app-key-stdin': { type: 'boolean' },
      'signing-secret-stdin': { type: 'boolean' },
    },
  });
  const patch: Record<string, unknown> = {};
  if (values.url !== undefined) patch.baseUrl = values.url;
  if (values['app-id'] !== undefined) patch.appId = values['app-id'];
  if (values.signing !== undefined || values.encoding !== undefined)
    patch.signing = {
      ...(values.signing !== undefined ? { key: values.signing } : {}),
      ...(values.encoding !== undefined ? { encoding: values.encoding } : {}),
    };
  if (values['inquiry-path'] !== undefined)
    patch.inquiryPath = values['inquiry-path'] === 'none' ? null : values['inquiry-path'];
  if (values['timeout-ms'] !== undefined) patch.timeoutMs = numberOrText(values['timeout-ms']);
  if (values['time-zone'] !== undefined) patch.timeZone = values['time-zone'];
  if (values['allow-http'] !== undefined) patch.allowHttp = onOff('--allow-http', values['allow-http']);
  const stdinNames: SecretName[] = [
    ...(values['app-key-stdin'] ? (['appkey'] as const) : []),
    ...(values['signing-secret-stdin'] ? (['signing-secret'] as const) : []),
  ];
  if (Object.keys(patch).length === 0 && stdinNames.length === 0 && !onTerminal())
    throw new UsageError(
      'config set-gateway: nothing to change; give --url and --app-id (the first time), or the fields to change ' +
        '(a secret alone: config set-secret)',
    );

  return withStore(options, async (store) => {
    const current = store.settings.load();
    const result = changeSection(current, 'gateway', patch);
    if (!result.ok) {
      printIssues(io, result.issues, FLAGS);
      io.err('Nothing was changed.\n');
      return EXIT.INVALID_INPUT;
    }
    const gateway = result.next.gateway!;

    // The secrets: from standard input, or asked for on a terminal (Enter keeps the one stored).
    const given: [SecretName, string][] = [];
    if (!onTerminal()) {
      const values = stdinNames.length ? await secretsFromStdin(stdinNames.map((n) => SECRET_WORDS[n])) : [];
      stdinNames.forEach((name, i) => given.push([name, values[i]!]));
    } else {
      const wanted = SECRET_NAMES.filter(
        (name) => name === 'appkey' || stdinNames.includes(name) || gateway.signing.key === 'secret',
      );
      const keychain = await keychainStatus(store);
      if (!keychain.available) {
        io.err(`the OS keychain cannot be used: ${keychain.message}\nNothing was changed.\n`);
        return EXIT.KEYCHAIN;
      }
      for (const name of wanted) {
        const stored = (await secretReport(store, name, true)).keychain?.set ?? false;
        const value = await ask(
          `${name === 'appkey' ? 'Appkey' : 'Signing secret'} (typing is not shown${stored ? '; Enter keeps the stored one' : ''}): `,
          { hidden: true },
        );
        if (value !== '') given.push([name, value]);
      }
    }
    const refused =
      result.changed.length > 0 || given.length > 0
        ? openOrdersRefusal(store, current, 'change the gateway while live')
        : undefined;
    if (refused) {
      io.err(`${refused}\n`);
      return EXIT.INVALID_INPUT;
    }

    // The secrets first: if the keychain cannot take them, nothing at all is written (not the settings).
    const keychain = keychainOf(store);
    const before = new Map<SecretName, string | undefined>();
    try {
      for (const [name] of given) before.set(name, await keychain.get(name));
      for (const [name, value] of given) await keychain.set(name, value);
    } catch (err) {
      if (err instanceof KeychainUnavailableError) {
        await restoreSecrets(keychain, before);
        return keychainFailure(io, err);
      }
      throw err;
    }
    const actor = cliUser();
    try {
      store.db
        .transaction(() => {
          saveSettingsChange(store, actor, result);
          for (const [name] of given) store.audit.record({ actor, action: 'secret.set', field: name });
        })
        .immediate();
    } catch (err) {
      await restoreSecrets(keychain, before);
      throw err;
    }

    io.out(`Gateway ${gateway.baseUrl} (appid ${gateway.appId}):\n`);
    printChanges(io, result.changed);
    for (const [name, value] of given) {
      io.out(`  ${SECRET_WORDS[name]}: ${shown(secretStatus(value))}, in ${keychain.description}\n`);
      io.err(overrideNote(store, name));
    }
    const needed: SecretName[] = gateway.signing.key === 'secret' ? ['appkey', 'signing-secret'] : ['appkey'];
    for (const name of needed.filter((n) => !given.some(([g]) => g === n))) {
      const status = await safeStatus(store, name);
      if (status === undefined) {
        io.err(
          'note: the OS keychain cannot be used now (config show says why): store the secrets before going live\n',
        );
        break;
      }
      if (!status.set)
        io.err(`note: no ${SECRET_WORDS[name]} is stored yet: npm run cli -- config set-secret ${name}\n`);
    }
    io.out(
      result.next.mode === 'live'
        ? 'Live mode: a running Loket app uses this at its next start.\n'
        : 'Next: npm run cli -- config test, then config training off --confirm-gateway ' + `${gateway.baseUrl}\n`,
    );
    return EXIT.OK;
  });
}

/** The secrets as they were before a write that could not be completed; best effort. */
async function restoreSecrets(keychain: SecretStore, before: Map<SecretName, string | undefined>): Promise<void> {
  for (const [name, value] of before) {
    try {
      if (value === undefined) await keychain.delete(name);
      else await keychain.set(name, value);
    } catch {
      // The keychain is what failed: there is nothing more to undo with it.
    }
  }
}

async function safeStatus(store: StoreBooks, name: SecretName): Promise<{ set: boolean } | undefined> {
  try {
    return secretStatus(await store.secrets.get(name));
  } catch (err) {
    if (err instanceof KeychainUnavailableError) return undefined;
    throw err;
  }
}

function secretName(positionals: string[], command: string): SecretName {
  const [name, ...extra] = positionals;
  if (extra.length > 0)
    throw new UsageError(
      `config ${command}: one secret name and nothing more (the rest is not repeated here, in case it is a ` +
        'secret: a secret is read from standard input or a hidden prompt, never from the command line)',
    );
  if (name !== 'appkey' && name !== 'signing-secret')
    throw new UsageError(`config ${command}: which secret, appkey or signing-secret`);
  return name;
}

async function setSecret(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { stdin: { type: 'boolean' } },
  });
  const name = secretName(positionals, 'set-secret');
  return withStore(options, async (store) => {
    const current = store.settings.load();
    const refused = openOrdersRefusal(store, current, 'change a live credential');
    if (refused) {
      io.err(`${refused}\n`);
      return EXIT.INVALID_INPUT;
    }
    if (onTerminal()) {
      // Before anyone types a secret: can it be kept?
      const keychain = await keychainStatus(store);
      if (!keychain.available) {
        io.err(`the OS keychain cannot be used: ${keychain.message}\nNothing was changed.\n`);
        return EXIT.KEYCHAIN;
      }
    }
    const value = await readSecret(SECRET_WORDS[name], values.stdin === true, '--stdin');
    try {
      await keychainOf(store).set(name, value);
    } catch (err) {
      if (err instanceof KeychainUnavailableError) return keychainFailure(io, err);
      throw err;
    }
    store.audit.record({ actor: cliUser(), action: 'secret.set', field: name });
    io.out(`${SECRET_WORDS[name]}: ${shown(secretStatus(value))}, in ${keychainOf(store).description}\n`);
    io.err(overrideNote(store, name));
    if (current.mode === 'live') io.out('Live mode: a running Loket app uses it at its next start.\n');
    return EXIT.OK;
  });
}

async function clearSecret(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: {} });
  const name = secretName(positionals, 'clear-secret');
  return withStore(options, async (store) => {
    const current = store.settings.load();
    const refused = openOrdersRefusal(store, current, 'remove a live credential');
    if (refused) {
      io.err(`${refused}\n`);
      return EXIT.INVALID_INPUT;
    }
    // A locked keyring answers a delete with "nothing to delete": ask it first whether it can be used.
    const keychain = await keychainStatus(store);
    if (!keychain.available) {
      io.err(`the OS keychain cannot be used: ${keychain.message}\nNothing was changed.\n`);
      return EXIT.KEYCHAIN;
    }
    try {
      await keychainOf(store).delete(name);
    } catch (err) {
      if (err instanceof KeychainUnavailableError) return keychainFailure(io, err);
      throw err;
    }
    store.audit.record({ actor: cliUser(), action: 'secret.cleared', field: name });
    io.out(`${SECRET_WORDS[name]}: not set in ${keychainOf(store).description}\n`);
    if (current.mode === 'live' && (name === 'appkey' || current.gateway?.signing.key === 'secret'))
      io.err('note: live mode is set: no order can be sent until it is stored again (config set-secret)\n');
    return EXIT.OK;
  });
}

// ---------------------------------------------------------------- config test

const VERDICT_EXIT: Record<ConnectionReport['verdict'], number> = {
  ok: EXIT.OK,
  unknown_appid: EXIT.REJECTED,
  bad_key: EXIT.REJECTED,
  bad_signature: EXIT.REJECTED,
  refused: EXIT.REJECTED,
  unreachable: EXIT.NOT_SENT_OR_UNKNOWN,
  unexpected: EXIT.NOT_SENT_OR_UNKNOWN,
  no_secret: EXIT.KEYCHAIN,
};

async function test(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { values } = parseArgs({ args: argv, strict: true, options: { json: { type: 'boolean' } } });
  return withStore(options, async (store) => {
    const gateway = store.settings.load().gateway;
    if (!gateway) {
      io.err(
        'no gateway is configured: set one with npm run cli -- config set-gateway --url URL --app-id ID --app-key-stdin\n',
      );
      return EXIT.INVALID_INPUT;
    }
    const secrets = store.secrets;
    const from = secrets instanceof OverrideSecretStore ? secrets.describe('appkey') : secrets.description;
    const report = await testConnection({ ...gateway }, secrets);
    store.audit.record({
      actor: cliUser(),
      action: 'connection.tested',
      detail: {
        verdict: report.verdict,
        method: report.method,
        ...(report.retcode ? { retcode: report.retcode } : {}),
      },
    });
    if (values.json) io.out(JSON.stringify(report, null, 2) + '\n');
    else {
      io.out(`Testing ${gateway.baseUrl} (appid ${gateway.appId}) with the appkey from ${from}\n`);
      (report.verdict === 'ok' ? io.out : io.err)(`${report.message}\n`);
    }
    return VERDICT_EXIT[report.verdict];
  });
}

// ---------------------------------------------------------------- payment methods

async function methods(argv: string[], options: StoreOptions, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, format: { type: 'string' } },
  });
  const bundled = bundledMethods(env);
  const arg = (what: string): string => {
    if (positionals.length !== 1) throw new UsageError(`config methods ${sub}: ${what} (one)`);
    return positionals[0]!;
  };
  const save = (store: StoreBooks, result: ChangeResult, action: SettingsChangeAction, done: () => string): number => {
    if (!result.ok) {
      printIssues(io, result.issues);
      io.err('Nothing was changed.\n');
      return EXIT.INVALID_INPUT;
    }
    saveSettingsChange(store, cliUser(), result, action);
    io.out(result.changed.length ? done() : 'nothing changed: the list already says so\n');
    return EXIT.OK;
  };
  switch (sub) {
    case 'list':
      if (positionals.length) throw new UsageError('config methods list: no arguments');
      return readStore(options, async (store) => {
        const settings = store.settings.load();
        const list = settings.paymentMethods ?? bundled;
        if (values.json) {
          io.out(
            JSON.stringify({ source: settings.paymentMethods ? 'store' : 'bundled', methods: list }, null, 2) + '\n',
          );
          return EXIT.OK;
        }
        io.out(
          `${settings.paymentMethods ? "The store's own list" : 'The bundled catalogue'}: ` +
            `${list.filter((m) => m.enabled).length} of ${list.length} enabled\n`,
        );
        for (const m of list)
          io.out(
            `  [${m.enabled ? 'x' : ' '}] ${m.id.padEnd(22)} ${m.kind.padEnd(20)} ${m.label.en} ` +
              `(${formatRupiah(m.minAmount)} – ${formatRupiah(m.maxAmount)})\n`,
          );
        return EXIT.OK;
      });
    case 'enable':
    case 'disable': {
      const id = arg('the payment method id');
      const enabled = sub === 'enable';
      return withStore(options, async (store) =>
        save(
          store,
          toggleMethod(store.settings.load(), bundled, id, enabled),
          enabled ? 'method.enabled' : 'method.disabled',
          () => `${id}: ${enabled ? 'enabled' : 'disabled'}\n`,
        ),
      );
    }
    case 'import': {
      const file = arg('the file to import');
      const format = values.format ?? extname(file).slice(1).toLowerCase();
      if (format !== 'json' && format !== 'csv')
        throw new UsageError(
          `--format: json or csv${values.format === undefined ? ' (the file name does not end in .json or .csv)' : ''}`,
        );
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
      }
      const parsed = importMethods(text, format);
      if (!parsed.ok) {
        io.err(`${file}: ${parsed.problems.length} problem(s); nothing was imported:\n`);
        for (const p of parsed.problems) io.err(`  ${p.message}\n`);
        return EXIT.INVALID_INPUT;
      }
      return withStore(options, async (store) =>
        save(
          store,
          replaceMethods(store.settings.load(), parsed.methods),
          'methods.imported',
          () =>
            `imported ${parsed.methods.length} payment method(s) from ${file}, ` +
            `${parsed.methods.filter((m) => m.enabled).length} enabled\n`,
        ),
      );
    }
    case 'reset':
      if (positionals.length) throw new UsageError('config methods reset: no arguments');
      return withStore(options, async (store) =>
        save(store, resetMethods(store.settings.load()), 'methods.imported', () => 'back to the bundled catalogue\n'),
      );
    default:
      throw new UsageError(
        `config methods: unknown subcommand ${JSON.stringify(sub ?? '')}; use list, enable, disable, import or reset`,
      );
  }
}

// ---------------------------------------------------------------- training ↔ live

async function training(argv: string[], options: StoreOptions, env: NodeJS.ProcessEnv, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { 'confirm-gateway': { type: 'string' } },
  });
  const [word, ...extra] = positionals;
  if ((word !== 'on' && word !== 'off') || extra.length > 0)
    throw new UsageError('config training: on (training mode) or off (live mode)');
  const to: LoketMode = word === 'on' ? 'training' : 'live';
  return withStore(options, async (store) => {
    const current = store.settings.load();
    if (current.mode === to) {
      io.out(`already in ${to} mode: nothing changed\n`);
      return EXIT.OK;
    }
    const open = openOrderCount(store, current.mode);
    // Every refusal but the confirmation's first, so nobody types the URL for a switch that cannot happen.
    const pre = modeSwitch(current, to, open, current.gateway?.baseUrl ?? '');
    if (!pre.ok) {
      printIssues(io, pre.issues);
      return EXIT.INVALID_INPUT;
    }
    const gateway = current.gateway;
    if (to === 'live' && gateway) {
      const problem = await liveCredentialsProblem(store.secrets, gateway.signing.key);
      if (problem) {
        io.err(`cannot switch to live: ${problem.message}\nThe mode is unchanged (${current.mode}).\n`);
        return EXIT.KEYCHAIN;
      }
    }
    let confirm = values['confirm-gateway'] ?? '';
    if (to === 'live' && gateway && values['confirm-gateway'] === undefined && onTerminal())
      confirm = await ask(
        `Live mode sends real orders, for real money, to ${gateway.baseUrl} (appid ${gateway.appId}).\n` +
          "Type the gateway's base URL to confirm: ",
      );
    const result = modeSwitch(current, to, open, confirm);
    if (!result.ok) {
      printIssues(io, result.issues, FLAGS);
      return EXIT.INVALID_INPUT;
    }
    saveSettingsChange(store, cliUser(), result, 'mode.changed');
    io.out(
      to === 'live'
        ? `Live mode: orders go to ${gateway!.baseUrl} (appid ${gateway!.appId}), signed with the appkey from ` +
            `${store.secrets instanceof OverrideSecretStore ? store.secrets.describe('appkey') : store.secrets.description}.\n`
        : 'Training mode: orders go to an embedded sandbox, marked SANDBOX, kept apart in training/loket.db.\n',
    );
    io.out('A running Loket app switches at its next start.\n');
    if (env.LOKET_GATEWAY_URL)
      io.err('note: LOKET_GATEWAY_URL is set in this environment: commands run here still use that gateway\n');
    return EXIT.OK;
  });
}
