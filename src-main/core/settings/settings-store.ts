import type { Database, Statement } from 'better-sqlite3';
import { DEFAULT_SETTINGS, settingsSchema, type LoketSettings } from '../../common/settings';
import { systemClock, type Clock } from '../ports';

/** The key under which `LoketSettings` are stored. */
export const SETTINGS_KEY = 'settings';

// Secrets live in the SecretStore (the OS keychain in the app), never in this file. A key named like one
// is refused, so that a slip (`set('appkey', …)`) fails at once instead of writing a secret to disk.
const SECRET_LIKE_KEY = /app-?key|secret|password|passphrase|token|credential/i;

/**
 * Loket's non-secret settings: JSON values by key in the `settings` table of the store's database
 * (docs/orders.md, "The order log"). Each write is its own IMMEDIATE transaction, as the order log's
 * are; inside a transaction already open on the same connection it joins it as a savepoint.
 */
export class SettingsStore {
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock = systemClock,
  ) {}

  get<T>(key: string): T | undefined {
    const row = this.stmt<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key);
    return row === undefined ? undefined : (JSON.parse(row.value) as T);
  }

  /** Non-secret settings only: secrets belong in the OS keychain, never in this file. */
  set(key: string, value: unknown): void {
    if (SECRET_LIKE_KEY.test(key))
      throw new Error(`setting ${key}: secrets are kept in the keychain, never in the settings table`);
    const json = JSON.stringify(value);
    if (json === undefined) throw new Error(`setting ${key}: value cannot be stored as JSON`);
    const write = this.db.transaction(() =>
      this.stmt(
        `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ).run(key, json, this.clock.now().toISOString()),
    );
    if (this.db.inTransaction) write();
    else write.immediate();
  }

  /**
   * The settings, validated, with a default for every field not stored; none stored gives the defaults.
   * Stored settings that are not valid are an error naming each problem, never silently replaced.
   */
  load(): LoketSettings {
    const stored = this.get<unknown>(SETTINGS_KEY);
    if (stored === undefined) return DEFAULT_SETTINGS;
    const parsed = settingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...withMode(stored) });
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(
        `the stored settings are not valid (${problems}); fix them with the manager screen or reset them`,
      );
    }
    return parsed.data;
  }

  private stmt<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  }
}

/**
 * Settings stored before `mode` existed meant live whenever they had a gateway (Loket then ran against the
 * configured gateway and against the embedded sandbox only without one), so a missing `mode` keeps that meaning.
 */
function withMode(stored: unknown): object {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return stored as object;
  const s = stored as Record<string, unknown>;
  if ('mode' in s) return s;
  return { ...s, mode: s.gateway !== undefined && s.gateway !== null ? 'live' : 'training' };
}
