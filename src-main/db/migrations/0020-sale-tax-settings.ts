import type { Migration } from './migration';

/**
 * Migration 20: a sale keeps the tax settings it was computed with (common/tax.ts's TaxSettings as JSON: the PPN rate
 * and DPP factor, prices including or excluding tax, PBJT and the service charge, the category of a typed line, and
 * a PKP store's seller, address and NPWP), so that its struk, a reprint, the books and the export read those and not
 * the store's settings now (docs/tax.md, "A sale keeps its tax settings"). NULL for a sale stored before: it has
 * none, and is read with the settings of the day it is read (said in docs/tax.md).
 *
 * Frozen once released, like every migration (migration.ts).
 */
export const MIGRATION_20: Migration = {
  version: 20,
  name: "a sale's tax settings",
  sql: `
      -- TaxSettings (common/tax.ts) as JSON; NULL for a sale stored before Loket kept them.
      ALTER TABLE sales ADD COLUMN tax_settings TEXT
        CHECK (tax_settings IS NULL OR CASE WHEN json_valid(tax_settings) THEN json_type(tax_settings) = 'object' ELSE 0 END);
    `,
};
