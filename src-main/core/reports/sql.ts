import type { Database, Statement } from 'better-sqlite3';
import { dayRange } from '../../common/gateway-time';
import { OrderLog } from '../orders/order-log';
import { invalidQuery } from './errors';

/** The books may be read through the order log or straight from its database (the same connection). */
export type Books = OrderLog | Database;

export function dbOf(books: Books): Database {
  return books instanceof OrderLog ? books.db : books;
}

// Prepared once per connection and SQL text: preparing costs more than running these small queries.
const cache = new WeakMap<Database, Map<string, Statement>>();

export function stmt<P extends unknown[] | object = unknown[], R = unknown>(
  db: Database,
  sql: string,
): Statement<P, R> {
  let byText = cache.get(db);
  if (byText === undefined) {
    byText = new Map();
    cache.set(db, byText);
  }
  let s = byText.get(sql);
  if (s === undefined) {
    s = db.prepare(sql);
    byText.set(sql, s);
  }
  return s as unknown as Statement<P, R>;
}

export const DAY_RULE = 'a store day YYYY-MM-DD';

/**
 * The UTC instants [from, to) of the store days `fromDay`..`toDay` (inclusive) in `timeZone`; a day that is not
 * a real date, or a range that runs backwards, is the caller's mistake (`invalid_arguments`).
 */
export function storeDays(fromDay: string, toDay: string, timeZone: string): { from: Date; to: Date } {
  const first = dayRange(fromDay, timeZone);
  if (!first) throw invalidQuery('from', `${DAY_RULE} (got ${JSON.stringify(fromDay)})`);
  const last = toDay === fromDay ? first : dayRange(toDay, timeZone);
  if (!last) throw invalidQuery('to', `${DAY_RULE} (got ${JSON.stringify(toDay)})`);
  if (last.to.getTime() <= first.from.getTime())
    throw invalidQuery('to', `must not be before from (${fromDay} to ${toDay})`);
  return { from: first.from, to: last.to };
}
