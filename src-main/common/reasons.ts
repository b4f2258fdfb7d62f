import type { OrderState } from './order';

/**
 * What one of Loket's sentences says, as data: a key and its parameters. Every API error and every result that
 * speaks (a print, a connection test, an attention action, a notice) carries one beside its English `message`.
 * The English is for the command line and the log; a screen words the reason in its own language
 * (src-renderer/src/i18n: `reasons`, one function per key), and never reads the English. A key added here fails
 * to compile until both languages word it.
 *
 * Parameters are plain data: ids, names, counts, amounts (whole rupiah), states, codes. A screen formats them
 * (an amount as rupiah, a state in its words); nothing here is a sentence.
 */

/** Why the OS keychain cannot be used (the keychain adapter's classification). */
export const KEYCHAIN_PROBLEMS = [
  'no_dbus',
  'no_secret_service',
  'locked',
  'timeout',
  'module_missing',
  'other',
] as const;
export type KeychainProblem = (typeof KEYCHAIN_PROBLEMS)[number];

/** Why a receipt or report printer did not print (the network printer adapter's codes, and the OS printer). */
export const PRINT_PROBLEMS = [
  'invalid_options',
  'refused',
  'timeout',
  'unfinished',
  'not_found',
  'unreachable',
  'dropped',
  'system',
  'error',
] as const;
export type PrintProblem = (typeof PRINT_PROBLEMS)[number];

/** What a manager was about to do when open orders stopped it. */
export type OpenOrdersWhat = 'change_gateway' | 'change_credential' | 'remove_credential';

/** The parameters of each reason, by key. */
export interface ReasonParams {
  /**
   * An argument the API's gate (or a rule behind it) refused; `field` is its path; `min` and `max`: an amount's
   * range, when the rule it broke is one (common/whole-rupiah.ts).
   */
  'arguments.invalid': { field: string; min?: number; max?: number };

  // ------------------------------------------------------------ orders and sales
  'order.not_found': { orderId: string };
  'order.duplicate': { orderId: string };
  /** `allowedFrom`: the states that may become `to` (none: nothing does). */
  'order.illegal_transition': { orderId: string; from: OrderState; to: OrderState; allowedFrom: OrderState[] };
  'order.reason_rule': { min: number; max: number };
  'order.not_awaiting_payment': { orderId: string; state: OrderState };
  'order.late_payment_state': { orderId: string; state: OrderState };
  'order.bad_day': { day: string };
  /** Another sale is still on the customer's screen (`unknown`: its outcome is not known). */
  'sale.waiting': { orderId: string; unknown: boolean };
  'sale.held': { orderId: string };
  'sale.in_flight': { orderId: string };
  'sale.sign_in_required': Record<string, never>;
  'sale.simulate_training_only': Record<string, never>;
  'sale.sandbox_restarted': Record<string, never>;

  // ------------------------------------------------------------ staff, PINs, the manager's screens
  'pin.format': { min: number; max: number };
  'staff.name_rule': { min: number; max: number };
  'staff.name_characters': Record<string, never>;
  'staff.role': Record<string, never>;
  'staff.not_found': Record<string, never>;
  /** `former`: the name belongs to a member of staff who was deactivated. */
  'staff.duplicate_name': { name: string; former: boolean };
  'staff.last_manager': { name: string; action: 'remove' | 'demote' | 'deactivate' };
  'manager.exists': Record<string, never>;
  'manager.locked': Record<string, never>;

  // ------------------------------------------------------------ settings, credentials, training ↔ live
  /** A setting the section does not have. */
  'settings.unknown_field': { field: string };
  'settings.open_orders': { count: number; what: OpenOrdersWhat };
  'settings.remove_gateway_live': Record<string, never>;
  'mode.open_orders': { count: number; mode: 'training' | 'live'; to: 'training' | 'live' };
  'mode.needs_gateway': Record<string, never>;
  'mode.confirm': { baseUrl: string };
  /** Live needs credentials that can be read: the keychain cannot be used. */
  'live.keychain': { problem: KeychainProblem };
  /** Live needs credentials that can be read: this one is not stored. */
  'live.secret_missing': { secret: 'appkey' | 'signing-secret' };
  /** Live refuses a plain http:// gateway off this machine unless the manager allowed it (gateway.allowHttp). */
  'live.plain_http': Record<string, never>;
  /** Live could not start for another reason (a listener's port taken, say): the log has it. */
  'live.start_failed': Record<string, never>;
  'keychain.unavailable': { problem: KeychainProblem };
  'gateway.not_configured': Record<string, never>;

  // ------------------------------------------------------------ printing
  /** `printer`: its address or name ("192.168.1.50:9100", "the default printer"). */
  'print.done': { printer?: string; what: 'receipt' | 'copy' | 'test' | 'report' | 'slip' };
  'print.no_printer': { what: 'receipt' | 'test' | 'report' | 'slip' };
  'print.failed': { printer?: string; problem: PrintProblem };

  // ------------------------------------------------------------ shifts and the drawer (docs/tenders.md)
  'shift.none_open': Record<string, never>;
  'shift.already_open': { shiftId: string };
  'shift.not_found': { shiftId: string };
  /**
   * The shift cannot close while a sale of this till is being paid: each by its struk number, with its gateway order
   * still waiting (its method and state) when it has one.
   */
  'shift.sales_being_paid': {
    sales: { serial: string; orderId?: string; methodId?: string; orderState?: OrderState }[];
  };
  /**
   * A field of a shift's input that breaks its rule (common/cash.ts: amount, reason, drawer, count, denomination);
   * `min` and `max`: an amount's range, when the rule is an amount's.
   */
  'shift.field_rule': { field: string; rule: string; min?: number; max?: number };
  /**
   * A manager's PIN was needed and was not right (`refusal`: PinRefusal's reason, or `pin_required`). A pay-out over
   * the shift's limit also says the shift's pay-outs so far (`paidOut`), this `amount` and the `limit`.
   */
  'shift.manager_pin': { refusal: string; retryAfterMs?: number; paidOut?: number; amount?: number; limit?: number };
  'drawer.opened': { printer?: string };
  'drawer.no_printer': Record<string, never>;
  /** The OS printer prints pages, not raw bytes: the drawer behind it cannot be pulsed. */
  'drawer.system_printer': Record<string, never>;
  'drawer.failed': { printer?: string; problem: PrintProblem };
  'day.shift_open': { day: string; shiftId: string; businessDay: string };

  // ------------------------------------------------------------ the manager's books
  /** A query the books cannot answer; `field` names it (from, to, state, search, …). */
  'books.bad_query': { field: string };
  'day.not_begun': { day: string; today: string };
  'day.already_closed': { day: string; closedAt: string; by: string };
  'attention.issue_not_found': Record<string, never>;
  /** The whole store's books were asked for where no store book is set up (docs/store-book.md). */
  'store.not_enrolled': Record<string, never>;
  /** The store book cannot be reached now (the till's own books still can). */
  'store.unreachable': Record<string, never>;
  'attention.already_acknowledged': { orderId: string };
  'attention.nothing_to_acknowledge': { orderId: string };
  'attention.set_aside': { orderId: string };
  'attention.set_aside_unknown_only': { orderId: string; state: OrderState };
  'attention.does_not_fit': { orderId: string; state: OrderState; action: string };
  'attention.only_acknowledge': { orderId: string };
  'attention.no_inquiry': { orderId: string; state: OrderState };
  // What an attention action did.
  'attention.now': { orderId: string; state: OrderState };
  'attention.late_acknowledged': { orderId: string };
  'attention.problems_acknowledged': { count: number };
  'attention.inquiry_failed': { orderId: string };
  'attention.still_waiting': { orderId: string };
  'attention.kept_late': { orderId: string; status: string; state: OrderState };
  'attention.stays': { orderId: string; status: string; state: OrderState };
  'attention.closed': { orderId: string; status: string };
  'attention.mismatch_acknowledged': { orderId: string };
  'attention.mismatch_not_applied': { orderId: string };
  /** A check of an unknown order whose re-send or inquiry did not settle it. */
  'attention.still_unknown': { orderId: string };
  // What an attention item is about (its summary).
  'attention.item.unknown': { amount: number; methodId: string };
  'attention.item.late_payment': { amount: number; methodId: string; state: OrderState };
  'attention.item.overdue': { amount: number; methodId: string };
  'attention.item.mismatch': { amount: number; methodId: string };
  'attention.item.unknown_order': { status: string; amount?: number };
  'attention.item.amount_mismatch': { status: string; amount?: number; orderAmount: number };
  'attention.item.not_forward': { status: string; state?: OrderState };

  // ------------------------------------------------------------ "Test connection" (core/gateway/probe.ts)
  'probe.no_appkey': Record<string, never>;
  'probe.no_signing_secret': Record<string, never>;
  'probe.secrets_unreadable': Record<string, never>;
  'probe.not_sent': { baseUrl: string; code: string };
  'probe.tls': { baseUrl: string; code: string };
  'probe.timeout': { baseUrl: string; seconds: number };
  'probe.broken': { baseUrl: string; code: string };
  'probe.unknown_appid': { baseUrl: string; appId: string };
  'probe.bad_key': { baseUrl: string; appId: string };
  'probe.bad_signature': { baseUrl: string; key: 'appkey' | 'secret'; encoding: 'hex' | 'base64' };
  'probe.refused': { baseUrl: string; status: number; retcode?: string };
  'probe.inquiry_found': { baseUrl: string; probeId: string; path: string };
  'probe.create_accepted': { baseUrl: string; probeId: string };
  'probe.ok_inquiry': { baseUrl: string; probeId: string };
  'probe.ok_create': { baseUrl: string; probeId: string; retcode: string };
  'probe.redirect': { baseUrl: string; status: number; location?: string };
  'probe.server_error': { baseUrl: string; status: number; retcode?: string };
  'probe.not_json': { baseUrl: string; status: number; url: string; inquiry: boolean };
  'probe.no_endpoint': { baseUrl: string; path: string; status: number; inquiry: boolean };
  'probe.unexpected': { baseUrl: string; status: number; retcode?: string };

  // ------------------------------------------------------------ saving an export (the desktop app)
  'save.done': { path: string };
  'save.cancelled': Record<string, never>;
  'save.gone': Record<string, never>;
  'save.failed': Record<string, never>;
}

export type ReasonKey = keyof ReasonParams;

/** One reason: its key and that key's parameters. */
export type Reason = { [K in ReasonKey]: { key: K; params: ReasonParams[K] } }[ReasonKey];

/** A reason, typed by its key. */
export function reason<K extends ReasonKey>(
  key: K,
  ...params: ReasonParams[K] extends Record<string, never> ? [] : [ReasonParams[K]]
): Reason {
  return { key, params: params[0] ?? {} } as Reason;
}

/** A problem with one field: its rule's parameters, for the screen's own words of the rule. */
export interface RuleParams {
  min?: number;
  max?: number;
  /** Lines: at most this many, of at most `lineWidth` characters each. */
  maxLines?: number;
  lineWidth?: number;
}
