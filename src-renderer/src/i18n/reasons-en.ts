import type { KeychainWords, PrintWords, ReasonWords } from './reason-words';

/** Why the system's keychain cannot be used, in a few words (the docs say what to do: docs/settings.md). */
export const keychainEn: KeychainWords = {
  no_dbus: 'there is no D-Bus session to reach it through',
  no_secret_service: 'no keyring service answers',
  locked: 'the keyring is locked',
  timeout: 'the keyring does not answer',
  module_missing: "Loket's keychain module is not installed",
  other: 'the keychain refused',
};

const print: PrintWords = {
  invalid_options: () => 'The printer settings are not complete (address and port).',
  refused: (at) => `The printer${at} refused the connection: is it switched on, and is the port right?`,
  timeout: (at) => `The printer${at} did not answer in time.`,
  unfinished: (at) => `The printer${at} did not take the whole page in time.`,
  not_found: (at) => `The printer's address${at} could not be found.`,
  unreachable: (at) => `The printer${at} cannot be reached from this computer.`,
  dropped: (at) => `The printer${at} dropped the connection before the page was sent.`,
  system: (at) => `This computer's printer${at} did not take the page.`,
  error: (at) => `The printer${at} could not be used.`,
};

const openWhat = {
  change_gateway: 'change the gateway while live',
  change_credential: 'change a live credential',
  remove_credential: 'remove a live credential',
} as const;

const modeName = { training: 'training', live: 'live' } as const;
const orders = (n: number) => (n === 1 ? '1 order is' : `${n} orders are`);
const http = (status: number, retcode?: string) => `HTTP ${status}${retcode ? `, retcode ${retcode}` : ''}`;

/** English words of every reason. */
/** The rule a shift's field broke (common/cash.ts, CashRule), in a few words. */
const shiftRuleEn: Record<string, string> = {
  amount: 'a whole number of rupiah, more than 0',
  reason: 'say why, in 3 to 200 characters',
  drawer: 'more than the cash the drawer should hold',
  count: 'a whole number of notes or coins, 0 or more',
  denomination: 'not an Indonesian note or coin Loket counts',
  pin: "a manager's PIN is needed",
};

export const reasonsEn: ReasonWords = {
  'arguments.invalid': ({ field, min, max }, say) =>
    min !== undefined && max !== undefined
      ? `This request was not accepted (${field}): whole rupiah from ${say.rupiah(min)} to ${say.rupiah(max)}.`
      : `This request was not accepted (${field}).`,

  'order.not_found': ({ orderId }) => `Order ${orderId} was not found.`,
  'order.duplicate': ({ orderId }) => `Order number ${orderId} is already used.`,
  'order.illegal_transition': ({ orderId, from, to, allowedFrom }, say) =>
    allowedFrom.length > 0
      ? `Order ${orderId} is ${say.state(from)}: only an order that is ${say.either(allowedFrom.map(say.state))} can become ${say.state(to)}.`
      : `Order ${orderId} is ${say.state(from)}: no order can become ${say.state(to)}.`,
  'order.reason_rule': ({ min, max }) => `Give a reason of ${min} to ${max} characters.`,
  'order.not_awaiting_payment': ({ orderId, state }, say) =>
    `Order ${orderId} is ${say.state(state)}: only an order waiting for payment can be paid.`,
  'order.late_payment_state': ({ orderId, state }, say) =>
    `Order ${orderId} is ${say.state(state)}: a late payment is kept only on a cancelled, expired, failed or rejected order.`,
  'order.bad_day': ({ day }) => `${day} is not a date.`,
  'sale.waiting': ({ orderId, unknown }) =>
    unknown
      ? `Another sale (${orderId}) is still open: its outcome is not known. Finish it, cancel it or park it first.`
      : `Another sale (${orderId}) is still waiting for payment. Finish it, cancel it or park it first.`,
  'sale.held': ({ orderId }) =>
    `The outcome of order ${orderId} is not known yet: it may have been charged, so no other payment ` +
    '(cash, card or QR) is taken until it is settled. Check it again, or ask a manager (Manager → Attention).',
  'sale.in_flight': ({ orderId }) =>
    `Another charge (${orderId}) is being sent right now: wait for its answer. Nothing was taken for this one.`,
  'sale.sign_in_required': () =>
    'Sign in at the till first: this store asks every cashier for their PIN before charging.',
  'sale.simulate_training_only': () => 'Payments can be simulated in training mode only.',
  'sale.sandbox_restarted': () =>
    'The training gateway was restarted and no longer knows this order: cancel it and charge again.',

  'pin.format': ({ min, max }) => `A PIN is ${min} to ${max} digits.`,
  'staff.name_rule': ({ min, max }) => `A name of ${min} to ${max} characters.`,
  'staff.name_characters': () => 'A name has letters, digits, spaces and punctuation only.',
  'staff.role': () => 'The role is cashier or manager.',
  'staff.not_found': () => 'This member of staff was not found.',
  'staff.duplicate_name': ({ name, former }) =>
    former
      ? `${name} is the name of a former member of staff: reactivate them, or choose another name.`
      : `There is already a member of staff called ${name}: choose another name.`,
  'staff.last_manager': ({ name, action }) =>
    `${name} is the only active manager and cannot be ` +
    `${{ remove: 'removed', demote: 'made a cashier', deactivate: 'deactivated' }[action]}: make another member of ` +
    `staff a manager first.`,
  'manager.exists': () => 'Loket already has a manager; a manager adds staff on the manager screens.',
  'manager.locked': () => 'The manager screens are locked: enter a manager PIN.',

  'settings.unknown_field': ({ field }) => `${field} is not a setting Loket knows.`,
  'settings.open_orders': ({ count, what }) =>
    `${orders(count)} still being sent, waiting for payment or unknown: settle or cancel them before you ${openWhat[what]}.`,
  'settings.remove_gateway_live': () => 'The gateway cannot be removed in live mode: switch back to training first.',
  'mode.open_orders': ({ count, mode, to }) =>
    `${orders(count)} still open in ${modeName[mode]} mode (being sent, waiting for payment or unknown): finish ` +
    `them first — wait for payment or expiry, cancel them, or resolve the unknown ones — then switch to ${modeName[to]}.`,
  'mode.needs_gateway': () =>
    'Live mode needs a gateway: enter its address, appid and appkey, save them, and test the connection first.',
  'mode.confirm': ({ baseUrl }) => `To switch to live, type the gateway's address exactly: ${baseUrl}`,
  'live.keychain': ({ problem }) => `Live mode cannot read the appkey: ${keychainEn[problem]}.`,
  'live.secret_missing': ({ secret }) =>
    `Live mode cannot start: no ${secret === 'appkey' ? 'appkey' : 'signing secret'} is stored. Enter it under Gateway and save it first.`,
  'live.plain_http': () =>
    'Live mode cannot start: the gateway address is plain http:// on another machine. Use https://, or allow http on purpose under Gateway.',
  'live.start_failed': () => 'Live mode could not start; the log has the details.',
  'keychain.unavailable': ({ problem }) => `The system's keychain cannot be used: ${keychainEn[problem]}.`,
  'gateway.not_configured': () => "Enter and save the gateway's address and appid first.",

  'print.done': ({ printer, what }) => {
    const on = printer ? ` on ${printer}` : '';
    return {
      receipt: 'Receipt printed.',
      copy: 'Copy printed.',
      test: `The test page printed${on}.`,
      report: `The day's report printed${on}.`,
      slip: 'Payment slip printed.',
    }[what];
  },
  'print.no_printer': ({ what }) =>
    ({
      receipt: 'No printer is set up: print from this screen instead.',
      test: 'No printer is set up: receipts print from the screen.',
      report: 'No printer is set up: print the A4 page from the screen instead.',
      slip: 'No printer is set up: print from this screen instead.',
    })[what],
  'print.failed': ({ printer, problem }) => print[problem](printer ? ` ${printer}` : ''),

  'shift.none_open': () => 'No shift is open on this till: open a shift with its float first.',
  'shift.already_open': ({ shiftId }) => `A shift is already open on this till (${shiftId}): close it first.`,
  'shift.not_found': ({ shiftId }) => `There is no shift ${shiftId}.`,
  'shift.sales_being_paid': ({ sales }, say) => {
    const named = sales.map((x) =>
      x.orderId
        ? `${x.serial} (${x.methodId ? say.method(x.methodId) : 'digital payment'} ${x.orderId}: ` +
          `${x.orderState ? say.state(x.orderState) : 'not found'})`
        : x.serial,
    );
    const unknown = sales.some((x) => x.orderState === 'unknown');
    return (
      `The shift cannot be closed while ${sales.length === 1 ? 'a sale is' : 'sales are'} still being paid: ` +
      `${named.join(', ')}. Wait for the payment, check it again on the payment screen, or void the sale` +
      `${unknown ? ' (an unknown payment is for a manager to decide)' : ''}; then close the shift.`
    );
  },
  'shift.field_rule': ({ field, rule, min, max }, say) =>
    rule === 'amount' && min !== undefined && max !== undefined
      ? `${field}: whole rupiah from ${say.rupiah(min)} to ${say.rupiah(max)}.`
      : `${field}: ${shiftRuleEn[rule] ?? 'not allowed here'}.`,
  'shift.manager_pin': ({ refusal }) =>
    refusal === 'locked_out'
      ? 'PIN entry is locked for a while after too many wrong PINs.'
      : refusal === 'not_a_manager'
        ? 'That member of staff is not a manager: a manager must approve this.'
        : refusal === 'pin_required'
          ? "This needs a manager's PIN."
          : "The manager's PIN is not right.",
  'drawer.opened': () => 'The cash drawer opened.',
  'drawer.no_printer': () =>
    'No receipt printer is set up, so the cash drawer cannot be opened by Loket: open it by hand.',
  'drawer.system_printer': () =>
    "The cash drawer cannot be opened through this computer's printer: open it by hand (or use a network printer).",
  'drawer.failed': ({ printer, problem }) =>
    `The cash drawer did not open: ${print[problem](printer ? ` ${printer}` : '')}`,
  'day.shift_open': ({ day, shiftId, businessDay }, say) =>
    `${say.day(day)} cannot be closed while shift ${shiftId} (opened ${say.day(businessDay)}) is open: close the shift with its count first.`,
  'books.bad_query': ({ field }) => `The books cannot answer this request (${field}).`,
  'day.not_begun': ({ day }, say) =>
    `${say.day(day)} has not begun yet in the store's time zone: a day can be closed from the day itself on.`,
  'day.already_closed': ({ day, closedAt, by }, say) =>
    `${say.day(day)} was already closed at ${say.time(closedAt)} by ${by}; changes since are listed after closing.`,
  'store.not_enrolled': () => 'This till is not enrolled in a store book: only its own books can be shown.',
  'store.unreachable': () => "The store book cannot be reached now: try again, or show this till's own books.",
  'attention.issue_not_found': () => 'This callback problem was not found.',
  'attention.already_acknowledged': ({ orderId }) => `This was dealt with meanwhile (${orderId}).`,
  'attention.nothing_to_acknowledge': ({ orderId }) =>
    `Order ${orderId} has no late payment or callback problem to acknowledge.`,
  'attention.does_not_fit': ({ orderId, state }, say) =>
    `Order ${orderId} is ${say.state(state)}: this action is for an order whose outcome is unknown or that is past its deadline.`,
  'attention.only_acknowledge': ({ orderId }) =>
    `Order ${orderId} is not in this till: a callback problem about it can only be acknowledged.`,
  'attention.no_inquiry': ({ orderId, state }, say) =>
    `This gateway has no status inquiry, so order ${orderId} (${say.state(state)}) cannot be checked from here: ` +
    `look it up at the gateway, then mark it paid or cancel it.`,
  'attention.now': ({ orderId, state }, say) => `Order ${orderId} is now ${say.state(state)}.`,
  'attention.late_acknowledged': ({ orderId }) => `The late payment of ${orderId} is acknowledged.`,
  'attention.problems_acknowledged': ({ count }) =>
    count === 1 ? 'The callback problem is acknowledged.' : `${count} callback problems are acknowledged.`,
  'attention.inquiry_failed': ({ orderId }) =>
    `The gateway's status inquiry for ${orderId} did not work; try again later.`,
  'attention.still_waiting': ({ orderId }) =>
    `The gateway still waits for payment of ${orderId}: cancel it, or mark it paid when the money is seen.`,
  'attention.kept_late': ({ orderId, status, state }, say) =>
    `The gateway says ${status}: kept as a late payment on order ${orderId}, which stays ${say.state(state)}.`,
  'attention.stays': ({ orderId, status, state }, say) =>
    `The gateway says ${status}; order ${orderId} stays ${say.state(state)}.`,
  'attention.set_aside': ({ orderId }) => `Order ${orderId} stays unknown and in the queue; the till may sell again.`,
  'attention.set_aside_unknown_only': ({ orderId, state }, say) =>
    `Order ${orderId} is ${say.state(state)}: only an order whose outcome is unknown can be set aside.`,
  'attention.closed': ({ orderId, status }) =>
    `The gateway says ${status}: order ${orderId}, cancelled in Loket, is closed there too.`,
  'attention.mismatch_acknowledged': ({ orderId }) => `The mismatching answer for ${orderId} is acknowledged.`,
  'attention.mismatch_not_applied': ({ orderId }) =>
    `The gateway's answer does not match order ${orderId} (another order, amount or method): not applied.`,
  'attention.still_unknown': ({ orderId }) => `The outcome of ${orderId} is still not known.`,
  'attention.item.unknown': ({ amount, methodId }, say) =>
    `Sent, but its outcome is not known: it may have been charged (${say.rupiah(amount)}, ${say.method(methodId)}).`,
  'attention.item.late_payment': ({ amount, methodId, state }, say) =>
    `Paid after it was ${say.state(state)}: the money is somewhere (${say.rupiah(amount)}, ${say.method(methodId)}).`,
  'attention.item.overdue': ({ amount, methodId }, say) =>
    `Still waiting for payment past its deadline: the gateway never said (${say.rupiah(amount)}, ${say.method(methodId)}).`,
  'attention.item.mismatch': ({ amount, methodId }, say) =>
    `The gateway answered with another order, amount or method: not applied (${say.rupiah(amount)}, ${say.method(methodId)}).`,
  'attention.item.unknown_order': ({ status, amount }, say) =>
    `An authentic ${status}${amount === undefined ? '' : ` ${say.rupiah(amount)}`} callback for an order this till does not have.`,
  'attention.item.amount_mismatch': ({ status, amount, orderAmount }, say) =>
    `A ${status} callback reports ${amount === undefined ? 'another amount' : say.rupiah(amount)}, but the order is ` +
    `for ${say.rupiah(orderAmount)}: not applied.`,
  'attention.item.not_forward': ({ status, state }, say) =>
    `The gateway reported ${status} while the order is ${state ? say.state(state) : 'in another state'}: ignored.`,

  'probe.no_appkey': () =>
    'No appkey is stored yet, so Loket did not contact the gateway. Enter the appkey the gateway gave you, save it, then test again.',
  'probe.no_signing_secret': () =>
    'The signature uses a separate signing secret and none is stored, so Loket did not contact the gateway. Enter ' +
    'the signing secret (or sign with the appkey), then test again.',
  'probe.secrets_unreadable': () =>
    "The credentials could not be read from the system's keychain, so Loket did not contact the gateway. Unlock or repair the keychain, then test again.",
  'probe.not_sent': ({ baseUrl, code }) =>
    `Could not reach ${baseUrl} (${code}). Check the address and this computer's network connection, then test again.`,
  'probe.tls': ({ baseUrl, code }) =>
    `Reached ${baseUrl}, but its TLS certificate was not accepted (${code}). Check the address: the host name must match the certificate.`,
  'probe.timeout': ({ baseUrl, seconds }) =>
    `No answer from ${baseUrl} within ${seconds} s. The gateway may be down or the address wrong.`,
  'probe.broken': ({ baseUrl, code }) =>
    `The connection to ${baseUrl} broke before an answer came (${code}). Check the address (http or https?) and the network.`,
  'probe.unknown_appid': ({ appId }) =>
    `The gateway does not know the appid "${appId}". Check it (letter case counts) against what the gateway gave you.`,
  'probe.bad_key': ({ appId }) =>
    `The gateway knows the appid "${appId}", but the appkey stored is not the one it has for it. Enter the appkey ` +
    `again, exactly as the gateway gave it.`,
  'probe.bad_signature': ({ key, encoding }) =>
    `The appid and appkey are accepted, but the signature is not. Check the signature settings (now: ` +
    `${key === 'appkey' ? 'the appkey' : 'a separate signing secret'}, ${encoding}) against the gateway's instructions.`,
  'probe.refused': ({ status, retcode }) =>
    `The gateway did not accept the credentials (${http(status, retcode)}). Check the appid, the appkey and the signature settings.`,
  'probe.inquiry_found': ({ probeId, path }) =>
    `The credentials were accepted, but the gateway says it has an order ${probeId}, which Loket never created. ` +
    `Check that the status inquiry path (${path}) is the gateway's, and tell the gateway's support.`,
  'probe.create_accepted': ({ probeId }) =>
    `The credentials were accepted, but the gateway ACCEPTED a test order it should have refused (${probeId}, ` +
    `amount 0). Cancel that order at the gateway and tell its support; if the gateway has a status inquiry, set its ` +
    `path so that the test uses it.`,
  'probe.ok_inquiry': ({ probeId }) =>
    `Connected: the gateway accepts the appid, the appkey and the signature. Loket asked about an order that cannot ` +
    `exist (${probeId}) and the gateway answered "not found", as it should. Nothing was created.`,
  'probe.ok_create': ({ probeId, retcode }) =>
    `Connected: the gateway accepts the appid, the appkey and the signature. It refused Loket's deliberately ` +
    `invalid test order (${probeId}) for its fields (retcode ${retcode}), as it should. Nothing was created.`,
  'probe.redirect': ({ status, location }) =>
    `The gateway answered with a redirect (HTTP ${status}${location ? ` to ${location}` : ''}). Check the address: ` +
    `https instead of http, or a missing path.`,
  'probe.server_error': ({ status, retcode }) =>
    `The gateway failed to answer (${http(status, retcode)}): it may be down for maintenance. Try again later.`,
  'probe.not_json': ({ status, url, inquiry }) =>
    `${url} answered HTTP ${status} with something that is not the gateway's answer. Check ${inquiry ? 'the status inquiry path' : 'the address'}.`,
  'probe.no_endpoint': ({ path, status, inquiry }) =>
    `The gateway has no endpoint ${path} (HTTP ${status}). Check ${inquiry ? 'the status inquiry path' : 'the address'}.`,
  'probe.unexpected': ({ status, retcode }) =>
    `The gateway's answer was not one the test expects (${http(status, retcode)}); the credentials could not be confirmed.`,

  'save.done': ({ path }) => `Saved: ${path}`,
  'save.cancelled': () => 'Not saved: the save dialog was cancelled.',
  'save.gone': () => 'This export is gone (saved already, or too old): export again.',
  'save.failed': () => 'Not saved: the file could not be written (a full disk, or a USB stick taken out?).',
};
