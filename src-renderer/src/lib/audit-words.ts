import type { AuditEntry } from '../../../src-main/common/manager';
import { formatDay } from '../../../src-main/common/dates';
import { formatRupiah } from '../../../src-main/common/money';
import { messagesFor, type Messages } from '../i18n/i18n.svelte';

/**
 * An audit entry's change in the screen's language: the values the audit log keeps as data (true/false, a mode, a
 * language, a printer kind, a verdict, an attention action, an amount, a day) in words, and the detail's keys by
 * their names here. What a person typed (a store name, an address, a URL) is shown as it was typed.
 */
export function auditChange(entry: AuditEntry, t: Messages): string {
  const detail = entry.detail ?? {};
  if ('from' in detail || 'to' in detail) {
    const from = value(entry.field ?? entry.action, 'from', detail.from, t);
    const to = value(entry.field ?? entry.action, 'to', detail.to, t);
    const name = typeof detail.name === 'string' ? `${detail.name}: ` : '';
    return `${name}${from} → ${to}`;
  }
  return Object.entries(detail)
    .filter(([key]) => key !== 'staffId')
    .map(([key, v]) => `${keyName(key, t)}: ${value(entry.field ?? entry.action, key, v, t)}`)
    .join(', ');
}

function keyName(key: string, t: Messages): string {
  return (t.audit.keys as Record<string, string | undefined>)[key] ?? key;
}

/** One value, in words where the audit log keeps it as data; `about` is the setting or the action it belongs to. */
function value(about: string, key: string, v: unknown, t: Messages): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? t.audit.yes : t.audit.no;
  if (typeof v === 'number') {
    if (about === 'gateway.timeoutMs') return t.audit.seconds(v / 1000);
    if (key === 'retryAfterMs') return t.audit.seconds(Math.ceil(v / 1000));
    if (key === 'paid') return formatRupiah(v);
    return String(v);
  }
  if (typeof v === 'string') {
    if (v === '') return '""';
    const words = wordsFor(about, key, t);
    const worded = words?.[v];
    if (worded !== undefined) return worded;
    if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return formatDay(v);
    return v;
  }
  if (typeof v === 'object' && Array.isArray((v as { ids?: unknown }).ids)) {
    const list = v as { ids: unknown[]; enabled?: unknown[] };
    return t.audit.methodList(list.ids.length, Array.isArray(list.enabled) ? list.enabled.length : 0);
  }
  const text = JSON.stringify(v);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** The words of a setting's or a detail's enumerated values. */
function wordsFor(about: string, key: string, t: Messages): Record<string, string> | undefined {
  if (about === 'mode' || about === 'mode.changed') return { training: t.mode.training, live: t.mode.live };
  if (about === 'lang' || about === 'display.lang')
    return { id: messagesFor('id').langName, en: messagesFor('en').langName };
  if (about === 'printer.kind') return t.printer.kinds;
  if (about === 'gateway.signing.key') return { appkey: t.gateway.signWithAppkey, secret: t.gateway.signWithSecret };
  if (about === 'staff.changed' && (key === 'from' || key === 'to')) return t.staff.roles;
  if (key === 'role') return t.staff.roles;
  if (key === 'verdict') return t.gateway.verdicts;
  if (key === 'action') return t.attention.actions;
  if (key === 'kind') return t.attention.kinds;
  if (key === 'attempt') return t.audit.attempts;
  if (key === 'method' && about === 'connection.tested') return t.audit.probeMethods;
  if (key === 'by' || key === 'via') return t.audit.how;
  if (key === 'format') return t.exportOrders.formats;
  return undefined;
}
