import type { Database, Statement } from 'better-sqlite3';

/** Matches the staff table's CHECK (a scrypt hash's form) and no PIN at all: scrypt's parameters are missing. */
const STAND_IN_PIN_HASH = 'scrypt$training-stand-in';

const statements = new WeakMap<Database, Statement<[{ id: number; now: string }]>>();

/**
 * The training log (training/loket.db) keeps none of the store's staff, yet its orders and its audit entries name
 * who acted, as live ones do (docs/roles.md): a row there stands in for the store's member of staff `staffId`, so
 * the reference (orders.staff_id, audit_events.actor_staff_id) holds. It has no name and no PIN of its own (nobody
 * signs in against this file): the store's books name the person. Written in the caller's transaction, with the
 * row that refers to it; a row already there is left as it is.
 */
export function standInForStaff(db: Database, staffId: number, now: string): void {
  let insert = statements.get(db);
  if (insert === undefined) {
    insert = db.prepare<[{ id: number; now: string }]>(
      `INSERT INTO staff (id, name, role, pin_hash, active, created_at, updated_at)
       VALUES (@id, printf('#%d', @id), 'cashier', '${STAND_IN_PIN_HASH}', 0, @now, @now)
       ON CONFLICT (id) DO NOTHING`,
    );
    statements.set(db, insert);
  }
  insert.run({ id: staffId, now });
}
