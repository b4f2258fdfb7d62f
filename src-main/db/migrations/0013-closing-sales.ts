import type { Migration } from './migration';

/**
 * Migration 13: a closing keeps the day's sales figures (common/reports.ts's SalesFigures as JSON: the tax summary,
 * by category, top sellers, tenders, rounding) beside its order figures, so a closed day's record carries what was
 * sold as it stood at closing (docs/end-of-day.md, "Closing the day"). NULL for a closing made before: it has none.
 * Frozen once released, like every migration (migration.ts).
 */
export const MIGRATION_13: Migration = {
  version: 13,
  name: "a closing's sales figures",
  sql: `
      -- SalesFigures (common/reports.ts) as JSON; NULL for a closing made before Loket kept them.
      ALTER TABLE closings ADD COLUMN sales TEXT
        CHECK (sales IS NULL OR CASE WHEN json_valid(sales) THEN json_type(sales) = 'object' ELSE 0 END);
    `,
};
