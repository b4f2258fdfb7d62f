/**
 * JSON as Loket accepts it from the other side of a wire (a request at the sandbox, an answer or a callback at
 * Loket): valid UTF-8, valid JSON, and no object with the same key twice. `JSON.parse` quietly keeps the last of
 * two equal keys, so a body could mean one thing to a proxy that keeps the first and another to us; and it
 * replaces broken UTF-8 with U+FFFD, so bytes the sender never meant would be read as text. Both are refused.
 */
export type StrictJson =
  { ok: true; value: unknown } | { ok: false; problem: 'utf8' | 'syntax' | 'duplicate_key'; message: string };

/**
 * `text` as JSON, strictly. Bytes from the wire are decoded first with `decodeStrictUtf8` (core/http): this
 * layer has no platform decoder, and broken UTF-8 is refused there with the same words as here.
 */
export function parseStrictJson(text: string): StrictJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, problem: 'syntax', message: `is not valid JSON (${(err as Error).message})` };
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined)
    return {
      ok: false,
      problem: 'duplicate_key',
      message: `has the key ${JSON.stringify(duplicate)} twice in one object`,
    };
  return { ok: true, value };
}

type Frame = { keys: Set<string>; expectKey: boolean } | null;

/** The first key that appears twice in one object of `text`, which is valid JSON. */
function findDuplicateKey(text: string): string | undefined {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return key;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j;
    } else if (c === '{') stack.push({ keys: new Set(), expectKey: true });
    else if (c === '[') stack.push(null);
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top) top.expectKey = true;
    }
  }
  return undefined;
}

/** The words for bytes that are not UTF-8, the same wherever they are refused. */
export const NOT_UTF8: StrictJson = { ok: false, problem: 'utf8', message: 'is not valid UTF-8' };

/** C0 and C1 control characters, DEL, and a UTF-16 surrogate without its pair: never part of a text field. */
// eslint-disable-next-line no-control-regex -- finding control characters is what this expression is for
const BAD_TEXT = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

/** Why `text` cannot be a field's text (a control character or a lone surrogate), or undefined. */
export function badTextReason(text: string): string | undefined {
  const m = BAD_TEXT.exec(text);
  if (!m) return undefined;
  const code = m[0].charCodeAt(0);
  return code >= 0xd800 && code <= 0xdfff
    ? 'must not contain a broken character (a lone UTF-16 surrogate)'
    : `must not contain control characters (found U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
}
