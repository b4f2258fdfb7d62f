import type { CashSettings } from './cash';
import type { PaymentMethod } from './payment-methods';
import type { DiscountLimits } from './sale-totals';
import type { TaxSettings } from './tax';
import type { KeychainProblem, Reason } from './reasons';
import type { LoketMode, LoketSettings, SettingsIssue } from './settings';
import type { StaffSummary } from './staff';

/**
 * What the manager's screens (and `config show`) see. Never a secret: a stored appkey or signing secret is
 * only "set", with its last 4 characters when it is long enough for that to give nothing away.
 */
export interface SecretStatus {
  set: boolean;
  last4?: string;
  /** Where the value Loket uses comes from: LOKET_APP_KEY (an explicit override) wins over the keychain. */
  from: 'keychain' | 'environment' | 'none';
}

export type SecretName = 'appkey' | 'signing-secret';

export interface KeychainStatus {
  available: boolean;
  /** Why not, in plain words with what to install or unlock (English: the CLI and the log). */
  message?: string;
  /** Why not, for a screen to word in its language (one line, with a link to the docs: docs/settings.md). */
  problem?: KeychainProblem;
}

/** How Loket runs now, and why it differs from the setting when it does (e.g. the keychain is locked). */
export interface ModeStatus {
  setting: LoketMode;
  running: 'sandbox' | 'live';
  /** The gateway the orders go to, in words (English). */
  gateway: string;
  /** The same as data, for a screen: its address, and where it comes from (the sandbox's is its own). */
  gatewayUrl?: string;
  gatewayFrom?: 'settings' | 'environment' | 'sandbox';
  notice?: string;
  /** The notice, for a screen to word in its language. */
  noticeReason?: Reason;
}

/**
 * The sale's settings (core/settings/sale-settings.ts; docs/tax.md): tax, cash rounding, discount limits. Each its
 * own key of the settings table, beside `settings`.
 */
export interface SaleSettings {
  tax: TaxSettings;
  cash: CashSettings;
  discounts: DiscountLimits;
}

export interface ManagerView {
  me: StaffSummary;
  settings: LoketSettings;
  /** The sale's settings: the Tax section edits them (updateSaleSettings). */
  sale: SaleSettings;
  /** The payment methods in effect: the store's own list, or the bundled catalogue. */
  methods: PaymentMethod[];
  methodsSource: 'bundled' | 'store';
  secrets: Record<SecretName, SecretStatus>;
  keychain: KeychainStatus;
  staff: StaffSummary[];
  mode: ModeStatus;
  /** Orders creating, awaiting payment or with an unknown outcome: switching modes waits for them. */
  openOrders: number;
  /** When the manager screens lock if unused (ISO UTC). */
  lockAt: string;
}

export type SettingsSectionName = 'store' | 'gateway' | 'printer' | 'display' | 'language' | 'access' | 'backup';

/** A change refused names each field and its rule; nothing was saved. */
export type ManagerResult = { ok: true; view: ManagerView } | { ok: false; issues: SettingsIssue[] };

export interface MethodImportProblem {
  row: number;
  /** The CSV column or the JSON field. */
  field: string;
  message: string;
}

export type MethodImportResult = { ok: true; view: ManagerView } | { ok: false; problems: MethodImportProblem[] };

export type ProbeVerdict =
  'ok' | 'unreachable' | 'unknown_appid' | 'bad_key' | 'bad_signature' | 'refused' | 'no_secret' | 'unexpected';

/** What "Test connection" learned, without creating anything billable (docs/settings.md). */
export interface ConnectionReport {
  /** An HTTP answer came back; null when the probe was not sent (`no_secret`): not tried, and `reason` says why. */
  reachable: boolean | null;
  /** null: not learned (no answer, or the gateway refused before saying). */
  appIdKnown: boolean | null;
  signatureAccepted: boolean | null;
  verdict: ProbeVerdict;
  method: 'inquiry' | 'invalid_create';
  httpStatus?: number;
  retcode?: string;
  /** The merchant_transaction_id the probe used (never an order's). */
  probeId: string;
  /** The gateway's own message, where it gave one (secrets redacted). */
  detail?: string;
  /** Plain words for the manager: what the test learned and what to do (English: the CLI and the log). */
  message: string;
  /** The same, for a screen to word in its language; the gateway's own words stay in `detail`. */
  reason: Reason;
}

export interface AuditEntry {
  /** Its place in its log (the store's, or the training log's: `log`). */
  seq: number;
  at: string;
  actor: { staffId?: number; name: string; source: 'app' | 'cli' | 'system' };
  action: string;
  field?: string;
  detail?: Record<string, unknown>;
  /** An entry of the training log (training/loket.db: the till's shifts in training), merged in by time. */
  log?: 'training';
}

/** Who sells at this till: the staff member signed in, or nobody. */
export interface TillStatus {
  staff: StaffSummary | null;
  /** Active staff, for the sign-in and unlock pickers. */
  staffList: StaffSummary[];
  requireCashierPin: boolean;
  /** False on first use: the first manager and their PIN are set up before anything else. */
  hasManager: boolean;
}

export interface ManagerSessionView {
  token: string;
  expiresAt: string;
  staff: StaffSummary;
}
