import type { Clock } from '../core/ports';
import type { LocalBook, OutboxSendRow, SyncConflict } from './local-book';
import type { PgClient } from './pg-connect';

/**
 * One sync pass (docs/store-book.md, "Exactly once"): this terminal's outbox rows after the acknowledged cursor, in
 * batches, each batch one PostgreSQL transaction:
 *
 * 1. one multi-row `INSERT … ON CONFLICT (store_code, terminal_id, seq) DO NOTHING RETURNING seq`;
 * 2. the rows that were not inserted exist already: their stored SHA-256 is compared with the one sent — the same
 *    hash is the same event sent before (a retry after a lost answer, a cursor lost to a power cut), another hash
 *    is a conflict: the batch is rolled back, the conflict reported to the store book and kept on the till, and
 *    nothing more is sent (the till keeps selling; its events wait);
 * 3. the terminal's status (its last event, what is now acknowledged, its oldest event still to send, its clock);
 * 4. COMMIT — and only then the cursor moves, on the till. A crash anywhere before leaves the cursor where it was,
 *    and the next pass sends the same rows again, which step 2 recognises. So every event reaches the store book,
 *    and reaches it once (its key is (store, terminal, seq)).
 *
 * Failures of the link (or any other error) are thrown; the caller (SyncWorker, `store sync`) retries.
 */

export interface PassOptions {
  /** The terminal whose events this data folder sends (its enrolment). */
  terminalId: string;
  instanceId: string;
  clock: Clock;
  batchSize: number;
  /** Stop after this many batches (the worker's passes stay short); by default until nothing is left. */
  maxBatches?: number;
  /** After PostgreSQL committed a batch, before the cursor moves (tests: a crash exactly there). */
  afterCommit?: (lastSeq: number) => void | Promise<void>;
}

export type PassResult =
  | { outcome: 'synced'; sent: number; batches: number }
  | { outcome: 'more'; sent: number; batches: number }
  | { outcome: 'conflict'; sent: number; batches: number; conflict: SyncConflict };

/** The store book refused this terminal's role for what it is (not enrolled, not this store's). */
export class StoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreRefusedError';
  }
}

const INSERT_BATCH = `INSERT INTO loket.events (terminal_id, seq, uuid, instance_id, stream, stream_id, type, at, payload,
    sha256, sent_at)
  SELECT $1, r.seq, r.uuid, $2, r.stream, r.stream_id, r.type, r.at, r.payload::jsonb, r.sha256, $3
  FROM unnest($4::bigint[], $5::uuid[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::text[], $11::text[])
    AS r(seq, uuid, stream, stream_id, type, at, payload, sha256)
  ON CONFLICT (store_code, terminal_id, seq) DO NOTHING
  RETURNING seq`;

const STORED = `SELECT seq, sha256, instance_id::text AS instance_id FROM loket.events
  WHERE store_code = loket.store_code() AND terminal_id = $1 AND seq = ANY($2::bigint[])`;

const REPORT_STATUS = 'SELECT loket.report_status($1, $2, $3, $4, $5)';
const REPORT_CONFLICT = 'SELECT loket.report_conflict($1, $2, $3, $4, $5)';

/** Who the store book says this role is. */
export interface Binding {
  storeCode: string | null;
  terminalId: string | null;
  instanceId: string | null;
}

export async function bindingOf(client: PgClient): Promise<Binding> {
  const r = await client.query<{ store_code: string | null; terminal_id: string | null; instance_id: string | null }>(
    `SELECT loket.store_code() AS store_code, loket.terminal_of(current_user::text) AS terminal_id,
       loket.instance_of(current_user::text)::text AS instance_id`,
  );
  const row = r.rows[0]!;
  return { storeCode: row.store_code, terminalId: row.terminal_id, instanceId: row.instance_id };
}

export async function syncPass(local: LocalBook, client: PgClient, options: PassOptions): Promise<PassResult> {
  const { terminalId, instanceId, clock } = options;
  let sent = 0;
  let batches = 0;
  const cursor = local.cursor(terminalId);
  if (cursor.conflict) return { outcome: 'conflict', sent, batches, conflict: cursor.conflict };

  const binding = await bindingOf(client);
  if (binding.storeCode === null || binding.terminalId === null)
    throw new StoreRefusedError(
      `the store book does not know this connection's role as one of its terminals (it may have been removed, or ` +
        'LOKET_STORE_URL names another role): enrol this terminal again',
    );
  if (binding.terminalId !== terminalId || binding.instanceId !== instanceId) {
    const conflict: SyncConflict =
      binding.terminalId !== terminalId
        ? {
            kind: 'other_terminal',
            detail:
              `the store book's role is terminal ${binding.terminalId}'s, but this data folder's events are terminal ` +
              `${terminalId}'s: a terminal never writes another's events. Enrol this terminal as ${terminalId} (or fix ` +
              'LOKET_STORE_URL)',
            at: clock.now().toISOString(),
          }
        : {
            kind: 'other_instance',
            detail:
              `terminal ${terminalId} is enrolled for another data folder (instance ${binding.instanceId?.slice(0, 8)}…, ` +
              `this one is ${instanceId.slice(0, 8)}…): two tills cannot be one terminal. Nothing is sent; see ` +
              'docs/store-book.md ("A cloned terminal")',
            at: clock.now().toISOString(),
          };
    await client
      .query(REPORT_CONFLICT, [instanceId, 'other_instance', null, null, conflict.detail])
      .catch(() => undefined);
    local.setConflict(terminalId, conflict);
    return { outcome: 'conflict', sent, batches, conflict };
  }

  let acked = cursor.ackedSeq;
  for (;;) {
    const rows = local.batch(terminalId, acked, options.batchSize);
    if (rows.length === 0) break;
    rows.forEach((row, i) => {
      if (row.seq !== acked + 1 + i)
        throw new Error(`the outbox of ${terminalId} has a gap after event ${acked + i}: the file was changed by hand`);
    });
    const conflict = await sendBatch(client, rows, { terminalId, instanceId, local, clock, acked });
    if (conflict) {
      await client
        .query(REPORT_CONFLICT, [instanceId, 'different_event', conflict.seq, conflict.sentSha256, conflict.detail])
        .catch(() => undefined);
      local.setConflict(terminalId, conflict);
      return { outcome: 'conflict', sent, batches, conflict };
    }
    const last = rows.at(-1)!.seq;
    await options.afterCommit?.(last);
    local.ack(terminalId, last, clock.now().toISOString());
    acked = last;
    sent += rows.length;
    batches++;
    if (options.maxBatches !== undefined && batches >= options.maxBatches && local.head(terminalId) > acked)
      return { outcome: 'more', sent, batches };
  }
  // Nothing (more) to send: say so, so the store knows this terminal is up to date as of now.
  await client.query(REPORT_STATUS, [instanceId, local.head(terminalId), acked, null, clock.now().toISOString()]);
  return { outcome: 'synced', sent, batches };
}

/** One batch in one transaction; a conflict (rolled back) or undefined (committed). */
async function sendBatch(
  client: PgClient,
  rows: OutboxSendRow[],
  ctx: { terminalId: string; instanceId: string; local: LocalBook; clock: Clock; acked: number },
): Promise<SyncConflict | undefined> {
  const { terminalId, instanceId, local, clock } = ctx;
  const sentAt = clock.now().toISOString();
  await client.query('BEGIN');
  try {
    const inserted = await client.query<{ seq: string }>(INSERT_BATCH, [
      terminalId,
      instanceId,
      sentAt,
      rows.map((r) => r.seq),
      rows.map((r) => r.uuid),
      rows.map((r) => r.stream),
      rows.map((r) => r.stream_id),
      rows.map((r) => r.type),
      rows.map((r) => r.at),
      rows.map((r) => r.payload),
      rows.map((r) => r.sha256),
    ]);
    const fresh = new Set(inserted.rows.map((r) => Number(r.seq)));
    const existing = rows.filter((r) => !fresh.has(r.seq));
    if (existing.length > 0) {
      const stored = new Map(
        (
          await client.query<{ seq: string; sha256: string; instance_id: string }>(STORED, [
            terminalId,
            existing.map((r) => r.seq),
          ])
        ).rows.map((r) => [Number(r.seq), r]),
      );
      for (const row of existing) {
        const there = stored.get(row.seq);
        // Neither inserted nor there: another session's insert we cannot see; the batch is tried again.
        if (!there) throw new Error(`event ${row.seq} was neither stored nor found; the batch is sent again`);
        if (there.sha256 === row.sha256) continue;
        await client.query('ROLLBACK');
        const sameFolder = there.instance_id === instanceId;
        return {
          kind: 'different_event',
          seq: row.seq,
          sentSha256: row.sha256,
          storedSha256: there.sha256,
          at: clock.now().toISOString(),
          detail:
            `the store book holds another event as ${terminalId} #${row.seq} (sha256 ${there.sha256.slice(0, 12)}…, ` +
            `this till's is ${row.sha256.slice(0, 12)}…), written by ` +
            (sameFolder
              ? 'a copy of this data folder (a cloned disk, or a backup restored after it had sent more)'
              : `another data folder (instance ${there.instance_id.slice(0, 8)}…)`) +
            `: two tills are writing as ${terminalId}. Nothing more is sent until a manager resolves it ` +
            '(docs/store-book.md, "A cloned terminal"); this till keeps selling',
        };
      }
    }
    const last = rows.at(-1)!.seq;
    const head = Math.max(local.head(terminalId), last);
    const oldestUnsent = head > last ? (local.eventAt(terminalId, last + 1) ?? null) : null;
    await client.query(REPORT_STATUS, [instanceId, head, last, oldestUnsent, sentAt]);
    await client.query('COMMIT');
    return undefined;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
