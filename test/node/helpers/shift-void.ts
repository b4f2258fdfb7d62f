import { MIGRATION_30 } from '../../../src-main/db/migration-30-shift-void';
import type { Database } from '../../../src-main/db/open';

/**
 * Migration 30 (shift_events takes `cash_void`) on a test's database, until the migrations' list holds numbers with
 * gaps (src-main/db/migrations/) and it joins them: then openDatabase takes it, and this goes.
 */
export function takeMigration30(db: Database): Database {
  db.transaction(() => db.exec(MIGRATION_30.sql)).immediate();
  return db;
}
