import { createHash } from 'node:crypto';

/**
 * Canonical JSON: one text for one JSON value, so that its SHA-256 names the value (the outbox's `sha256`, compared
 * by the store book to tell a resent event from a different one under the same number). It is RFC 8785's JSON
 * Canonicalization Scheme for the values Loket writes: no whitespace, object members sorted by their names' UTF-16
 * code units, strings and numbers written as ECMAScript's JSON.stringify writes them (which is what RFC 8785
 * specifies). A member whose value is `undefined` is left out, as JSON.stringify does; anything that is not JSON
 * (a function, a bigint, a number that is not finite, a Date or another class) is refused, so that no value is
 * quietly changed on its way into a hash.
 *
 * The format is frozen: a change would change every stored hash (a new format needs a new name).
 */
export function canonicalJson(value: unknown): string {
  return write(value, 'the value');
}

function write(value: unknown, where: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON: ${where} is ${value}, not a JSON number`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value))
        return `[${value.map((item, i) => (item === undefined ? 'null' : write(item, `${where}[${i}]`))).join(',')}]`;
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null)
        throw new TypeError(`canonical JSON: ${where} is not a plain object`);
      const record = value as Record<string, unknown>;
      const members: string[] = [];
      for (const key of Object.keys(record).sort()) {
        const member = record[key];
        if (member === undefined) continue;
        members.push(`${JSON.stringify(key)}:${write(member, `${where}.${key}`)}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      throw new TypeError(`canonical JSON: ${where} is a ${typeof value}, not JSON`);
  }
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
