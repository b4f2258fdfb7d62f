import type { LoketApi } from '../../../src-main/common/api';
import type { ManagerView } from '../../../src-main/common/manager';
import type { Reason, RuleParams } from '../../../src-main/common/reasons';
import type { CallError } from '../api/errors';

/** A manager call's outcome: its value, or the error (a `locked` one has already locked the screens). */
export type CallOutcome<T> = { ok: true; value: T } | { ok: false; error: CallError };

/**
 * What the manager's section editors need from the unlocked session: the view to start from, a way to call
 * the API with the session's token (which they never see), and a way to hand back a newer view.
 */
export interface ManagerContext {
  readonly view: ManagerView | null;
  call<T>(fn: (api: LoketApi, token: string) => Promise<T>): Promise<CallOutcome<T>>;
  applyView(view: ManagerView): void;
}

/**
 * A problem with one field, the server's (`field` is its settings path; SettingsIssue) or found here before
 * sending. The screen words it from `field` and `params` (the field's rule), or from `reason`; the server's
 * `message` is English for the log and never shown.
 */
export interface EditorIssue {
  field: string;
  message: string;
  params?: RuleParams;
  reason?: Reason;
  /** Found here: `message` is ours, not the server's. */
  local?: boolean;
}
