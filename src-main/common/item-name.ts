import { SEED_LIMITS } from './order-request';
import { withoutHiddenCharacters } from './visible-text';

/**
 * What a sale's gateway order says it is for: `item_name` and, for one fixed-denomination item, `item_id`.
 *
 * item_name is the first line's name, cut to fit, plus " +N" for the N other lines: "Kopi susu +2". The interface
 * allows 25 characters, counted here as the order validator counts them (code points, so an emoji is one). The cut
 * never splits a grapheme cluster — what a reader sees as one character: an emoji with a skin tone or a ZWJ
 * sequence (👩🏽‍💻 is 4 code points), a flag, a letter written as e + a combining accent — so the customer's
 * payment page never shows half a character; `Intl.Segmenter` finds the clusters. Space before the " +N" is not
 * doubled.
 *
 * Decided here: control characters (a tab, a newline) and runs of spaces in a name become one space, and a broken
 * UTF-16 half is dropped, because the gateway refuses them and a name is still worth sending; no "…" is added
 * (it would take a character of the name). A first character longer than the room left (a letter with 20 combining
 * marks) cannot be sent uncut: that is an issue, not a cut cluster. item_id is sent only when the sale is one line,
 * of quantity 1, of a fixed-denomination product, and the tender pays the whole sale: airtime of one denomination is
 * delivered per order, and a part payment is not that product.
 */

export const ITEM_NAME_MAX = SEED_LIMITS.item_name;

export interface ItemNameIssue {
  field: string;
  rule: 'no_lines' | 'empty_name' | 'unsendable_name';
  message: string;
}

export type ItemNameResult = { ok: true; itemName: string } | { ok: false; issue: ItemNameIssue };

// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_OR_SPACES = /[\u0000-\u001f\u007f-\u009f\s]+/gu;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

let segmenter: Intl.Segmenter | undefined;
function graphemes(text: string): Iterable<{ segment: string }> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}

function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** A name as it can travel: one space for each run of spaces or control characters, no broken halves, trimmed. */
export function cleanItemName(name: string): string {
  // Hidden characters go too: the order validator refuses them (visible-text.ts), and a name built from the
  // catalogue must always be sendable.
  return withoutHiddenCharacters(name.replace(LONE_SURROGATE, '')).replace(CONTROL_OR_SPACES, ' ').trim();
}

/** The longest start of `text` of whole grapheme clusters within `max` code points. */
export function cutToGraphemes(text: string, max: number): string {
  let out = '';
  let used = 0;
  for (const { segment } of graphemes(text)) {
    const n = codePoints(segment);
    if (used + n > max) break;
    out += segment;
    used += n;
  }
  return out;
}

/** The item_name of a sale of these lines (in the cart's order). */
export function gatewayItemName(lines: readonly { name: string }[]): ItemNameResult {
  const first = lines[0];
  if (!first) return { ok: false, issue: { field: 'lines', rule: 'no_lines', message: 'lines: a sale needs a line' } };
  const name = cleanItemName(typeof first.name === 'string' ? first.name : '');
  if (name === '')
    return {
      ok: false,
      issue: { field: 'lines[0].name', rule: 'empty_name', message: 'line 1, name: must not be empty' },
    };
  const suffix = lines.length > 1 ? ` +${lines.length - 1}` : '';
  const room = ITEM_NAME_MAX - codePoints(suffix);
  if (codePoints(name) <= room) return { ok: true, itemName: name + suffix };
  const cut = cutToGraphemes(name, room).trimEnd();
  if (cut === '')
    return {
      ok: false,
      issue: {
        field: 'lines[0].name',
        rule: 'unsendable_name',
        message: `line 1, name: its first character is longer than the ${room} code points left for the gateway's item_name; rename the item`,
      },
    };
  return { ok: true, itemName: cut + suffix };
}

/** What item_id needs of a line. */
export interface ItemIdLine {
  qty: number;
  fixedDenomination?: { itemId: string } | undefined;
}

/**
 * The item_id to send with a tender of `tenderAmount` for a sale of `saleTotal`: the product's itemId when the sale is
 * one line of quantity 1 of a fixed-denomination product and the tender pays all of it; otherwise undefined.
 */
export function gatewayItemId(
  lines: readonly ItemIdLine[],
  tenderAmount: number,
  saleTotal: number,
): string | undefined {
  if (lines.length !== 1) return undefined;
  const line = lines[0]!;
  if (line.qty !== 1 || !line.fixedDenomination || tenderAmount !== saleTotal) return undefined;
  return line.fixedDenomination.itemId;
}
