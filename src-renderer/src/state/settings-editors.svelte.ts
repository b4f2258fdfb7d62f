import type { PrintResult } from '../../../src-main/common/api';
import { DEFAULT_GATEWAY_TIME_ZONE } from '../../../src-main/common/gateway-time';
import type { ConnectionReport, ManagerView, SecretName } from '../../../src-main/common/manager';
import type { LoketMode } from '../../../src-main/common/settings';
import type { CallError } from '../api/errors';
import type { EditorIssue, ManagerContext } from './manager-context';
import { SectionEditor, wholeNumber } from './section-editor.svelte';

export type Lang = 'id' | 'en';

// ---------------------------------------------------------------- the store

export interface StoreDraft {
  storeName: string;
  storeAddress: string;
  terminalId: string;
  timeZone: string;
  receiptHeader: string;
  receiptFooter: string;
  /** The store's language (receipts, and the screens' default): its own section, `language`. */
  lang: Lang;
}

const STORE_FIELDS = ['storeName', 'storeAddress', 'terminalId', 'timeZone', 'receiptHeader', 'receiptFooter'] as const;

/** The store: its name and address, terminal id, time zone, receipt texts and language. */
export class StoreEditor extends SectionEditor<StoreDraft> {
  protected readonly fields = {
    storeName: 'storeName',
    storeAddress: 'storeAddress',
    terminalId: 'terminalId',
    timeZone: 'timeZone',
    receiptHeader: 'receiptHeader',
    receiptFooter: 'receiptFooter',
    lang: 'lang',
  } as const;

  protected read({ settings: s }: ManagerView): StoreDraft {
    return {
      storeName: s.storeName,
      storeAddress: s.storeAddress ?? '',
      terminalId: s.terminalId,
      timeZone: s.timeZone,
      receiptHeader: s.receiptHeader,
      receiptFooter: s.receiptFooter,
      lang: s.lang,
    };
  }

  /** Terminal ids are capital letters and digits: typed letters are made capitals. */
  override set<K extends keyof StoreDraft>(field: K, value: StoreDraft[K]): void {
    super.set(
      field,
      (field === 'terminalId' && typeof value === 'string' ? value.toUpperCase() : value) as StoreDraft[K],
    );
  }

  protected async commit(): Promise<boolean> {
    const changed = this.changedFields();
    const draft = this.draft;
    const patch: Record<string, unknown> = {};
    for (const field of STORE_FIELDS) if (changed.has(field)) patch[field] = draft[field];
    if (Object.keys(patch).length > 0 && !(await this.update('store', patch))) return false;
    if (changed.has('lang') && !(await this.update('language', { lang: draft.lang }))) return false;
    return true;
  }
}

// ---------------------------------------------------------------- the customer display

export interface DisplayDraft {
  idleMessage: string;
  lang: Lang;
}

export class DisplayEditor extends SectionEditor<DisplayDraft> {
  protected readonly fields = { 'display.idleMessage': 'idleMessage', 'display.lang': 'lang' } as const;

  protected read({ settings }: ManagerView): DisplayDraft {
    return { idleMessage: settings.display.idleMessage, lang: settings.display.lang };
  }

  protected async commit(): Promise<boolean> {
    const changed = this.changedFields();
    if (changed.size === 0) return true;
    const draft = this.draft;
    return this.update('display', Object.fromEntries([...changed].map((field) => [field, draft[field]])));
  }
}

// ---------------------------------------------------------------- access

export interface AccessDraft {
  requireCashierPin: boolean;
  managerIdleMinutes: string;
}

export class AccessEditor extends SectionEditor<AccessDraft> {
  protected readonly fields = {
    'access.requireCashierPin': 'requireCashierPin',
    'access.managerIdleMinutes': 'managerIdleMinutes',
  } as const;

  protected read({ settings }: ManagerView): AccessDraft {
    return {
      requireCashierPin: settings.access.requireCashierPin,
      managerIdleMinutes: String(settings.access.managerIdleMinutes),
    };
  }

  protected async commit(): Promise<boolean> {
    const changed = this.changedFields();
    if (changed.size === 0) return true;
    const draft = this.draft;
    const patch: Record<string, unknown> = {};
    if (changed.has('requireCashierPin')) patch.requireCashierPin = draft.requireCashierPin;
    if (changed.has('managerIdleMinutes')) {
      const minutes = wholeNumber(draft.managerIdleMinutes);
      if (minutes === undefined)
        return this.refuse([{ field: 'access.managerIdleMinutes', message: 'a whole number', local: true }]);
      patch.managerIdleMinutes = minutes;
    }
    return this.update('access', patch);
  }
}

// ---------------------------------------------------------------- the receipt printer

export type PrinterKind = 'none' | 'network' | 'system';

export interface PrinterDraft {
  kind: PrinterKind;
  host: string;
  port: string;
  paper: 58 | 80;
  systemName: string;
  /** The receipt prints by itself, once, when a sale is paid. */
  autoPrint: boolean;
}

export class PrinterEditor extends SectionEditor<PrinterDraft> {
  #printing = $state(false);
  #printResult = $state.raw<PrintResult | null>(null);
  #printError = $state.raw<CallError | null>(null);

  protected readonly fields = {
    'printer.kind': 'kind',
    'printer.host': 'host',
    'printer.port': 'port',
    'printer.paper': 'paper',
    'printer.systemName': 'systemName',
    'printer.autoPrint': 'autoPrint',
  } as const;

  protected read({ settings: { printer } }: ManagerView): PrinterDraft {
    return {
      kind: printer.kind,
      host: printer.host ?? '',
      port: printer.port === undefined ? '' : String(printer.port),
      paper: printer.paper,
      systemName: printer.systemName ?? '',
      autoPrint: printer.autoPrint,
    };
  }

  get printing(): boolean {
    return this.#printing;
  }

  get printResult(): PrintResult | null {
    return this.#printResult;
  }

  get printError(): CallError | null {
    return this.#printError;
  }

  protected async commit(): Promise<boolean> {
    const changed = this.changedFields();
    if (changed.size === 0) return true;
    const draft = this.draft;
    const patch: Record<string, unknown> = {};
    if (changed.has('kind')) patch.kind = draft.kind;
    if (changed.has('paper')) patch.paper = draft.paper;
    if (changed.has('autoPrint')) patch.autoPrint = draft.autoPrint;
    if (changed.has('host')) patch.host = draft.host.trim() === '' ? null : draft.host;
    if (changed.has('systemName')) patch.systemName = draft.systemName.trim() === '' ? null : draft.systemName;
    if (changed.has('port')) {
      if (draft.port.trim() === '') patch.port = null;
      else {
        const port = wholeNumber(draft.port);
        if (port === undefined) return this.refuse([{ field: 'printer.port', message: 'a port number', local: true }]);
        patch.port = port;
      }
    }
    return this.update('printer', patch);
  }

  /** A test page on the saved printer. */
  async testPrint(): Promise<void> {
    if (this.#printing) return;
    this.#printing = true;
    this.#printResult = null;
    this.#printError = null;
    const outcome = await this.ctx.call((api, token) => api.testPrint(token));
    this.#printing = false;
    if (outcome.ok) this.#printResult = outcome.value;
    else if (outcome.error.code !== 'locked') this.#printError = outcome.error;
  }
}

// ---------------------------------------------------------------- the gateway

export type SigningKey = 'appkey' | 'secret';
export type SigningEncoding = 'hex' | 'base64';

export interface GatewayDraft {
  baseUrl: string;
  appId: string;
  signingKey: SigningKey;
  encoding: SigningEncoding;
  timeoutSeconds: string;
  inquiryPath: string;
  timeZone: string;
  /** Live mode over a plain http:// address (answers unsigned), allowed on purpose. */
  allowHttp: boolean;
  /** The gateway's callbacks come to a listener of Loket's own. */
  listener: boolean;
  listenerHost: string;
  listenerPort: string;
  listenerPath: string;
  publicUrl: string;
}

const LISTENER_DEFAULTS = { host: '127.0.0.1', port: 0, path: '/loket/callback' };

/**
 * The gateway: where live orders go, its appid, signing profile, timeout, status inquiry and callback
 * listener; and its secrets. A secret typed here goes to the server once (setSecret) and is then cleared;
 * it is never read back — the view says only whether one is set, its last 4 characters, and where from.
 */
export class GatewayEditor extends SectionEditor<GatewayDraft> {
  #secrets = $state<Record<SecretName, string>>({ appkey: '', 'signing-secret': '' });
  #confirmClear = $state<SecretName | null>(null);
  #secretSaved = $state<SecretName | null>(null);
  readonly #onChange: () => void;

  /** `onChange`: the saved gateway or a secret changed (a connection report no longer holds). */
  constructor(ctx: ManagerContext, onChange: () => void = () => undefined) {
    super(ctx);
    this.#onChange = onChange;
  }

  protected readonly fields = {
    'gateway.baseUrl': 'baseUrl',
    'gateway.appId': 'appId',
    'gateway.signing': 'signingKey',
    'gateway.signing.key': 'signingKey',
    'gateway.signing.encoding': 'encoding',
    'gateway.timeoutMs': 'timeoutSeconds',
    'gateway.inquiryPath': 'inquiryPath',
    'gateway.timeZone': 'timeZone',
    'gateway.allowHttp': 'allowHttp',
    'callbackListener.host': 'listenerHost',
    'callbackListener.port': 'listenerPort',
    'callbackListener.path': 'listenerPath',
    'callbackListener.publicUrl': 'publicUrl',
  } as const;

  protected read({ settings }: ManagerView): GatewayDraft {
    const g = settings.gateway;
    const l = settings.callbackListener;
    return {
      baseUrl: g?.baseUrl ?? '',
      appId: g?.appId ?? '',
      signingKey: g?.signing.key ?? 'appkey',
      encoding: g?.signing.encoding ?? 'hex',
      timeoutSeconds: String((g?.timeoutMs ?? 15_000) / 1000),
      inquiryPath: g?.inquiryPath ?? '',
      timeZone: g?.timeZone ?? DEFAULT_GATEWAY_TIME_ZONE,
      allowHttp: g?.allowHttp ?? false,
      listener: l !== null,
      listenerHost: l?.host ?? LISTENER_DEFAULTS.host,
      listenerPort: String(l?.port ?? LISTENER_DEFAULTS.port),
      listenerPath: l?.path ?? LISTENER_DEFAULTS.path,
      publicUrl: l?.publicUrl ?? '',
    };
  }

  /** What was typed into a secret's field (never the stored value: that is not sent to screens). */
  secretText(name: SecretName): string {
    return this.#secrets[name];
  }

  setSecretText(name: SecretName, text: string): void {
    this.#secrets[name] = text;
    this.#secretSaved = null;
  }

  /** The secret just saved, for a short "saved" note. */
  get secretSaved(): SecretName | null {
    return this.#secretSaved;
  }

  /** A secret was typed and will be sent on Save. */
  get secretsPending(): boolean {
    return this.#pendingSecrets().length > 0;
  }

  override get dirty(): boolean {
    return super.dirty || this.secretsPending;
  }

  /** Asks to confirm removing a stored secret (a second press removes it). */
  get confirmClear(): SecretName | null {
    return this.#confirmClear;
  }

  askClear(name: SecretName): void {
    this.#confirmClear = name;
  }

  keepSecret(): void {
    this.#confirmClear = null;
  }

  async clearSecret(name: SecretName): Promise<boolean> {
    this.#confirmClear = null;
    const outcome = await this.ctx.call((api, token) => api.clearSecret(token, name));
    if (!outcome.ok) return this.fail(outcome.error);
    this.ctx.applyView(outcome.value);
    this.#onChange();
    return true;
  }

  override discard(): void {
    super.discard();
    this.#secrets = { appkey: '', 'signing-secret': '' };
  }

  protected async commit(): Promise<boolean> {
    const patch = this.#patch();
    if ('issues' in patch) return this.refuse(patch.issues);
    if (Object.keys(patch.value).length > 0) {
      if (!(await this.update('gateway', patch.value))) return false;
      this.#onChange();
    }
    for (const name of this.#pendingSecrets()) {
      const value = this.#secrets[name].trim();
      const outcome = await this.ctx.call((api, token) => api.setSecret(token, name, value));
      if (!outcome.ok) return this.fail(outcome.error);
      // Saved: the typed value goes from the screen at once.
      this.#secrets[name] = '';
      this.#secretSaved = name;
      this.ctx.applyView(outcome.value);
      this.#onChange();
    }
    return true;
  }

  #pendingSecrets(): SecretName[] {
    return (['appkey', 'signing-secret'] as const).filter((name) => this.#secrets[name].trim() !== '');
  }

  /** Only what changed; everything when no gateway is configured yet (the server needs the whole of it). */
  #patch(): { value: Record<string, unknown> } | { issues: EditorIssue[] } {
    const view = this.view;
    const fresh = view.settings.gateway === null;
    const changed = this.changedFields(fresh);
    const d = this.draft;
    const patch: Record<string, unknown> = {};
    const issues: EditorIssue[] = [];
    if (changed.has('baseUrl')) patch.baseUrl = d.baseUrl.trim();
    if (changed.has('appId')) patch.appId = d.appId;
    if (changed.has('signingKey') || changed.has('encoding'))
      patch.signing = { key: d.signingKey, encoding: d.encoding };
    if (changed.has('timeoutSeconds')) {
      const seconds = wholeNumber(d.timeoutSeconds);
      if (seconds === undefined) issues.push({ field: 'gateway.timeoutMs', message: 'a whole number', local: true });
      else patch.timeoutMs = seconds * 1000;
    }
    if (changed.has('inquiryPath')) patch.inquiryPath = d.inquiryPath.trim() === '' ? null : d.inquiryPath.trim();
    if (changed.has('timeZone')) patch.timeZone = d.timeZone;
    // Sent only when the manager changed it (a first gateway needs no "off": off is the rule).
    if (this.changed('allowHttp')) patch.allowHttp = d.allowHttp;

    const stored = view.settings.callbackListener;
    if (!d.listener) {
      if (stored !== null) patch.callbackListener = null;
    } else {
      const all = stored === null;
      const listener: Record<string, unknown> = {};
      if (all || this.changed('listenerHost')) listener.host = d.listenerHost;
      if (all || this.changed('listenerPath')) listener.path = d.listenerPath;
      if (all || this.changed('publicUrl')) listener.publicUrl = d.publicUrl.trim() === '' ? null : d.publicUrl;
      if (all || this.changed('listenerPort')) {
        const port = wholeNumber(d.listenerPort);
        if (port === undefined) issues.push({ field: 'callbackListener.port', message: 'a port number', local: true });
        else listener.port = port;
      }
      if (Object.keys(listener).length > 0) patch.callbackListener = listener;
    }
    return issues.length > 0 ? { issues } : { value: patch };
  }
}

// ---------------------------------------------------------------- test connection

/** "Test connection" on the saved gateway settings and secrets; what it learned. */
export class ConnectionTester {
  #testing = $state(false);
  #report = $state.raw<ConnectionReport | null>(null);
  #error = $state.raw<CallError | null>(null);
  readonly #ctx: ManagerContext;

  constructor(ctx: ManagerContext) {
    this.#ctx = ctx;
  }

  get testing(): boolean {
    return this.#testing;
  }

  get report(): ConnectionReport | null {
    return this.#report;
  }

  get error(): CallError | null {
    return this.#error;
  }

  async test(): Promise<void> {
    if (this.#testing) return;
    this.#testing = true;
    this.#report = null;
    this.#error = null;
    const outcome = await this.#ctx.call((api, token) => api.testConnection(token));
    this.#testing = false;
    if (outcome.ok) this.#report = outcome.value;
    else if (outcome.error.code !== 'locked') this.#error = outcome.error;
  }

  /** The settings changed: the last report no longer describes them. */
  forget(): void {
    this.#report = null;
    this.#error = null;
  }
}

// ---------------------------------------------------------------- training ↔ live

/**
 * Switching between training and live: a confirmation that names the gateway (to live, the manager types
 * its base URL, which the server compares), and the server's refusals in its own words.
 */
export class ModeSwitcher {
  #target = $state<LoketMode | null>(null);
  #confirm = $state('');
  #issues = $state.raw<EditorIssue[]>([]);
  #error = $state.raw<CallError | null>(null);
  #busy = $state(false);
  readonly #ctx: ManagerContext;

  constructor(ctx: ManagerContext) {
    this.#ctx = ctx;
  }

  /** The mode the open confirmation would switch to; null when none is open. */
  get target(): LoketMode | null {
    return this.#target;
  }

  get confirmText(): string {
    return this.#confirm;
  }

  get issues(): readonly EditorIssue[] {
    return this.#issues;
  }

  get error(): CallError | null {
    return this.#error;
  }

  get busy(): boolean {
    return this.#busy;
  }

  /** The mode one would switch to from the one set. */
  get other(): LoketMode {
    return this.#ctx.view?.settings.mode === 'live' ? 'training' : 'live';
  }

  /** To live needs a gateway to name. */
  get canGoLive(): boolean {
    const gateway = this.#ctx.view?.settings.gateway;
    return gateway !== undefined && gateway !== null;
  }

  ask(to: LoketMode): void {
    this.#target = to;
    this.#confirm = '';
    this.#issues = [];
    this.#error = null;
  }

  setConfirm(text: string): void {
    this.#confirm = text;
    this.#issues = this.#issues.filter((i) => i.field !== 'confirm');
  }

  close(): void {
    this.#target = null;
    this.#confirm = '';
    this.#issues = [];
    this.#error = null;
  }

  /** True when the mode was switched (the confirmation closes); else the refusal is shown in it. */
  async submit(): Promise<boolean> {
    const to = this.#target;
    if (!to || this.#busy) return false;
    this.#busy = true;
    this.#issues = [];
    this.#error = null;
    try {
      const confirm = to === 'live' ? this.#confirm.trim() : '';
      const outcome = await this.#ctx.call((api, token) => api.switchMode(token, to, confirm));
      if (!outcome.ok) {
        if (outcome.error.code !== 'locked') this.#error = outcome.error;
        return false;
      }
      if (!outcome.value.ok) {
        this.#issues = outcome.value.issues;
        return false;
      }
      this.#ctx.applyView(outcome.value.view);
      this.close();
      return true;
    } finally {
      this.#busy = false;
    }
  }
}
