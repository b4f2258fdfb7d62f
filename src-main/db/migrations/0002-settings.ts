import type { Migration } from './migration';
import { isoUtc } from './sql-helpers';

export const MIGRATION_2: Migration = {
  version: 2,
  name: 'settings (non-secret; secrets live in the OS keychain)',
  sql: `
      CREATE TABLE settings (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL CHECK (json_valid(value)),
        updated_at TEXT NOT NULL CHECK (${isoUtc('updated_at')})
      );
    `,
};
