import type { Database, Statement } from 'better-sqlite3';
import { systemClock, type Clock } from '../ports';
import { standInForStaff } from '../staff/stand-in';

/** What an audit event is about. New actions are added here (the table checks only their shape). */
export const AUDIT_ACTIONS = [
  'settings.changed',
  'secret.set',
  'secret.cleared',
  'mode.changed',
  'staff.added',
  'staff.changed',
  'staff.removed',
  'staff.signed_in',
  'pin.changed',
  'pin.reset',
  'pin.failed',
  'pin.locked_out',
  'manager.unlocked',
  'manager.locked',
  'methods.imported',
  'method.enabled',
  'method.disabled',
  'connection.tested',
  'attention.resolved',
  'day.closed',
  'orders.exported',
  'shift.opened',
  'shift.paid_in',
  'shift.paid_out',
  'shift.no_sale',
  'shift.closed',
  'catalogue.imported',
  'catalogue.exported',
  'product.added',
  'product.changed',
  'discount.approved',
  'sale.voided',
  'refund.approved',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_SOURCES = ['app', 'cli', 'system'] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];

/** Who did it: a member of staff at the app, `cli:<user>` at the command line, or `system`. */
export interface AuditActor {
  staffId?: number;
  name: string;
  source: AuditSource;
}

export const SYSTEM_ACTOR: AuditActor = { name: 'system', source: 'system' };

/** The command line, run on the machine's account `user` (e.g. `os.userInfo().username`). */
export function cliActor(user: string): AuditActor {
  const name = user.trim();
  return { name: `cli:${name === '' ? 'unknown' : name}`, source: 'cli' };
}

/** A member of staff acting in the app. */
export function staffActor(staff: { id: number; name: string }): AuditActor {
  return { staffId: staff.id, name: staff.name, source: 'app' };
}

export interface AuditEventInput {
  actor: AuditActor;
  action: AuditAction;
  /** Which setting (or other named field) the event is about. */
  field?: string;
  /** A JSON object of non-secret facts: ids, names, old and new non-secret values, counts. */
  detail?: Record<string, unknown>;
}

export interface AuditEvent {
  seq: number;
  at: string;
  actor: AuditActor;
  action: string;
  field?: string;
  detail?: Record<string, unknown>;
}

/**
 * A detail key that looks like it names a secret: the last guard against writing one to the log. Keys are
 * read as words (camelCase, snake_case, kebab-case), so `pin`, `pinHash`, `new_pin`, `appKey`, `app-key`,
 * `signingSecret`, `password`, `accessToken`, `salt` are refused, while `shipping` or `spinner` are not.
 * Name a setting in `field`, not as a detail key: `{ field: 'requireCashierPin', detail: { from, to } }`.
 */
const SECRET_WORDS = new Set([
  'pin',
  'pins',
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'secret',
  'secrets',
  'token',
  'tokens',
  'appkey',
  'credential',
  'credentials',
  'hash',
  'salt',
]);
const SECRET_SUBSTRINGS = /appkey|secret|password|passphrase|token|credential/;

export function secretLikeKey(key: string): boolean {
  if (SECRET_SUBSTRINGS.test(key.toLowerCase().replace(/[^a-z0-9]/g, ''))) return true;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => SECRET_WORDS.has(w));
}

/** The path of the first key in `value` (at any depth) that looks like a secret's name. */
function findSecretKey(value: unknown, path: string, depth: number): string | undefined {
  if (depth > 20) return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findSecretKey(value[i], `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (secretLikeKey(k)) return path === '' ? k : `${path}.${k}`;
      const found = findSecretKey(v, path === '' ? k : `${path}.${k}`, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const MAX_DETAIL_CHARS = 8192;

interface AuditRow {
  seq: number;
  at: string;
  actor_staff_id: number | null;
  actor: string;
  source: AuditSource;
  action: string;
  field: string | null;
  detail: string | null;
}

const toEvent = (row: AuditRow): AuditEvent => {
  const actor: AuditActor = { name: row.actor, source: row.source };
  if (row.actor_staff_id !== null) actor.staffId = row.actor_staff_id;
  const event: AuditEvent = { seq: row.seq, at: row.at, actor, action: row.action };
  if (row.field !== null) event.field = row.field;
  if (row.detail !== null) event.detail = JSON.parse(row.detail) as Record<string, unknown>;
  return event;
};

export const AUDIT_LIST_DEFAULT = 100;
export const AUDIT_LIST_MAX = 1000;

export interface AuditLogOptions {
  /**
   * The training log (training/loket.db): it keeps none of the store's staff, so an entry whose actor is a member of
   * staff first writes a stand-in row for them (core/staff/stand-in.ts), as the training orders do. Never for the
   * store's own books, whose staff are real.
   */
  standInStaff?: boolean;
}

/**
 * The audit log (`audit_events`, migration 5): who did what and when, append-only like the order events.
 * Never a secret value: a detail with a key that looks like a secret's name is refused (an Error, so a
 * slip fails loudly in tests rather than writing the secret). A write joins a transaction already open on
 * the connection (so a settings change and its event commit together, or neither does), else it is its
 * own IMMEDIATE transaction. Each database has its table: the store's books (loket.db), and the training log,
 * where a change of the order log in training (a shift's, say) is audited in the change's own transaction.
 */
export class AuditLog {
  private readonly statements = new Map<string, Statement>();

  constructor(
    /** The connection the entries are written on: a change and its entry commit together only on the same one. */
    readonly db: Database,
    private readonly clock: Clock = systemClock,
    private readonly options: AuditLogOptions = {},
  ) {}

  record(input: AuditEventInput): AuditEvent {
    const { actor, action, field } = input;
    if (!(AUDIT_ACTIONS as readonly string[]).includes(action))
      throw new Error(`audit: unknown action ${String(action)}`);
    if (!(AUDIT_SOURCES as readonly string[]).includes(actor.source))
      throw new Error(`audit: unknown source ${String(actor.source)}`);
    if (actor.staffId !== undefined && actor.source !== 'app')
      throw new Error('audit: only an action in the app has a staff member as its actor');
    if (field !== undefined && (field.length < 1 || field.length > 64))
      throw new Error('audit: field of 1 to 64 characters');
    let detail: string | null = null;
    if (input.detail !== undefined) {
      if (input.detail === null || typeof input.detail !== 'object' || Array.isArray(input.detail))
        throw new Error('audit: detail must be a JSON object');
      const secret = findSecretKey(input.detail, '', 0);
      if (secret !== undefined)
        throw new Error(`audit: detail key ${secret} looks like a secret; secrets are never written to the audit log`);
      detail = JSON.stringify(input.detail);
      if (detail.length > MAX_DETAIL_CHARS) throw new Error(`audit: detail longer than ${MAX_DETAIL_CHARS} characters`);
    }
    const write = this.db.transaction(() => {
      const at = this.clock.now().toISOString();
      if (this.options.standInStaff && actor.staffId !== undefined) standInForStaff(this.db, actor.staffId, at);
      const info = this.stmt(
        `INSERT INTO audit_events (at, actor_staff_id, actor, source, action, field, detail)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(at, actor.staffId ?? null, actor.name, actor.source, action, field ?? null, detail);
      return this.stmt<[number], AuditRow>('SELECT * FROM audit_events WHERE seq = ?').get(
        Number(info.lastInsertRowid),
      )!;
    });
    return toEvent(this.db.inTransaction ? write() : write.immediate());
  }

  /** Newest first: `limit` events (default 100, at most 1000) with `seq` below `before`, if given. */
  list(options: { limit?: number; before?: number } = {}): AuditEvent[] {
    const limit = options.limit ?? AUDIT_LIST_DEFAULT;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > AUDIT_LIST_MAX)
      throw new RangeError(`audit list limit must be a whole number from 1 to ${AUDIT_LIST_MAX}, got ${limit}`);
    const before = options.before ?? Number.MAX_SAFE_INTEGER;
    if (!Number.isSafeInteger(before))
      throw new RangeError(`audit list before must be a sequence number, got ${before}`);
    return this.stmt<[number, number], AuditRow>('SELECT * FROM audit_events WHERE seq < ? ORDER BY seq DESC LIMIT ?')
      .all(before, limit)
      .map(toEvent);
  }

  private stmt<P extends unknown[] = unknown[], R = unknown>(sql: string): Statement<P, R> {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s as unknown as Statement<P, R>;
  }
}
