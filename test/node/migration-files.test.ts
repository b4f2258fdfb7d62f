// The migrations as files (src-main/db/migrations/, docs/architecture.md "Seams"): the folder and the registry
// hold the same migrations, released ones are frozen (their SQL pinned by SHA-256), the numbers have gaps, and the
// runner applies every registered migration a database lacks, even one numbered below one already applied, against
// real SQLite files.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Migration } from '../../src-main/db/migrations/migration';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../../src-main/db/migrations/registry';
import {
  appliedVersions,
  MigrationBlockedError,
  migrate,
  pendingMigrations,
  schemaVersion,
  SchemaTooNewError,
} from '../../src-main/db/migrations/runner';
import { registerSqlFunctions } from '../../src-main/db/sql-functions';
import { openDatabase, openDatabaseReadOnly, type Database } from '../../src-main/db/open';
import { FakeClock } from './helpers/fake-clock';

const FOLDER = join(__dirname, '../../src-main/db/migrations');
const MIGRATION_FILE = /^(\d{4})-[a-z0-9]+(-[a-z0-9]+)*\.ts$/;
/** The folder's other modules: the type, the shared SQL pieces, the list, the runner. */
const SUPPORT_FILES = ['migration.ts', 'registry.ts', 'runner.ts', 'sql-helpers.ts'];

/**
 * SHA-256 of each released migration's `sql` (and `refuse`), as released. Released migrations are frozen: an edit
 * fails here. A migration is added here when it is released, never changed after.
 */
const RELEASED: Record<number, { sql: string; refuse?: string }> = {
  1: { sql: 'dd75a8335c2a44d8adf66ef5fc052c99126fcf47f3a12f6034ada615ff636099' },
  2: { sql: '23a2a08c7a1ebae01996dfaed57bf83c52858f82474412a6e0e09ef75feaefa2' },
  3: { sql: 'fcde24ba5175f95d33b8318b323c498e20a153bdc47f425352ac3e2261e8e7b9' },
  4: {
    sql: '8e86444824a13a41756af665f7602e9a15aa3eec3bc9ff8ba33bc02d58eb2f79',
    refuse: '3f5de96f70f024cfa4f0eeef5503f944d74cc42cce6e853168773b8f75ee0396',
  },
  5: { sql: 'efbf9df6578cca0560588dc1dbaa627ac702eae447cf032a2eb51c8bd3b09abb' },
  6: { sql: '65e3a8804e13eaf9cacfbc3a0bb032982d2c58608210a2b8a2378fa3df620ab8' },
  7: { sql: '6387622fd1e240836e7ae8faf831e82785a335ed9c25e995abe32b69eac7376d' },
  8: { sql: '0e64579a1e141d9de5c30acee834016ccc691244a307feb275df3ff8d31d3da7' },
  9: { sql: '17db4fd369edb9244b9f91d9aeed145c3d04ad8ba6e95d06247f07a63527d11a' },
  10: { sql: '3a93d29c3fd8a95efd53c880ba130695a722361b31d990fad1d54897a7d857b1' },
  11: { sql: '4b0d1cf934a1bebc1dad33b01c717b18074a2304575b260a8ffb51aa10012ec5' },
  12: { sql: '5bb4cb2a9d511effa9f4c4d8c0bc59ea81a74d7495467cc8d72038e38a3a916f' },
  13: { sql: '6c16c10f8ea6416af1d1496c589b40a4c3efae012025cc5bd701ccf0b7673f5f' },
  14: { sql: '0c65fdf519477ef91059f26ad6ecbecde10de25a3b545acc95fcd49098aa9822' },
};
/** Numbered 1, 2, 3 … before the numbers had gaps; every later one is a multiple of 10. */
const LAST_CONSECUTIVE = 14;

/**
 * The test's own migrations, numbered above the registry's (20 and 30 while it ends at 14): the one numbered LOW
 * stands for a branch that landed after the one numbered HIGH.
 */
const LOW = LATEST_SCHEMA_VERSION + 6;
const HIGH = LATEST_SCHEMA_VERSION + 16;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const migrationFiles = () => readdirSync(FOLDER).filter((f) => MIGRATION_FILE.test(f));

let dir: string;
const opened: Database[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loket-migration-files-'));
});

afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function rawDb(name = 'loket.db'): Database {
  const db = new BetterSqlite3(join(dir, name));
  opened.push(db);
  db.pragma('foreign_keys = ON');
  return db;
}

/** A migration of the test's own: a table named for its number, with one row. */
function fixture(version: number, refuse?: string): Migration {
  return {
    version,
    name: `fixture ${version}`,
    sql: `CREATE TABLE fixture_${version} (n INTEGER NOT NULL) STRICT; INSERT INTO fixture_${version} VALUES (${version});`,
    ...(refuse === undefined ? {} : { refuse }),
  };
}

function applied(db: Database): { version: number; name: string; applied_at: string | null }[] {
  return db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all() as never;
}

function tables(db: Database): string[] {
  return db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
}

/** The runner of before schema_migrations (migrations 1..N in order, user_version their count), as it was. */
function migrateAsBefore(db: Database, migrations: readonly Migration[]): void {
  registerSqlFunctions(db);
  for (const m of migrations)
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
}

describe('the migration files', () => {
  it('every file of the folder is in the registry, and every registry entry has its file, numbered as named', async () => {
    const files = readdirSync(FOLDER).sort();
    // Nothing else lives here: a migration file misnamed would otherwise go unnoticed (and unapplied).
    expect(files.filter((f) => !MIGRATION_FILE.test(f))).toEqual(SUPPORT_FILES);
    const fromFiles: Migration[] = [];
    for (const file of migrationFiles()) {
      const exports = Object.values((await import(join(FOLDER, file))) as Record<string, Migration>);
      expect(exports, file).toHaveLength(1);
      const m = exports[0]!;
      expect(m.version, file).toBe(Number(MIGRATION_FILE.exec(file)![1]));
      expect(
        MIGRATIONS.filter((r) => r === m),
        `${file} in the registry`,
      ).toHaveLength(1);
      fromFiles.push(m);
    }
    // The same objects, the same count, in the same (ascending) order.
    expect(MIGRATIONS).toEqual(fromFiles);
    expect(MIGRATIONS.every((m, i) => fromFiles[i] === m)).toBe(true);
  });

  it('versions are unique and ascending; 1..14 as released, every later one a multiple of 10', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    expect(versions.filter((v) => v <= LAST_CONSECUTIVE)).toEqual(
      Array.from({ length: LAST_CONSECUTIVE }, (_, i) => i + 1),
    );
    for (const v of versions.filter((v) => v > LAST_CONSECUTIVE)) expect(v % 10, `migration ${v}`).toBe(0);
    expect(LATEST_SCHEMA_VERSION).toBe(Math.max(...versions));
  });

  it("every released migration's SQL is as released, byte for byte (pinned by SHA-256)", () => {
    for (const [version, pin] of Object.entries(RELEASED)) {
      const m = MIGRATIONS.find((r) => r.version === Number(version));
      expect(m, `migration ${version} is still registered`).toBeDefined();
      expect(sha256(m!.sql), `migration ${version}'s sql`).toBe(pin.sql);
      expect(m!.refuse === undefined ? undefined : sha256(m!.refuse), `migration ${version}'s refuse`).toBe(pin.refuse);
    }
  });

  it('no import circle: a migration file imports only the type and the shared SQL pieces, which import nothing', () => {
    const imports = (file: string) =>
      [...readFileSync(join(FOLDER, file), 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    for (const file of migrationFiles())
      for (const from of imports(file)) expect(['./migration', './sql-helpers'], file).toContain(from);
    expect(imports('migration.ts')).toEqual([]);
    expect(imports('sql-helpers.ts')).toEqual([]);
  });
});

describe('the runner, with migrations numbered with gaps', () => {
  it('applies a migration numbered below one already applied, once, keeping user_version the highest', () => {
    const clock = new FakeClock('2025-03-01T03:00:00.000Z');
    // The branch with migration HIGH landed first: the till has it.
    const first = rawDb();
    expect(migrate(first, [...MIGRATIONS, fixture(HIGH)], () => clock.now())).toEqual({ from: 0, to: HIGH });
    first.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('k', '1', ?)").run(clock.now().toISOString());
    first.close();

    // Then the branch with LOW: its registry has both, and the file, at version HIGH, lacks LOW.
    clock.advance(60_000);
    const db = rawDb();
    const registry = [...MIGRATIONS, fixture(LOW), fixture(HIGH)];
    expect(pendingMigrations(db, registry).map((m) => m.version)).toEqual([LOW]);
    expect(migrate(db, registry, () => clock.now())).toEqual({ from: HIGH, to: HIGH });
    expect(db.prepare(`SELECT n FROM fixture_${LOW}`).pluck().all()).toEqual([LOW]);
    expect(db.prepare(`SELECT n FROM fixture_${HIGH}`).pluck().all()).toEqual([HIGH]);
    expect(db.prepare('SELECT key, value FROM settings').all()).toEqual([{ key: 'k', value: '1' }]);
    expect(applied(db)).toEqual([
      ...MIGRATIONS.map((m) => ({ version: m.version, name: m.name, applied_at: '2025-03-01T03:00:00.000Z' })),
      { version: LOW, name: `fixture ${LOW}`, applied_at: '2025-03-01T03:01:00.000Z' },
      { version: HIGH, name: `fixture ${HIGH}`, applied_at: '2025-03-01T03:00:00.000Z' },
    ]);
    expect(schemaVersion(db)).toBe(HIGH);
    db.close();

    // Again: nothing left to do, nothing changed.
    const again = rawDb();
    expect(migrate(again, registry)).toEqual({ from: HIGH, to: HIGH });
    expect(again.prepare(`SELECT COUNT(*) FROM fixture_${LOW}`).pluck().get()).toBe(1);
    expect(appliedVersions(again)).toEqual([...MIGRATIONS.map((m) => m.version), LOW, HIGH]);
  });

  it('refuses a file with a migration its registry lacks (a newer Loket of another branch), and leaves it as it was', () => {
    const db = rawDb();
    migrate(db, [...MIGRATIONS, fixture(LOW), fixture(HIGH)]);
    const before = applied(db);
    const error = (() => {
      try {
        migrate(db, [...MIGRATIONS, fixture(HIGH)]);
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(SchemaTooNewError);
    expect((error as SchemaTooNewError).unknown).toEqual([LOW]);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^the database has migration ${LOW}, which this Loket does not have \\(its migrations go up to version ${HIGH}\\): ` +
          'it was written by a newer Loket',
      ),
    );
    expect(applied(db)).toEqual(before);
    expect(schemaVersion(db)).toBe(HIGH);
  });

  it('a blocked migration below the highest says the database stays at its version, and changes nothing', () => {
    const db = rawDb();
    migrate(db, [...MIGRATIONS, fixture(HIGH)]);
    const blocked = fixture(LOW, `SELECT 'fixture_${HIGH}.n is in the way' AS problem FROM fixture_${HIGH}`);
    const error = (() => {
      try {
        migrate(db, [...MIGRATIONS, blocked, fixture(HIGH)]);
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(MigrationBlockedError);
    expect((error as Error).message).toBe(
      `migration ${LOW} (fixture ${LOW}) cannot carry over 1 row of this database, so nothing was changed and it ` +
        `stays at version ${HIGH}: fixture_${HIGH}.n is in the way. Keep a copy of the file, and have these rows ` +
        'repaired before opening it with this Loket again.',
    );
    expect(tables(db)).not.toContain(`fixture_${LOW}`);
    expect(appliedVersions(db)).not.toContain(LOW);
    expect(schemaVersion(db)).toBe(HIGH);
  });

  it('a database made at version 14 by the runner of before migrates to the latest, with its data', () => {
    const path = join(dir, 'loket.db');
    const old = rawDb();
    migrateAsBefore(
      old,
      MIGRATIONS.filter((m) => m.version <= 14),
    );
    old
      .prepare("INSERT INTO settings (key, value, updated_at) VALUES ('store.name', '\"Toko Sri\"', ?)")
      .run('2025-03-01T03:00:00.000Z');
    old
      .prepare(
        `INSERT INTO staff (name, role, pin_hash, active, created_at, updated_at)
         VALUES ('Sri', 'manager', 'scrypt$x', 1, '2025-03-01T03:00:00.000Z', '2025-03-01T03:00:00.000Z')`,
      )
      .run();
    expect(schemaVersion(old)).toBe(14);
    expect(tables(old)).not.toContain('schema_migrations');
    old.close();

    // As Loket opens it: the registry's migrations above 14 run; 1..14 count as applied (when is not known).
    const db = openDatabase(path);
    opened.push(db);
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(applied(db).filter((r) => r.version <= 14)).toEqual(
      MIGRATIONS.filter((m) => m.version <= 14).map((m) => ({ version: m.version, name: m.name, applied_at: null })),
    );
    expect(appliedVersions(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(db.prepare('SELECT key, value FROM settings').all()).toEqual([{ key: 'store.name', value: '"Toko Sri"' }]);
    expect(db.prepare('SELECT name, role FROM staff').all()).toEqual([{ name: 'Sri', role: 'manager' }]);
    // The same schema as a database this Loket makes new.
    const fresh = openDatabase(join(dir, 'new.db'));
    opened.push(fresh);
    const schema = (d: Database) =>
      d.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name').all();
    expect(schema(db)).toEqual(schema(fresh));

    // And a migration added after runs on it too, with the data still there.
    expect(migrate(db, [...MIGRATIONS, fixture(LOW)])).toEqual({ from: LATEST_SCHEMA_VERSION, to: LOW });
    expect(db.prepare('SELECT COUNT(*) FROM staff').pluck().get()).toBe(1);
  });

  it('a file of the runner of before at a version its registry lacks is too new', () => {
    const db = rawDb();
    migrateAsBefore(db, [...MIGRATIONS.filter((m) => m.version <= 14), fixture(15)]);
    expect(() => migrate(db)).toThrow(SchemaTooNewError);
    expect(() => migrate(db, [...MIGRATIONS, fixture(HIGH)])).toThrow(/has migration 15, which this Loket does not/);
    expect(tables(db)).not.toContain('schema_migrations');
  });

  it('the read-only open calls a file that lacks a migration below its version older, until Loket opens it', () => {
    const path = join(dir, 'loket.db');
    const db = openDatabase(path);
    // As if migration 9 (a released no-op) had landed after the others: the file lacks it.
    db.prepare('DELETE FROM schema_migrations WHERE version = 9').run();
    db.close();
    expect(() => openDatabaseReadOnly(path)).toThrow(`is of an older Loket (schema ${LATEST_SCHEMA_VERSION})`);

    const again = openDatabase(path);
    opened.push(again);
    expect(appliedVersions(again)).toContain(9);
    again.close();
    const reader = openDatabaseReadOnly(path);
    opened.push(reader);
    expect(schemaVersion(reader)).toBe(LATEST_SCHEMA_VERSION);
  });
});
