/**
 * One schema migration (docs/architecture.md, "Seams"). Each lives in its own file here,
 * `NNNN-short-name.ts`, numbered with gaps: 1–14 as they were released, a new one at the next free multiple of 10,
 * so that branches written in parallel never renumber each other's. The runner (runner.ts) applies every one the
 * database lacks, in order of number, even one numbered below one already applied.
 *
 * A migration, once released, is frozen: its SQL is literal text, never built from today's constants (e.g.
 * ORDER_STATES), so that migration k means the same thing on every machine for ever; test/node/migration-files.test.ts
 * pins each released one's text by its SHA-256. Changing the schema means a new migration, with its test in
 * test/node/db-migrations.test.ts.
 *
 * This module imports nothing, so a migration file can name the type without an import circle.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /**
   * A query run first, in the migration's transaction: each row it returns (one column, `problem`)
   * describes a row of the previous version that `sql` cannot carry over. Any row stops the migration
   * with MigrationBlockedError naming them all, before anything is changed; no row is dropped or altered.
   */
  readonly refuse?: string;
}
