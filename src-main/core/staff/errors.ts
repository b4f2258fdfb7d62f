import { OrderRuleError } from '../../common/order-policy';
import { reason, type Reason } from '../../common/reasons';
import { PIN_MAX_DIGITS, PIN_MIN_DIGITS, STAFF_NAME_MAX } from '../../common/staff';

/**
 * A broken rule about staff, PINs or manager mode. It extends OrderRuleError so that `toApiError`
 * (common/api.ts) reports it with its `code` and message, as it does the order rules; no message ever
 * holds a PIN or a hash.
 */
export abstract class StaffRuleError extends OrderRuleError {}

export class InvalidPinError extends StaffRuleError {
  readonly code = 'invalid_arguments';
  constructor(rule: string) {
    super(rule);
    this.name = 'InvalidPinError';
    this.because(reason('pin.format', { min: PIN_MIN_DIGITS, max: PIN_MAX_DIGITS }));
  }
}

export class InvalidStaffError extends StaffRuleError {
  readonly code = 'invalid_arguments';
  constructor(message: string, why: Reason = reason('staff.name_rule', { min: 1, max: STAFF_NAME_MAX })) {
    super(message);
    this.name = 'InvalidStaffError';
    this.because(why);
  }
}

export class StaffNotFoundError extends StaffRuleError {
  readonly code = 'not_found';
  constructor(readonly staffId: unknown) {
    super(`no staff member ${String(staffId)}`);
    this.name = 'StaffNotFoundError';
    this.because(reason('staff.not_found'));
  }
}

export class DuplicateStaffNameError extends StaffRuleError {
  readonly code = 'conflict';
  constructor(
    readonly staffName: string,
    /** The name belongs to a former member of staff (deactivated, kept for the records). */
    readonly formerStaff: boolean,
  ) {
    super(
      formerStaff
        ? `${staffName} is the name of a former member of staff; reactivate them, or choose another name`
        : `there is already a member of staff called ${staffName}; choose another name`,
    );
    this.name = 'DuplicateStaffNameError';
    this.because(reason('staff.duplicate_name', { name: staffName, former: formerStaff }));
  }
}

/** Loket always keeps one active manager: without one, nobody could change settings or add staff. */
export class LastManagerError extends StaffRuleError {
  readonly code = 'conflict';
  constructor(
    readonly staffName: string,
    action: 'remove' | 'demote' | 'deactivate',
  ) {
    const what = { remove: 'removed', demote: 'made a cashier', deactivate: 'deactivated' }[action];
    super(
      `${staffName} is the only active manager and cannot be ${what}: make another member of staff a manager first`,
    );
    this.name = 'LastManagerError';
    this.because(reason('staff.last_manager', { name: staffName, action }));
  }
}

/** First-use setup of the manager PIN, when a manager already exists. */
export class ManagerExistsError extends StaffRuleError {
  readonly code = 'conflict';
  constructor() {
    super('Loket already has a manager; a manager adds staff from the manager screen');
    this.name = 'ManagerExistsError';
    this.because(reason('manager.exists'));
  }
}

/** Manager mode is locked: never unlocked, unlocked too long ago without use, locked, or Loket restarted. */
export class ManagerLockedError extends StaffRuleError {
  readonly code = 'locked';
  constructor(message = 'manager mode is locked: enter a manager PIN') {
    super(message);
    this.name = 'ManagerLockedError';
    this.because(reason('manager.locked'));
  }
}
