import type { Migration } from './migration';

/**
 * Migration 40 (the counter, docs/sale.md "One counter"): a sale keeps the idempotency key it was charged under, unique
 * among the log's sales, so a charge made again under it (a double tap, a browser's retry, a second tab, another
 * process) answers that sale instead of making a second one; and a gateway tender marks a payment that came after all
 * for its voided sale (a late payment, as its order's `late_payment`), the tender keeping `failed`. Sales made before
 * have no key (NULL: never matched); no tender of before was paid late as far as the sale knew (0). New columns only:
 * nothing of the previous version changes, nothing to refuse. Frozen once released, like every migration.
 */
export const MIGRATION_40: Migration = {
  version: 40,
  name: "a sale's charge key, a tender's late payment",
  sql: `
      ALTER TABLE sales ADD COLUMN charge_key TEXT
        CHECK (charge_key IS NULL OR (length(charge_key) BETWEEN 8 AND 64 AND charge_key NOT GLOB '*[^A-Za-z0-9-]*'));
      CREATE UNIQUE INDEX sales_charge_key ON sales (charge_key) WHERE charge_key IS NOT NULL;
      ALTER TABLE sale_tenders ADD COLUMN late_payment INTEGER NOT NULL DEFAULT 0
        CHECK (late_payment IN (0, 1) AND (late_payment = 0 OR (kind = 'gateway' AND state = 'failed')));
    `,
};
