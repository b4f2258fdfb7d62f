import type { Database } from 'better-sqlite3';
import type { LoketSettings } from '../../common/settings';
import type { AuditActor, AuditAction, AuditLog } from '../audit/audit-log';
import type { FieldChange } from './settings-changes';
import { SETTINGS_KEY, type SettingsStore } from './settings-store';

/** Where a settings change is saved and audited: the store's books (runtime.ts's StoreBooks has them). */
export interface SettingsBooks {
  readonly db: Database;
  readonly settings: SettingsStore;
  readonly audit: AuditLog;
}

/** What a settings change is audited as: each field as `settings.changed`, or the whole change by name. */
export type SettingsChangeAction = Extract<
  AuditAction,
  'settings.changed' | 'mode.changed' | 'method.enabled' | 'method.disabled' | 'methods.imported'
>;

/**
 * Saves a change worked out by settings-changes.ts (changeSection, modeSwitch, toggleMethod, replaceMethods,
 * resetMethods) with one audit event per changed field, in one transaction: both are written, or neither is.
 * `action` names the whole change (a mode switch, an import); without it each field is `settings.changed`.
 * A change that changed nothing writes nothing. The one place the manager's screens (ManagerService) and the
 * CLI save settings, so a change reads the same in the audit log whoever made it.
 *
 * Inside a transaction already open on the connection it joins it (a savepoint), so a caller can save other
 * events with it (`secret.set` after a gateway change, say); otherwise it is its own IMMEDIATE transaction.
 */
export function saveSettingsChange(
  books: SettingsBooks,
  actor: AuditActor,
  change: { readonly next: LoketSettings; readonly changed: readonly FieldChange[] },
  action: SettingsChangeAction = 'settings.changed',
): boolean {
  if (change.changed.length === 0) return false;
  const write = books.db.transaction(() => {
    books.settings.set(SETTINGS_KEY, change.next);
    for (const { field, from, to } of change.changed)
      books.audit.record({ actor, action, field, detail: { from, to } });
  });
  if (books.db.inTransaction) write();
  else write.immediate();
  return true;
}
