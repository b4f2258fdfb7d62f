import type { Migration } from './migration';
import { MIGRATION_1 } from './0001-orders-and-events';
import { MIGRATION_2 } from './0002-settings';
import { MIGRATION_3 } from './0003-callback-receipts';
import { MIGRATION_4 } from './0004-strict-tables';
import { MIGRATION_5 } from './0005-staff-pins-audit';
import { MIGRATION_6 } from './0006-callback-issues-and-closings';
import { MIGRATION_7 } from './0007-outbox-and-store-link';
import { MIGRATION_8 } from './0008-mismatch-index';
import { MIGRATION_9 } from './0009-nothing';
import { MIGRATION_10 } from './0010-catalogue-and-sales';
import { MIGRATION_11 } from './0011-shifts';
import { MIGRATION_12 } from './0012-refunds';
import { MIGRATION_13 } from './0013-closing-sales';
import { MIGRATION_14 } from './0014-orders-kind-checked-in-code';
import { MIGRATION_20 } from './0020-sale-tax-settings';
import { MIGRATION_30 } from './0030-shift-events-cash-void';
import { MIGRATION_40 } from './0040-charge-keys-and-late-tenders';

/**
 * Every migration of this Loket, in order of number: one line per file of this folder (a test holds the two
 * together). A new migration takes the next free multiple of 10 above the highest released (docs/architecture.md,
 * "Where a new thing goes"); numbers reserved by work in progress are taken too, so two branches never meet on one.
 */
export const MIGRATIONS: readonly Migration[] = [
  MIGRATION_1,
  MIGRATION_2,
  MIGRATION_3,
  MIGRATION_4,
  MIGRATION_5,
  MIGRATION_6,
  MIGRATION_7,
  MIGRATION_8,
  MIGRATION_9,
  MIGRATION_10,
  MIGRATION_11,
  MIGRATION_12,
  MIGRATION_13,
  MIGRATION_14,
  MIGRATION_20,
  MIGRATION_30,
  MIGRATION_40,
];

/** The schema version of a database this Loket made or brought up to date: its highest migration's number. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS.reduce((highest, m) => Math.max(highest, m.version), 0);
