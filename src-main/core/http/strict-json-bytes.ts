import { NOT_UTF8, parseStrictJson, type StrictJson } from '../../common/strict-json';

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes from the wire as text, or undefined when they are not valid UTF-8 (never U+FFFD in their place). */
export function decodeStrictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** A JSON body from the wire: valid UTF-8, valid JSON, no key twice (common/strict-json.ts). */
export function parseStrictJsonBytes(bytes: Uint8Array): StrictJson {
  const text = decodeStrictUtf8(bytes);
  return text === undefined ? NOT_UTF8 : parseStrictJson(text);
}
