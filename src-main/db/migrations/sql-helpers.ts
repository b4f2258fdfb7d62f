/**
 * The SQL pieces released migrations share. They are part of those migrations' frozen text (the SHA-256 pins of
 * test/node/migration-files.test.ts cover their output): change none of them; a new migration that needs another
 * shape writes its own.
 */

// Every time Loket writes is `Date.toISOString()`: fixed width, so text order is time order and the
// range queries of the order log can compare strings.
export const isoUtc = (column: string): string =>
  `${column} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]Z'`;

export const STATES = `'creating','awaiting_payment','rejected','unknown','paid','expired','cancelled','failed'`;

// Migration 4's lists: the PaymentKind values (common/payment-methods.ts) and EVENT_SOURCES (common/order.ts)
// as they stood when it was written. A new source needs a migration of its own that rebuilds the table with a
// wider CHECK (test/node/db-migrations.test.ts fails until it exists); a new kind does not since migration 14.
export const KINDS_V4 = `'qris','ewallet_redirect','ewallet_qr_redirect','airtime_sms','airtime','va_bank','va_cstore'`;
export const SOURCES_V4 = `'cashier','gateway','callback','poll','inquiry','manager','startup','reconcile','cli','system'`;

/** [column, an SQL condition true for a value migration 4 cannot copy, what is wrong with it]. */
export type RefusalRule = readonly [column: string, bad: string, why: string];

export const notInteger = (...columns: string[]): RefusalRule[] =>
  columns.map((c) => [c, `typeof(${c}) NOT IN ('integer','null')`, 'is not a whole number (a STRICT INTEGER column)']);
export const blob = (...columns: string[]): RefusalRule[] =>
  columns.map((c) => [c, `typeof(${c}) = 'blob'`, 'is a BLOB (a STRICT TEXT column)']);
export const nullKey = (column: string): RefusalRule => [column, `${column} IS NULL`, 'is NULL (a STRICT primary key)'];

/**
 * One `problem` line per row of `table` that breaks any rule, naming each broken column with its value
 * as SQL quotes it, then the row (`rowRef`, an SQL text expression). One pass over the table.
 */
export function refusedRows(table: string, rowRef: string, rules: readonly RefusalRule[]): string {
  const parts = rules.map(
    ([column, bad, why]) =>
      `CASE WHEN ${bad} THEN '${table}.${column} = ' || quote(${column}) || ' ${why}, ' ELSE '' END`,
  );
  return `SELECT problem FROM (
      SELECT rtrim(${parts.join(' || ')}, ', ') || ' (row ' || ${rowRef} || ')' AS problem
      FROM ${table} WHERE ${rules.map(([, bad]) => `(${bad})`).join(' OR ')} ORDER BY rowid)`;
}

export const ORDER_COLUMNS_V4 = `id, terminal_id, api, state, method_id, kind, amount, currency, item_name, item_id, user_id,
  customer_name, phone, training, request_body, delivery, gateway_transaction_id, instruction, response_body,
  rejection_retcode, rejection_message, rejection_http_status, expires_at, paid_at, late_payment, created_at, updated_at`;
export const EVENT_COLUMNS_V4 = 'seq, order_id, at, type, from_state, to_state, source, actor, reason, payload';
export const RECEIPT_COLUMNS_V4 = 'id, received_at, order_id, status, body_sha256, outcome';
