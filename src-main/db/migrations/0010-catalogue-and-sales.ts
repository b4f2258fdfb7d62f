import type { Migration } from './migration';
import { isoUtc } from './sql-helpers';

export const MIGRATION_10: Migration = {
  version: 10,
  name: 'the catalogue, the sale, its lines, tenders and events, and the cart in progress',
  // New tables only: no row of the previous version changes, nothing to refuse.
  sql: `
      -- The store's catalogue (core/products/product-store.ts; docs/catalogue.md). Lives in the store's books
      -- (loket.db); the training log has the tables too, empty. id is the row's number, so the search index below
      -- can point at it. sku_key is the SKU in lower case: SKUs are unique ignoring letter case.
      CREATE TABLE products (
        id           INTEGER PRIMARY KEY,
        sku          TEXT NOT NULL CHECK (length(sku) BETWEEN 1 AND 160),
        sku_key      TEXT NOT NULL UNIQUE,
        name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 400),
        -- The name in lower case without accents ("Kopi Susu Gula Aren" → "kopi susu gula aren"): the
        -- prefix search's index (a name found by how it starts, whatever its case and accents).
        name_folded  TEXT NOT NULL,
        category     TEXT NOT NULL DEFAULT '',
        price        INTEGER NOT NULL CHECK (price >= 0),
        tax_category TEXT NOT NULL CHECK (tax_category IN ('ppn','pbjt','exempt')),
        -- The gateway's item_id of a fixed-denomination product (airtime); null for any other.
        item_id      TEXT,
        active       INTEGER NOT NULL CHECK (active IN (0,1)),
        created_at   TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        updated_at   TEXT NOT NULL CHECK (${isoUtc('updated_at')})
      ) STRICT;
      CREATE INDEX products_name_folded ON products (name_folded);
      -- A barcode finds one product: in its stored form (a UPC-A as its EAN-13).
      CREATE TABLE product_barcodes (
        code       TEXT PRIMARY KEY CHECK (length(code) IN (8, 13) AND code NOT GLOB '*[^0-9]*'),
        product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        position   INTEGER NOT NULL CHECK (position >= 0)
      ) STRICT;
      CREATE INDEX product_barcodes_product ON product_barcodes (product_id, position);
      -- The substring search of names: trigrams, case and accents ignored (three characters or more). Kept by the
      -- catalogue's code, not triggers: a large import rebuilds it once at its end, ten times faster than row by row.
      CREATE VIRTUAL TABLE products_search USING fts5 (
        name, content = 'products', content_rowid = 'id', tokenize = 'trigram remove_diacritics 1'
      );
      -- Every change to a product (created, updated, the quick items taken in), append-only.
      CREATE TABLE product_events (
        seq        INTEGER PRIMARY KEY,
        product_id INTEGER NOT NULL,
        at         TEXT NOT NULL CHECK (${isoUtc('at')}),
        type       TEXT NOT NULL CHECK (type IN ('created','updated','seeded')),
        actor      TEXT,
        payload    TEXT NOT NULL CHECK (json_valid(payload))
      ) STRICT;
      CREATE INDEX product_events_product ON product_events (product_id, seq);
      CREATE TRIGGER product_events_no_update BEFORE UPDATE ON product_events
      BEGIN SELECT RAISE(ABORT, 'product_events is append-only'); END;
      CREATE TRIGGER product_events_no_delete BEFORE DELETE ON product_events
      BEGIN SELECT RAISE(ABORT, 'product_events is append-only'); END;

      -- A sale (core/sales/; docs/sale.md): its figures as the server computed them (the truth), open → tendering
      -- → completed | voided. In the order log's database, beside its orders.
      CREATE TABLE sales (
        id             TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 40),
        terminal_id    TEXT NOT NULL CHECK (length(terminal_id) BETWEEN 1 AND 36),
        state          TEXT NOT NULL CHECK (state IN ('open','tendering','completed','voided')),
        training       INTEGER NOT NULL CHECK (training IN (0,1)),
        staff_id       INTEGER,
        staff_name     TEXT,
        sale_discount  TEXT CHECK (sale_discount IS NULL OR json_valid(sale_discount)),
        subtotal       INTEGER NOT NULL CHECK (subtotal >= 0),
        line_discounts INTEGER NOT NULL CHECK (line_discounts >= 0),
        sale_discount_amount INTEGER NOT NULL CHECK (sale_discount_amount >= 0),
        net            INTEGER NOT NULL CHECK (net >= 0),
        dpp            INTEGER NOT NULL CHECK (dpp >= 0),
        ppn            INTEGER NOT NULL CHECK (ppn >= 0),
        pbjt           INTEGER NOT NULL CHECK (pbjt >= 0),
        service        INTEGER NOT NULL CHECK (service >= 0),
        total          INTEGER NOT NULL CHECK (total >= 0),
        -- The tax lines per category (common/tax.ts CategoryTax), as JSON.
        categories     TEXT NOT NULL CHECK (json_valid(categories)),
        -- The cash rounding line (may be negative), the change given, and Σ of the tenders' applied amounts.
        rounding       INTEGER NOT NULL DEFAULT 0,
        change         INTEGER NOT NULL DEFAULT 0 CHECK (change >= 0),
        customer_name  TEXT,
        phone          TEXT,
        created_at     TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        updated_at     TEXT NOT NULL CHECK (${isoUtc('updated_at')}),
        completed_at   TEXT CHECK (completed_at IS NULL OR ${isoUtc('completed_at')})
      ) STRICT;
      CREATE INDEX sales_created ON sales (created_at);
      CREATE INDEX sales_state ON sales (state) WHERE state IN ('open','tendering');
      -- Its lines: a snapshot of the product as sold and the line's computed figures (common/sale-totals.ts).
      CREATE TABLE sale_lines (
        sale_id       TEXT NOT NULL REFERENCES sales (id),
        line_no       INTEGER NOT NULL CHECK (line_no >= 1),
        line_id       TEXT NOT NULL,
        product_id    TEXT,
        sku           TEXT,
        barcode       TEXT,
        name          TEXT NOT NULL,
        category      TEXT NOT NULL DEFAULT '',
        unit_price    INTEGER NOT NULL CHECK (unit_price >= 0),
        qty           INTEGER NOT NULL CHECK (qty BETWEEN 1 AND 9999),
        tax_category  TEXT NOT NULL CHECK (tax_category IN ('ppn','pbjt','exempt')),
        item_id       TEXT,
        discount      TEXT CHECK (discount IS NULL OR json_valid(discount)),
        gross         INTEGER NOT NULL CHECK (gross >= 0),
        line_discount INTEGER NOT NULL CHECK (line_discount >= 0),
        sale_discount INTEGER NOT NULL CHECK (sale_discount >= 0),
        net           INTEGER NOT NULL CHECK (net >= 0),
        total         INTEGER NOT NULL CHECK (total >= 0),
        PRIMARY KEY (sale_id, line_no)
      ) STRICT;
      -- How it is paid: cash (handed, change, rounding), a gateway order (its id), other (a reference).
      CREATE TABLE sale_tenders (
        sale_id    TEXT NOT NULL REFERENCES sales (id),
        tender_no  INTEGER NOT NULL CHECK (tender_no >= 1),
        kind       TEXT NOT NULL CHECK (kind IN ('cash','gateway','other')),
        state      TEXT NOT NULL CHECK (state IN ('pending','paid','failed')),
        method_id  TEXT,
        order_id   TEXT UNIQUE,
        reference  TEXT,
        amount     INTEGER NOT NULL CHECK (amount >= 0),
        handed     INTEGER NOT NULL DEFAULT 0 CHECK (handed >= 0),
        change     INTEGER NOT NULL DEFAULT 0 CHECK (change >= 0),
        rounding   INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL CHECK (${isoUtc('created_at')}),
        updated_at TEXT NOT NULL CHECK (${isoUtc('updated_at')}),
        PRIMARY KEY (sale_id, tender_no),
        CHECK ((kind = 'gateway') = (method_id IS NOT NULL)),
        CHECK (kind <> 'other' OR reference IS NOT NULL)
      ) STRICT;
      -- Every change to a sale or its tenders, append-only, each with its outbox row (stream 'sale').
      CREATE TABLE sale_events (
        seq      INTEGER PRIMARY KEY,
        sale_id  TEXT NOT NULL REFERENCES sales (id),
        at       TEXT NOT NULL CHECK (${isoUtc('at')}),
        type     TEXT NOT NULL,
        actor    TEXT,
        staff_id INTEGER,
        payload  TEXT CHECK (payload IS NULL OR json_valid(payload))
      ) STRICT;
      CREATE INDEX sale_events_sale ON sale_events (sale_id, seq);
      CREATE TRIGGER sale_events_no_update BEFORE UPDATE ON sale_events
      BEGIN SELECT RAISE(ABORT, 'sale_events is append-only'); END;
      CREATE TRIGGER sale_events_no_delete BEFORE DELETE ON sale_events
      BEGIN SELECT RAISE(ABORT, 'sale_events is append-only'); END;
      -- The cart being rung up at each terminal: a reload or a restart never loses a line.
      CREATE TABLE carts (
        terminal_id TEXT PRIMARY KEY CHECK (length(terminal_id) BETWEEN 1 AND 36),
        cart        TEXT NOT NULL CHECK (json_valid(cart)),
        updated_at  TEXT NOT NULL CHECK (${isoUtc('updated_at')})
      ) STRICT;
    `,
};
