import { randomBytes, randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { canonicalJson, sha256Hex } from './canonical-json';
import { uuidv7Of } from './uuidv7';

/**
 * The functions migration 7 calls to give the events already in a log their outbox rows
 * (db/migrations/0007-outbox-and-store-link.ts): SQLite has no SHA-256, no canonical JSON and no UUIDv7 of its own. They are registered on the migrating
 * connection by `migrate()`; nothing else calls them, so a connection opened by another tool (the sqlite3 shell)
 * needs none of them.
 *
 * - `loket_canonical_json(text)`: the JSON text in canonical form (db/canonical-json.ts);
 * - `loket_sha256(text)`: its lower-case hex SHA-256;
 * - `loket_uuid7(at, n)`: a UUIDv7 of the instant `at` (ISO-8601) with `n` (0, 1, … for events of the same
 *   millisecond, in their order) as its counter, so the ids of a log's past events sort as the events do;
 * - `loket_random_id()`: a random UUID (version 4), the data folder's instance id.
 */
export function registerSqlFunctions(db: Database): void {
  db.function('loket_canonical_json', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? canonicalJson(JSON.parse(text)) : null,
  );
  db.function('loket_sha256', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? sha256Hex(text) : null,
  );
  db.function('loket_uuid7', (at: unknown, n: unknown) => {
    const ms = typeof at === 'string' ? Date.parse(at) : NaN;
    if (Number.isNaN(ms)) throw new RangeError(`loket_uuid7: ${JSON.stringify(at)} is not a time`);
    const index = typeof n === 'bigint' ? Number(n) : Number(n ?? 0);
    // More than 4,096 events in one millisecond carry over into the next one, still in order.
    return uuidv7Of(ms + Math.floor(index / 4096), index % 4096, randomBytes(8));
  });
  db.function('loket_random_id', () => randomUUID());
}
