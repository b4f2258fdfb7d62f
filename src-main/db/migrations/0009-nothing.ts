import type { Migration } from './migration';

export const MIGRATION_9: Migration = {
  // Nothing: this number was held for a migration of the same release that turned out not to be needed (a
  // database that took it keeps its place in the sequence). It changes nothing.
  version: 9,
  name: 'nothing (a number held for a migration not needed)',
  sql: `SELECT 1;`,
};
