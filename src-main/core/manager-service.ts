import type { Database } from 'better-sqlite3';
import type { ApiHandlers, ManagerApiMethod, PrintResult } from '../common/api';
import type {
  AuditEntry,
  ConnectionReport,
  KeychainStatus,
  ManagerResult,
  ManagerSessionView,
  ManagerView,
  MethodImportResult,
  ModeStatus,
  SecretName,
  SettingsSectionName,
  TillStatus,
} from '../common/manager';
import type { DocsSection, DocsTopic } from '../common/docs';
import type { PaymentMethod } from '../common/payment-methods';
import type { LoketMode, LoketSettings } from '../common/settings';
import { OrderRuleError } from '../common/order-policy';
import type { OpenOrdersWhat, Reason } from '../common/reasons';
import type { CredentialsProblem } from './settings/live-credentials';
import type { PinRefusal, StaffRole, StaffSummary } from '../common/staff';
import { AUDIT_LIST_DEFAULT, staffActor, type AuditLog } from './audit/audit-log';
import type { SecretStore } from './ports';
import { recordConnectionTest, saveWithSecrets } from './settings/gateway-secrets';
import { secretStatusOf, type SecretLayers } from './settings/keychain-state';
import { openOrdersRefusal } from './settings/open-orders';
import { importMethods as parseMethods } from './settings/method-import';
import {
  changeSection,
  modeSwitch,
  replaceMethods,
  resetMethods,
  toggleMethod,
  type ChangeResult,
} from './settings/settings-changes';
import { saveSettingsChange } from './settings/save-change';
import { loadSaleSettings, saveSaleSettings, type SaleSettingsPatch } from './settings/sale-settings';
import type { SettingsStore } from './settings/settings-store';
import type { AccessControl } from './staff/access';

/** The store's books the manager works on (runtime.ts's StoreBooks). */
export interface ManagerStore {
  readonly db: Database;
  readonly settings: SettingsStore;
  readonly audit: AuditLog;
  readonly access: AccessControl;
  /** The configured gateway's secrets: LOKET_APP_KEY, else the OS keychain. */
  readonly secrets: SecretStore;
}

/** What a change to the settings needs from the host that runs the orders. */
export type SettingsEffect =
  /** Mode, gateway or live credentials changed: the order runtime is rebuilt (open orders refuse it first). */
  | 'runtime'
  /** The method list changed: the runtime takes the new list in place. */
  | 'methods'
  /** Anything else (store, printer, display, language, access): screens and receipts read it at once. */
  | 'info';

/** The host's side: how Loket runs now, and what it does after a change. */
export interface ManagerHost {
  mode(): ModeStatus;
  /** Orders creating, awaiting payment or unknown in the order log in use. */
  openOrders(): number;
  /** The catalogue shipped in resources/ (the store's list starts as a copy of it). */
  bundledMethods(): PaymentMethod[];
  keychainStatus(): Promise<KeychainStatus>;
  /** The store's secrets as layers (the environment over the OS keychain): each secret's state, where one is written. */
  secretLayers: SecretLayers;
  settingsChanged(effect: SettingsEffect, settings: LoketSettings): Promise<void>;
  testConnection(settings: LoketSettings): Promise<ConnectionReport>;
  /** Why live mode could not read its credentials now (core/settings/live-credentials.ts); undefined when it can. */
  liveCredentialsProblem(signWith: 'appkey' | 'secret'): Promise<CredentialsProblem | undefined>;
  testPrint(settings: LoketSettings): Promise<PrintResult>;
  /** The till's signed-in staff changed (or their details did): screens are told. */
  tillChanged(): void;
  /** A section of the docs a screen links to (docs/settings.md's keychain section, say). */
  docsSection(topic: DocsTopic): DocsSection;
  /** The training log's audit (training/loket.db) while the till runs in training; undefined when it runs live. */
  trainingAudit?(): AuditLog | undefined;
}

/** Two newest-first lists as one, by time; each keeps its own order (so each log's page is a prefix of it). */
function mergeNewestFirst(a: readonly AuditEntry[], b: readonly AuditEntry[]): AuditEntry[] {
  const out: AuditEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length)
    out.push(j >= b.length || (i < a.length && a[i]!.at >= b[j]!.at) ? a[i++]! : b[j++]!);
  return out;
}

/**
 * The manager's side of the API (docs/settings.md, docs/roles.md): who sells at the till, unlocking the
 * manager's screens with a PIN, the settings and the gateway's secrets, payment methods, staff, the audit
 * log, and switching between training and live. Every manager method takes the session token first and
 * throws ManagerLockedError (`locked`) once it has idled out; every change is audited with who made it,
 * in the same transaction as the change, and no secret ever enters the audit log, the database or a view.
 */
interface Who {
  me: StaffSummary;
  lockAt: string;
}

export class ManagerService implements Pick<ApiHandlers, ManagerApiMethod> {
  /** Who sells at this till (in memory: a restart signs the till out). */
  private till: StaffSummary | null = null;

  constructor(
    private readonly store: ManagerStore,
    private readonly host: ManagerHost,
  ) {}

  // ------------------------------------------------------------ the till and unlocking

  tillStatus(): TillStatus {
    const { staff, hasManager } = this.store.access.status();
    if (this.till) this.till = staff.find((s) => s.id === this.till!.id) ?? null;
    return {
      staff: this.till,
      staffList: staff,
      requireCashierPin: this.settings().access.requireCashierPin,
      hasManager,
    };
  }

  /** The staff member selling now, for the orders they create; null when nobody signed in. */
  tillStaff(): StaffSummary | null {
    return this.tillStatus().staff;
  }

  async signIn(staffId: number, pin: string | null): Promise<{ ok: true; till: TillStatus } | PinRefusal> {
    const needPin = this.settings().access.requireCashierPin;
    let staff: StaffSummary | undefined;
    if (pin === null && needPin) return { ok: false, reason: 'pin_required' };
    if (pin !== null) {
      const checked = await this.store.access.verifyStaffPin(staffId, pin);
      if (!checked.ok) return checked;
      staff = checked.staff;
    } else {
      staff = this.store.access.status().staff.find((s) => s.id === staffId);
      if (!staff) return { ok: false, reason: 'no_such_staff' };
      this.store.access.audit.record({ actor: staffActor(staff), action: 'staff.signed_in', detail: { by: 'name' } });
    }
    this.till = staff;
    this.host.tillChanged();
    return { ok: true, till: this.tillStatus() };
  }

  signOut(): TillStatus {
    this.till = null;
    this.host.tillChanged();
    return this.tillStatus();
  }

  /** First use only: the first manager and their PIN; the manager's screens open for them at once. */
  async setupManager(input: { name: string; pin: string }): Promise<ManagerSessionView> {
    const { staff, session } = await this.store.access.setupFirstManager(input.name, input.pin);
    this.host.tillChanged();
    return { ...session, staff };
  }

  async unlockManager(staffId: number, pin: string): Promise<{ ok: true; session: ManagerSessionView } | PinRefusal> {
    const result = await this.store.access.unlockManager(staffId, pin);
    if (!result.ok) return result;
    return { ok: true, session: { ...result.session, staff: result.staff } };
  }

  lockManager(token: string): null {
    this.store.access.lock(token);
    return null;
  }

  // ------------------------------------------------------------ the manager's view

  async managerView(token: string): Promise<ManagerView> {
    return this.view(this.requireManager(token));
  }

  async updateSettings(
    token: string,
    section: SettingsSectionName,
    patch: Record<string, unknown> | null,
  ): Promise<ManagerResult> {
    const who = this.requireManager(token);
    const current = this.settings();
    if (section === 'gateway') {
      const refused = openOrdersRefusal(current, () => this.host.openOrders(), 'change_gateway');
      if (refused) return { ok: false, issues: [refused] };
    }
    const result = changeSection(current, section, patch);
    const effect: SettingsEffect = section === 'gateway' && current.mode === 'live' ? 'runtime' : 'info';
    return this.apply(who, result, effect);
  }

  /**
   * The sale's settings (tax, cash rounding, discount limits; docs/tax.md) through the rule the CLI's `config set-tax`
   * uses (sale-settings.ts's saveSaleSettings): checked, stored and audited field by field in one transaction. The
   * next sale reads them; nothing else to rebuild.
   */
  async updateSaleSettings(token: string, patch: SaleSettingsPatch): Promise<ManagerResult> {
    const who = this.requireManager(token);
    const result = saveSaleSettings(this.store, staffActor(who.me), patch);
    if (!result.ok) return { ok: false, issues: result.issues };
    return { ok: true, view: await this.view(who) };
  }

  async setSecret(token: string, name: SecretName, value: string): Promise<ManagerView> {
    const who = this.requireManager(token);
    this.refuseWhileOpen('change_credential');
    // The keychain refuses, in plain words, when it cannot be reached: nothing is written anywhere else.
    await saveWithSecrets(this.store, this.host.secretLayers.keychain, staffActor(who.me), null, [[name, value]]);
    await this.afterSecretChange();
    return this.view(who);
  }

  async clearSecret(token: string, name: SecretName): Promise<ManagerView> {
    const who = this.requireManager(token);
    this.refuseWhileOpen('remove_credential');
    await this.host.secretLayers.keychain.delete(name);
    this.store.audit.record({ actor: staffActor(who.me), action: 'secret.cleared', field: name });
    await this.afterSecretChange();
    return this.view(who);
  }

  async testConnection(token: string): Promise<ConnectionReport> {
    const who = this.requireManager(token);
    const report = await this.host.testConnection(this.settings());
    recordConnectionTest(this.store, staffActor(who.me), report);
    return report;
  }

  async testPrint(token: string): Promise<PrintResult> {
    this.requireManager(token);
    return this.host.testPrint(this.settings());
  }

  // ------------------------------------------------------------ payment methods

  async setMethodEnabled(token: string, methodId: string, enabled: boolean): Promise<ManagerResult> {
    const who = this.requireManager(token);
    const result = toggleMethod(this.settings(), this.host.bundledMethods(), methodId, enabled);
    return this.apply(who, result, 'methods', enabled ? 'method.enabled' : 'method.disabled');
  }

  async importMethods(token: string, format: 'json' | 'csv', text: string): Promise<MethodImportResult> {
    const who = this.requireManager(token);
    const parsed = parseMethods(text, format);
    if (!parsed.ok) return { ok: false, problems: parsed.problems };
    const applied = await this.apply(
      who,
      replaceMethods(this.settings(), parsed.methods),
      'methods',
      'methods.imported',
    );
    if (!applied.ok) {
      return { ok: false, problems: applied.issues.map((i) => ({ row: 0, field: i.field, message: i.message })) };
    }
    return applied;
  }

  async resetMethods(token: string): Promise<ManagerView> {
    const who = this.requireManager(token);
    const applied = await this.apply(who, resetMethods(this.settings()), 'methods', 'methods.imported');
    return applied.ok ? applied.view : this.view(who);
  }

  // ------------------------------------------------------------ training and live

  /**
   * Training ↔ live (settings-changes.ts's modeSwitch), and — as the CLI's `config training off` — never to live
   * with credentials that cannot be read: the switch is refused, saying why, rather than saved and then run in
   * training mode with a notice.
   */
  async switchMode(token: string, to: LoketMode, confirm: string): Promise<ManagerResult> {
    const who = this.requireManager(token);
    const current = this.settings();
    const result = modeSwitch(current, to, this.host.openOrders(), confirm);
    if (result.ok && to === 'live' && current.mode !== 'live' && current.gateway) {
      const problem = await this.host.liveCredentialsProblem(current.gateway.signing.key);
      if (problem)
        return {
          ok: false,
          issues: [{ field: 'credentials', message: `credentials: ${problem.message}`, reason: problem.reason }],
        };
    }
    return this.apply(who, result, 'runtime', 'mode.changed');
  }

  // ------------------------------------------------------------ staff

  async addStaff(token: string, input: { name: string; role: StaffRole; pin: string }): Promise<ManagerView> {
    const who = this.requireManager(token);
    await this.store.access.addStaff(input, staffActor(who.me));
    this.host.tillChanged();
    return this.view(who);
  }

  async updateStaff(
    token: string,
    staffId: number,
    patch: { name?: string; role?: StaffRole; pin?: string; active?: boolean },
  ): Promise<ManagerView> {
    const who = this.requireManager(token);
    if (patch.active === false && Object.keys(patch).length === 1) {
      this.store.access.removeStaff(staffId, staffActor(who.me));
    } else {
      await this.store.access.updateStaff(staffId, patch, staffActor(who.me));
    }
    if (this.till?.id === staffId && patch.active === false) this.till = null;
    this.host.tillChanged();
    // Demoting oneself closes one's own session: the next call asks for a manager's PIN again.
    return this.view(this.requireManager(token));
  }

  async changeOwnPin(token: string, current: string, next: string): Promise<{ ok: true } | PinRefusal> {
    const who = this.requireManager(token);
    const result = await this.store.access.changeOwnPin(who.me.id, current, next);
    return result.ok ? { ok: true } : result;
  }

  /** Anyone at the till may read the docs: a notice on the cashier's screen links to them. */
  docsSection(topic: DocsTopic): DocsSection {
    return this.host.docsSection(topic);
  }

  /**
   * The audit log, newest first. While the till runs in training its order log's entries (the shift's, written in
   * the change's transaction on that file) are merged in by time, marked `log: 'training'`; each log pages by its own
   * cursor (`before`, `trainingBefore`: the oldest seq of that log shown so far).
   */
  auditLog(token: string, options: { limit?: number; before?: number; trainingBefore?: number }): AuditEntry[] {
    this.requireManager(token);
    const { trainingBefore, ...store } = options;
    const mine = this.store.audit.list(store);
    const till = this.host.trainingAudit?.();
    if (!till) return mine;
    const training = till
      .list({
        ...(options.limit ? { limit: options.limit } : {}),
        ...(trainingBefore ? { before: trainingBefore } : {}),
      })
      .map((e): AuditEntry => ({ ...e, log: 'training' }));
    return mergeNewestFirst(mine, training).slice(0, options.limit ?? AUDIT_LIST_DEFAULT);
  }

  // ------------------------------------------------------------ inside

  private settings(): LoketSettings {
    return this.store.settings.load();
  }

  /** The manager of a live session, and when it locks now that it has been used. */
  private requireManager(token: string): Who {
    const me = this.store.access.requireManager(token);
    return { me, lockAt: this.store.access.sessions.use(token).expiresAt };
  }

  private async view({ me, lockAt }: Who): Promise<ManagerView> {
    const settings = this.settings();
    const [keychain, appkey, signing] = await Promise.all([
      this.host.keychainStatus(),
      secretStatusOf(this.host.secretLayers, 'appkey'),
      secretStatusOf(this.host.secretLayers, 'signing-secret'),
    ]);
    return {
      me,
      settings,
      sale: loadSaleSettings(this.store.settings),
      methods: settings.paymentMethods ?? this.host.bundledMethods(),
      methodsSource: settings.paymentMethods ? 'store' : 'bundled',
      secrets: { appkey, 'signing-secret': signing },
      keychain,
      staff: this.store.access.staff.list({ includeInactive: true }),
      mode: this.host.mode(),
      openOrders: this.host.openOrders(),
      lockAt,
    };
  }

  /**
   * Saves a change and its audit events in one transaction, then lets the host act on it. An action given
   * names the whole change (a mode switch, an import); otherwise each field is a `settings.changed` event.
   */
  private async apply(
    who: Who,
    result: ChangeResult,
    effect: SettingsEffect,
    action?: 'mode.changed' | 'method.enabled' | 'method.disabled' | 'methods.imported',
  ): Promise<ManagerResult> {
    if (!result.ok) return { ok: false, issues: result.issues };
    if (saveSettingsChange(this.store, staffActor(who.me), result, action)) {
      if (result.next.access.managerIdleMinutes !== undefined) {
        this.store.access.setIdleMs(result.next.access.managerIdleMinutes * 60_000);
      }
      await this.host.settingsChanged(effect, result.next);
    }
    return { ok: true, view: await this.view(who) };
  }

  private refuseWhileOpen(what: OpenOrdersWhat): void {
    const refused = openOrdersRefusal(this.settings(), () => this.host.openOrders(), what);
    if (refused) throw new OpenOrdersError(refused.message, refused.reason!);
  }

  /** A credential that changed while live (or that live mode was waiting for) takes effect now. */
  private async afterSecretChange(): Promise<void> {
    const settings = this.settings();
    if (settings.mode === 'live') await this.host.settingsChanged('runtime', settings);
  }
}

/** A change that must wait until no order is open (`conflict`). */
export class OpenOrdersError extends OrderRuleError {
  readonly code = 'conflict';
  constructor(message: string, why: Reason) {
    super(message);
    this.name = 'OpenOrdersError';
    this.because(why);
  }
}
