import type { ConnectionReport, SecretName } from '../../common/manager';
import type { AuditActor } from '../audit/audit-log';
import type { SecretStore } from '../ports';
import { saveSettingsChange, type SettingsBooks } from './save-change';
import type { FieldChange } from './settings-changes';
import type { LoketSettings } from '../../common/settings';

/**
 * Saves a settings change (the gateway's, or none) with the secrets given, in one order of writes for every caller
 * (the CLI's set-gateway and set-secret, the manager's setSecret): the secrets first, into the keychain — if it
 * cannot take them all, those written are put back and nothing else is written; then the settings and the audit
 * events (`secret.set` per secret, never its value) in one transaction — if that fails, the secrets are put back.
 * Throws what failed (the keychain's SecretStoreUnavailableError, the database's error).
 */
export async function saveWithSecrets(
  books: SettingsBooks,
  keychain: SecretStore,
  actor: AuditActor,
  change: { readonly next: LoketSettings; readonly changed: readonly FieldChange[] } | null,
  given: readonly (readonly [SecretName, string])[],
): Promise<void> {
  const before = new Map<SecretName, string | undefined>();
  try {
    for (const [name] of given) before.set(name, await keychain.get(name));
    for (const [name, value] of given) await keychain.set(name, value);
  } catch (err) {
    await restoreSecrets(keychain, before);
    throw err;
  }
  try {
    books.db
      .transaction(() => {
        if (change) saveSettingsChange(books, actor, change);
        for (const [name] of given) books.audit.record({ actor, action: 'secret.set', field: name });
      })
      .immediate();
  } catch (err) {
    await restoreSecrets(keychain, before);
    throw err;
  }
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

/** The audit record of a connection test, the same whoever ran it (the CLI's config test, the manager's screen). */
export function recordConnectionTest(books: Pick<SettingsBooks, 'audit'>, actor: AuditActor, report: ConnectionReport) {
  books.audit.record({
    actor,
    action: 'connection.tested',
    detail: {
      verdict: report.verdict,
      method: report.method,
      ...(report.retcode ? { retcode: report.retcode } : {}),
    },
  });
}
