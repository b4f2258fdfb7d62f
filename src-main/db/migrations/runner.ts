import type { Database } from 'better-sqlite3';
import { registerSqlFunctions } from '../sql-functions';
import type { Migration } from './migration';
import { MIGRATIONS } from './registry';

/**
 * Applies the migrations of the registry (docs/orders.md, "The order log"; docs/architecture.md, "Seams").
 *
 * Which migrations a database has is recorded in `schema_migrations`, one row per version, made by this runner.
 * Migrations are numbered with gaps so that branches written in parallel never renumber each other's; one of them
 * may land after another numbered above it was released, so every registered migration not yet applied runs, in
 * order of number, even one below the highest applied. `PRAGMA user_version` stays the highest applied version, so
 * a Loket of before this table still refuses a file newer than itself.
 */

/** The runner's own record of the versions applied (not a migration: it exists before the first one runs). */
const APPLIED_TABLE_SQL = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY CHECK (version >= 1),
    name       TEXT NOT NULL CHECK (length(name) >= 1),
    -- NULL for a version the database had before this table existed: when it was applied is not known.
    applied_at TEXT CHECK (applied_at IS NULL OR applied_at GLOB
      '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z')
  ) STRICT;
`;

/** Rows of the previous version that a migration cannot carry over; the database is left as it was. */
export class MigrationBlockedError extends Error {
  constructor(
    readonly version: number,
    readonly migrationName: string,
    /** One line per refused row, as the migration's `refuse` query describes it. */
    readonly problems: readonly string[],
    /** The database's schema version, which it keeps. */
    readonly stays: number = version - 1,
  ) {
    const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
    const more = problems.length - shown.length;
    super(
      `migration ${version} (${migrationName}) cannot carry over ${problems.length} row${problems.length === 1 ? '' : 's'} ` +
        `of this database, so nothing was changed and it stays at version ${stays}: ${shown.join('; ')}` +
        (more > 0 ? `; and ${more} more` : '') +
        '. Keep a copy of the file, and have these rows repaired before opening it with this Loket again.',
    );
    this.name = 'MigrationBlockedError';
  }
}

const MAX_PROBLEMS_SHOWN = 20;

/**
 * The file was written by a newer Loket: its version is above the highest this one knows, or it has a migration
 * this one lacks (`unknown`: a Loket built from another branch, whose numbers fall between this one's).
 */
export class SchemaTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
    readonly unknown: readonly number[] = [],
  ) {
    const what =
      unknown.length === 0
        ? `the database has schema version ${found}, but this Loket knows only up to version ${known}`
        : `the database has migration${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}, which this Loket ` +
          `does not have (its migrations go up to version ${known})`;
    super(
      `${what}: it was written by a newer Loket. Install that version (or newer), or open a backup made by this one.`,
    );
    this.name = 'SchemaTooNewError';
  }
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function hasAppliedTable(db: Database): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined
  );
}

/**
 * The versions applied to the database, ascending. A database the runner of before `schema_migrations` made (its
 * migrations were numbered 1, 2, 3 … without gaps) has every version from 1 to its user_version.
 */
export function appliedVersions(db: Database): number[] {
  if (hasAppliedTable(db))
    return db.prepare<[], number>('SELECT version FROM schema_migrations ORDER BY version').pluck().all();
  return Array.from({ length: schemaVersion(db) }, (_, i) => i + 1);
}

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (!Number.isInteger(m.version) || m.version < 1)
      throw new Error(`migration list: version ${m.version} (${m.name}) is not a whole number from 1`);
    const before = migrations[i - 1];
    if (before !== undefined && m.version <= before.version)
      throw new Error(
        `migration list out of order: version ${m.version} (${m.name}) comes after version ${before.version}`,
      );
  });
}

/**
 * The migrations of `migrations` the database lacks, in order of number; reads only, so a read-only connection
 * may ask. Throws SchemaTooNewError for a file written by a newer Loket (see the class).
 */
export function pendingMigrations(db: Database, migrations: readonly Migration[] = MIGRATIONS): Migration[] {
  checkOrder(migrations);
  const known = migrations.at(-1)?.version ?? 0;
  const version = schemaVersion(db);
  if (version > known) throw new SchemaTooNewError(version, known);
  const applied = new Set(appliedVersions(db));
  const registered = new Set(migrations.map((m) => m.version));
  const unknown = [...applied].filter((v) => !registered.has(v));
  if (unknown.length > 0) throw new SchemaTooNewError(version, known, unknown);
  return migrations.filter((m) => !applied.has(m.version));
}

/**
 * Applies the migrations the database lacks, each in its own IMMEDIATE transaction together with its row in
 * schema_migrations and the user_version it leaves, so a crash leaves the database with whole migrations only.
 * Returns the versions (user_version) before and after. `migrations` defaults to the registry; tests pass a part of
 * it to stop at an older version, or lists of their own. `now` dates each row of schema_migrations.
 */
export function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
  now: () => Date = () => new Date(),
): { from: number; to: number } {
  const from = schemaVersion(db);
  const pending = pendingMigrations(db, migrations);
  if (!hasAppliedTable(db)) db.transaction(() => recordAppliedSoFar(db, migrations)).immediate();
  // What migration 7's SQL calls (a hash, canonical JSON, UUIDv7s): on this connection only.
  if (pending.length > 0) registerSqlFunctions(db);

  for (const m of pending) {
    db.transaction(() => {
      // Read again under the write lock: another process opening the same file may have got here first (or a
      // newer Loket may have been there since).
      if (!pendingMigrations(db, migrations).includes(m)) return;
      const current = schemaVersion(db);
      if (m.refuse !== undefined) {
        const problems = db.prepare<[], string>(m.refuse).pluck().all();
        if (problems.length > 0) throw new MigrationBlockedError(m.version, m.name, problems, current);
      }
      try {
        db.exec(m.sql);
      } catch (err) {
        throw new Error(`migration ${m.version} (${m.name}) failed: ${(err as Error).message}`, { cause: err });
      }
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        now().toISOString(),
      );
      if (m.version > current) db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
  return { from, to: schemaVersion(db) };
}

/** Makes schema_migrations, with a row for each version a database of the runner before it has (undated). */
function recordAppliedSoFar(db: Database, migrations: readonly Migration[]): void {
  if (hasAppliedTable(db)) return;
  // Under the write lock, so checked again: another process may have moved the versions on since.
  pendingMigrations(db, migrations);
  const applied = new Set(appliedVersions(db));
  db.exec(APPLIED_TABLE_SQL);
  const insert = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, NULL)');
  for (const m of migrations) if (applied.has(m.version)) insert.run(m.version, m.name);
}
