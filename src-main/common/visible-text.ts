/**
 * Characters that change how text looks without being seen: direction controls (a right-to-left override turns
 * "Kopi<RLO>gnp.exe" into "Kopiexe.png" on a receipt) and zero-width characters (two names that look the same but
 * are not). An item or customer name printed on a receipt, shown on the customer's screen and written into an export
 * has no use for them, so entry refuses them (order-request.ts) and the export shows any already stored as a visible
 * marker (core/export). A zero-width joiner inside an emoji (👩‍🍳) is how the emoji is written, and stays.
 */
const HIDDEN_SOURCE =
  '[\\u061c\\u180e\\u200b\\u200c\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff]' +
  // A joiner is part of an emoji when an emoji (or its skin tone or presentation selector) is on both sides.
  '|(?<!\\p{Extended_Pictographic}|\\p{Emoji_Modifier}|\\ufe0f)\\u200d|\\u200d(?!\\p{Extended_Pictographic})';
const HIDDEN = new RegExp(HIDDEN_SOURCE, 'u');
const HIDDEN_ALL = new RegExp(HIDDEN_SOURCE, 'gu');

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why `text` cannot be a name (an invisible or direction-changing character, named by its code point), or undefined. */
export function hiddenCharacterReason(text: string): string | undefined {
  const m = HIDDEN.exec(text);
  return m ? `must not contain invisible or text-direction characters (found ${codePoint(m[0])})` : undefined;
}

/** `text` without its invisible or direction-changing characters (an emoji's own joiners stay). */
export function withoutHiddenCharacters(text: string): string {
  return HIDDEN.test(text) ? text.replace(HIDDEN_ALL, '') : text;
}

/** `text` with each invisible or direction-changing character written as a visible marker, `<U+202E>`. */
export function showHiddenCharacters(text: string): string {
  return HIDDEN.test(text) ? text.replace(HIDDEN_ALL, (c) => `<${codePoint(c)}>`) : text;
}
