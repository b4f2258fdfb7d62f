import type { OrderState } from '../../common/order';
import { ORDER_STATES } from '../../common/order';
import { parseGatewayDate } from '../../common/gateway-time';
import type { DeskPage, DeskQuery, OrderDetail } from '../../common/reports';
import type { OrderLog } from '../orders/order-log';
import { ORDER_COLUMNS, rowToOrder, type OrderRow, type SqlValue } from '../orders/order-rows';
import { invalidQuery } from './errors';
import { dbOf, stmt, storeDays, type Books } from './sql';

/** A page of the desk: 50 orders unless asked otherwise, at most 500. */
export const DESK_DEFAULT_LIMIT = 50;
export const DESK_MAX_LIMIT = 500;
export const DESK_SEARCH_MAX = 64;

/** A time of day as people type it: "14:05", "14.05", "9:30". */
const TIME_OF_DAY = /^([01]?\d|2[0-3])[:.]([0-5]\d)$/;
/** A time searched over more store days than this is not worth a clause per day. */
const TIME_SEARCH_MAX_DAYS = 400;

/**
 * What a search text can be (docs/end-of-day.md, "The order desk"): an amount is digits only, or as people write
 * it ("25.000", "Rp 25.000"); a time of day ("14:05", "14.05") is the orders created in that minute of the store's
 * clock on the days searched; anything else is matched as an order id prefix, a gateway transaction id, a VA
 * number or store code — typed with spaces or dashes as they are read out ("8808 3715 5096 7166") — or a part of
 * the item's name. Digits only are tried as all of them: a VA number, a store code or a gateway id may be digits too.
 */
function searchClause(
  text: string,
  days: { from: string; to: string },
  timeZone: string,
): { sql: string; params: SqlValue[] } {
  const search = text.trim();
  const escaped = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
  // A code read out in groups: the same code without its spaces and dashes.
  const compact = /^[\d\s-]+$/.test(search) ? search.replace(/[\s-]+/g, '') : search;
  // Every key the desk searches by, each an exact match but the id (a prefix) and the item (a part of it).
  const keys =
    "id LIKE ? ESCAPE '\\' OR gateway_transaction_id = ? OR json_extract(instruction, '$.va') = ? " +
    "OR json_extract(instruction, '$.transaction_id') = ? OR item_name LIKE ? ESCAPE '\\'";
  const params: SqlValue[] = [`${escaped(search)}%`, compact, compact, compact, `%${escaped(search)}%`];
  const clauses = [keys];
  const written = /^(?:rp\.?\s?)?(\d{1,3}(?:\.\d{3})+|\d+)$/i.exec(search);
  if (written) {
    const amount = Number(written[1]!.replaceAll('.', ''));
    if (Number.isSafeInteger(amount) && amount > 0) {
      clauses.unshift('amount = ?');
      params.unshift(amount);
    }
  }
  const time = TIME_OF_DAY.exec(search);
  if (time) {
    const minute = `${time[1]!.padStart(2, '0')}:${time[2]}:00`;
    const windows: SqlValue[] = [];
    for (const day of storeDayList(days.from, days.to).slice(0, TIME_SEARCH_MAX_DAYS)) {
      const at = parseGatewayDate(`${day} ${minute}`, timeZone);
      if (at) windows.push(at.toISOString(), new Date(at.getTime() + 60_000).toISOString());
    }
    for (let i = 0; i < windows.length; i += 2) clauses.push('(created_at >= ? AND created_at < ?)');
    params.push(...windows);
  }
  return { sql: `(${clauses.join(' OR ')})`, params };
}

/** The store days from `from` to `to` (YYYY-MM-DD, both included). */
function storeDayList(from: string, to: string): string[] {
  const out: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000)
    out.push(new Date(at).toISOString().slice(0, 10));
  return out;
}

/**
 * The manager's order desk: the orders of any store day or range of days (in `timeZone`), filtered by state,
 * method and the staff member who sold, and by a search (an order id prefix, a gateway transaction id, a VA
 * number or store code, or an amount); newest first, a page at a time, with the total that matched.
 */
export function deskQuery(books: Books, query: DeskQuery, timeZone: string): DeskPage {
  const db = dbOf(books);
  const range = storeDays(query.from, query.to, timeZone);
  const where = ['created_at >= ?', 'created_at < ?'];
  const params: SqlValue[] = [range.from.toISOString(), range.to.toISOString()];
  if (query.state !== undefined) {
    if (!ORDER_STATES.includes(query.state as OrderState))
      throw invalidQuery('state', `one of ${ORDER_STATES.join(', ')} (got ${JSON.stringify(query.state)})`);
    where.push('state = ?');
    params.push(query.state);
  }
  if (query.methodId !== undefined) {
    where.push('method_id = ?');
    params.push(query.methodId);
  }
  if (query.staffId !== undefined) {
    if (!Number.isSafeInteger(query.staffId)) throw invalidQuery('staffId', 'a staff member id (a whole number)');
    where.push('staff_id = ?');
    params.push(query.staffId);
  }
  if (query.search !== undefined && query.search.trim() !== '') {
    if (query.search.length > DESK_SEARCH_MAX) throw invalidQuery('search', `at most ${DESK_SEARCH_MAX} characters`);
    const clause = searchClause(query.search, query, timeZone);
    where.push(clause.sql);
    params.push(...clause.params);
  }
  const limit = query.limit ?? DESK_DEFAULT_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > DESK_MAX_LIMIT)
    throw invalidQuery('limit', `a whole number from 1 to ${DESK_MAX_LIMIT} (got ${limit})`);
  const offset = query.offset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0) throw invalidQuery('offset', `a whole number ≥ 0 (got ${offset})`);

  const filter = where.join(' AND ');
  const total = stmt<SqlValue[], number>(db, `SELECT COUNT(*) FROM orders WHERE ${filter}`)
    .pluck()
    .get(...params)!;
  const orders =
    total <= offset
      ? []
      : stmt<SqlValue[], OrderRow>(
          db,
          `SELECT ${ORDER_COLUMNS} FROM orders WHERE ${filter} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        )
          .all(...params, limit, offset)
          .map(rowToOrder);
  return { orders, total };
}

/** JSON when it is JSON, else the text as it came (a proxy's HTML error page is worth seeing too). */
function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * One order on the desk: the order, its whole history (time, source, actor, reason, payload), the request as it
 * was sent and the gateway's answer as it came. `staffName`: who sold it, as the caller's staff list names them.
 * An unknown id is OrderNotFoundError (`not_found`).
 */
export function orderDetail(log: OrderLog, id: string, staffName?: string): OrderDetail {
  const order = log.require(id);
  const detail: OrderDetail = {
    order,
    events: log.events(id),
    request: parsedOrText(log.requestBody(id) ?? 'null'),
  };
  const response = log.responseBody(id);
  if (response !== undefined) detail.response = parsedOrText(response);
  if (staffName !== undefined) detail.staffName = staffName;
  return detail;
}
