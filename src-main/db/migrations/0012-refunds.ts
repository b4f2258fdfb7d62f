import type { Migration } from './migration';
import { isoUtc } from './sql-helpers';

export const MIGRATION_12: Migration = {
  version: 12,
  name: 'refunds: a document of its own per refund of a paid sale, its lines and events',
  // New tables only: no row of the previous version changes, nothing to refuse (docs/tenders.md, "Refunds").
  sql: `
      -- A refund of a completed sale (core/sales/refund-store.ts): written whole in one transaction and never changed
      -- after (the sale and its orders are never changed either). amount: Σ of the refunded lines' shares of the
      -- sale's total; rounding: the refund's share of the sale's cash rounding (money = amount + rounding);
      -- cash_rounding: a cash refund rounded down to Rp100 (paid_back = money + cash_rounding); paid_back: what went
      -- back to the customer, from the drawer (how = 'cash', in shift_id) or outside Loket (how = 'outside', e.g. a
      -- transfer for a QRIS payment: the aggregator has no refund call). net, dpp, ppn, pbjt, service: the tax given
      -- back, split from the sale's per category in proportion to the amount, cumulatively, to the rupiah.
      CREATE TABLE refunds (
        id                   TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 40),
        sale_id              TEXT NOT NULL REFERENCES sales (id),
        terminal_id          TEXT NOT NULL CHECK (length(terminal_id) BETWEEN 1 AND 36),
        training             INTEGER NOT NULL CHECK (training IN (0,1)),
        how                  TEXT NOT NULL CHECK (how IN ('cash','outside')),
        method_id            TEXT,
        shift_id             TEXT,
        reason               TEXT NOT NULL CHECK (length(reason) BETWEEN 3 AND 800),
        amount               INTEGER NOT NULL CHECK (amount >= 0),
        rounding             INTEGER NOT NULL CHECK (rounding BETWEEN -99 AND 99),
        money                INTEGER NOT NULL CHECK (money >= 0 AND money = amount + rounding),
        cash_rounding        INTEGER NOT NULL CHECK (cash_rounding BETWEEN -99 AND 99),
        paid_back            INTEGER NOT NULL CHECK (paid_back >= 0 AND paid_back = money + cash_rounding),
        net                  INTEGER NOT NULL,
        dpp                  INTEGER NOT NULL,
        ppn                  INTEGER NOT NULL,
        pbjt                 INTEGER NOT NULL,
        service              INTEGER NOT NULL,
        complete             INTEGER NOT NULL CHECK (complete IN (0,1)),
        staff_id             INTEGER,
        staff_name           TEXT,
        approved_by_staff_id INTEGER,
        approved_by          TEXT NOT NULL CHECK (length(approved_by) BETWEEN 1 AND 100),
        created_at           TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        CHECK (how = 'outside' OR shift_id IS NOT NULL),
        CHECK (how = 'cash' OR cash_rounding = 0),
        CHECK (amount = net + ppn + pbjt + service)
      ) STRICT;
      CREATE INDEX refunds_sale ON refunds (sale_id);
      CREATE INDEX refunds_created ON refunds (created_at);
      CREATE TRIGGER refunds_no_update BEFORE UPDATE ON refunds
      BEGIN SELECT RAISE(ABORT, 'refunds: a refund is never changed'); END;
      CREATE TRIGGER refunds_no_delete BEFORE DELETE ON refunds
      BEGIN SELECT RAISE(ABORT, 'refunds: a refund is never removed'); END;
      -- What a refund gives back of each line of the sale: sale_line_no is the sale's line, qty of its units.
      CREATE TABLE refund_lines (
        refund_id    TEXT NOT NULL REFERENCES refunds (id),
        line_no      INTEGER NOT NULL CHECK (line_no >= 1),
        sale_id      TEXT NOT NULL,
        sale_line_no INTEGER NOT NULL,
        line_id      TEXT NOT NULL,
        qty          INTEGER NOT NULL CHECK (qty BETWEEN 1 AND 9999),
        amount       INTEGER NOT NULL CHECK (amount >= 0),
        PRIMARY KEY (refund_id, line_no),
        FOREIGN KEY (sale_id, sale_line_no) REFERENCES sale_lines (sale_id, line_no)
      ) STRICT;
      CREATE INDEX refund_lines_sale ON refund_lines (sale_id, sale_line_no);
      CREATE TRIGGER refund_lines_no_update BEFORE UPDATE ON refund_lines
      BEGIN SELECT RAISE(ABORT, 'refund_lines: a refund is never changed'); END;
      CREATE TRIGGER refund_lines_no_delete BEFORE DELETE ON refund_lines
      BEGIN SELECT RAISE(ABORT, 'refund_lines: a refund is never changed'); END;
      -- Every change of a refund, append-only, each with its outbox row (stream 'refund').
      CREATE TABLE refund_events (
        seq       INTEGER PRIMARY KEY,
        refund_id TEXT NOT NULL REFERENCES refunds (id),
        at        TEXT NOT NULL CHECK (${isoUtc('at')}),
        type      TEXT NOT NULL,
        actor     TEXT,
        staff_id  INTEGER,
        payload   TEXT CHECK (payload IS NULL OR json_valid(payload))
      ) STRICT;
      CREATE INDEX refund_events_refund ON refund_events (refund_id, seq);
      CREATE TRIGGER refund_events_no_update BEFORE UPDATE ON refund_events
      BEGIN SELECT RAISE(ABORT, 'refund_events is append-only'); END;
      CREATE TRIGGER refund_events_no_delete BEFORE DELETE ON refund_events
      BEGIN SELECT RAISE(ABORT, 'refund_events is append-only'); END;
    `,
};
