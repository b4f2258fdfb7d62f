// EMVCo Merchant-Presented Mode QR payloads (EMV QRCPS MPM) in the Indonesian QRIS profile.
// A payload is a flat run of TLVs: 2-digit tag, 2-digit length (01–99, in characters), value.
// Tags 26–51 and 62 are templates whose value is itself a run of TLVs.

export interface QrisInput {
  merchantName: string;
  merchantCity: string;
  postalCode?: string;
  /** ISO 18245 merchant category code; defaults to "5411" (grocery). */
  merchantCategoryCode?: string;
  /** QRIS National Merchant ID, e.g. "ID1020000000001". */
  nmid: string;
  /** Merchant PAN, e.g. "936000000000000001". */
  merchantPan: string;
  /** Reverse-domain id of the acquirer; defaults to the sandbox gateway's. */
  acquirerDomain?: string;
  /** Whole rupiah. */
  amount: number;
  billNumber?: string;
  referenceLabel?: string;
  terminalLabel?: string;
}

export interface EmvParseResult {
  readonly ok: true;
  /**
   * Every top-level tag, templates included as their raw value. Tags look like integers to JavaScript,
   * so key order is numeric ("00" and "01" list last), not payload order.
   */
  readonly tags: Readonly<Record<string, string>>;
  /** Sub-tags of the templates present (26–51 and 62). */
  readonly templates: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly crcValid: true;
}

const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;
const DIGITS = /^[0-9]+$/;
const ALPHANUMERIC = /^[0-9A-Za-z]+$/;
const MAX_LENGTH = 99;

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, xorout 0) over the UTF-8 bytes. */
export function crc16Ccitt(input: string): string {
  let crc = 0xffff;
  for (const byte of utf8Bytes(input)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

// Hand-rolled because this folder is compiled without DOM or Node types, so TextEncoder is not declared.
function* utf8Bytes(text: string): Generator<number> {
  for (const char of text) {
    let cp = char.codePointAt(0) ?? 0;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // lone surrogate, as TextEncoder does
    if (cp < 0x80) {
      yield cp;
    } else if (cp < 0x800) {
      yield 0xc0 | (cp >> 6);
      yield 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      yield 0xe0 | (cp >> 12);
      yield 0x80 | ((cp >> 6) & 0x3f);
      yield 0x80 | (cp & 0x3f);
    } else {
      yield 0xf0 | (cp >> 18);
      yield 0x80 | ((cp >> 12) & 0x3f);
      yield 0x80 | ((cp >> 6) & 0x3f);
      yield 0x80 | (cp & 0x3f);
    }
  }
}

function checked(field: string, value: string, max: number, pattern: RegExp, what: string): string {
  if (value.length === 0) throw new RangeError(`${field} must not be empty`);
  if (value.length > max) throw new RangeError(`${field} is ${value.length} characters; at most ${max} allowed`);
  if (!pattern.test(value)) throw new RangeError(`${field} must be ${what}`);
  return value;
}

const ascii = (field: string, value: string, max: number): string =>
  checked(field, value, max, PRINTABLE_ASCII, 'printable ASCII (0x20–0x7E)');

function tlv(tag: string, value: string, field: string): string {
  // Reached only by templates and free-length fields; the named field is what the caller must shorten.
  if (value.length > MAX_LENGTH) {
    throw new RangeError(`${field} (tag ${tag}) is ${value.length} characters; at most ${MAX_LENGTH} allowed`);
  }
  return tag + String(value.length).padStart(2, '0') + value;
}

/** Builds a dynamic QRIS payload (point of initiation "12", because the amount is fixed). */
export function buildQrisPayload(input: QrisInput): string {
  const { amount } = input;
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new RangeError(`amount must be a positive whole number of rupiah, got ${String(amount)}`);
  }
  const amountText = String(amount);
  if (amountText.length > 13) throw new RangeError(`amount ${amountText} exceeds the 13 characters tag 54 allows`);

  const nmid = checked('nmid', input.nmid, 15, ALPHANUMERIC, 'letters and digits');
  const merchantPan = checked('merchantPan', input.merchantPan, 19, DIGITS, 'digits');
  const acquirerDomain = ascii('acquirerDomain', input.acquirerDomain ?? 'ID.CO.SANDBOX.WWW', MAX_LENGTH);
  const mcc = input.merchantCategoryCode ?? '5411';
  if (!/^[0-9]{4}$/.test(mcc)) throw new RangeError(`merchantCategoryCode must be 4 digits, got "${mcc}"`);

  const additional = [
    ['01', 'billNumber', input.billNumber],
    ['05', 'referenceLabel', input.referenceLabel],
    ['07', 'terminalLabel', input.terminalLabel],
  ] as const;
  const additionalData = additional
    .map(([tag, field, value]) => (value === undefined ? '' : tlv(tag, ascii(field, value, 25), field)))
    .join('');

  const merchantAccount =
    tlv('00', acquirerDomain, 'acquirerDomain') +
    tlv('01', merchantPan, 'merchantPan') +
    tlv('02', nmid, 'nmid') +
    tlv('03', 'UMI', 'merchant criteria');
  const qrisAccount =
    tlv('00', 'ID.CO.QRIS.WWW', 'QRIS domain') + tlv('02', nmid, 'nmid') + tlv('03', 'UMI', 'merchant criteria');

  const body =
    tlv('00', '01', 'payload format indicator') +
    tlv('01', '12', 'point of initiation') +
    tlv('26', merchantAccount, 'merchant account information (shorten acquirerDomain)') +
    tlv('51', qrisAccount, 'QRIS merchant account information') +
    tlv('52', mcc, 'merchantCategoryCode') +
    tlv('53', '360', 'currency') +
    tlv('54', amountText, 'amount') +
    tlv('58', 'ID', 'country code') +
    tlv('59', ascii('merchantName', input.merchantName, 25), 'merchantName') +
    tlv('60', ascii('merchantCity', input.merchantCity, 15), 'merchantCity') +
    (input.postalCode === undefined ? '' : tlv('61', ascii('postalCode', input.postalCode, 10), 'postalCode')) +
    (additionalData === '' ? '' : tlv('62', additionalData, 'additional data'));

  const withCrcHeader = body + '6304';
  return withCrcHeader + crc16Ccitt(withCrcHeader);
}

const isTemplate = (tag: string): boolean => tag === '62' || (tag >= '26' && tag <= '51');

// Lengths count characters, so work on code points rather than UTF-16 units (tag 64 may carry non-ASCII).
function parseTlvs(chars: readonly string[], where: string): Array<[tag: string, value: string]> {
  const out: Array<[string, string]> = [];
  const seen = new Set<string>();
  let i = 0;
  while (i < chars.length) {
    const header = chars.slice(i, i + 4).join('');
    if (chars.length - i < 4) throw new Error(`${where}: truncated data object header "${header}" at position ${i}`);
    const tag = header.slice(0, 2);
    const lengthText = header.slice(2);
    if (!/^[0-9]{2}$/.test(tag)) throw new Error(`${where}: invalid tag "${tag}" at position ${i}`);
    if (!/^[0-9]{2}$/.test(lengthText)) throw new Error(`${where}: tag ${tag} has invalid length "${lengthText}"`);
    const length = Number(lengthText);
    if (length === 0) throw new Error(`${where}: tag ${tag} has length 00; empty data objects are not allowed`);
    const remaining = chars.length - (i + 4);
    if (length > remaining) {
      throw new Error(
        `${where}: tag ${tag} declares length ${length} but only ${remaining} characters remain (truncated?)`,
      );
    }
    if (seen.has(tag)) throw new Error(`${where}: tag ${tag} appears more than once`);
    seen.add(tag);
    out.push([tag, chars.slice(i + 4, i + 4 + length).join('')]);
    i += 4 + length;
  }
  return out;
}

/** Parses and verifies an EMVCo MPM payload; throws an Error describing the first problem found. */
export function parseEmv(payload: string): EmvParseResult {
  // Integrity before structure: a corrupted payload otherwise surfaces as a confusing structural error.
  const crcAt = payload.length - 8;
  let crcVerified = false;
  if (crcAt >= 0 && payload.slice(crcAt, crcAt + 4) === '6304') {
    const stated = payload.slice(crcAt + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(stated)) throw new Error(`tag 63: CRC "${stated}" is not 4 hex digits`);
    const computed = crc16Ccitt(payload.slice(0, crcAt + 4));
    if (stated.toUpperCase() !== computed) {
      throw new Error(`tag 63: CRC mismatch (payload says ${stated}, computed ${computed}); the payload is corrupted`);
    }
    crcVerified = true;
  }

  const entries = parseTlvs(Array.from(payload), 'payload');
  const first = entries[0];
  if (!first || first[0] !== '00' || first[1] !== '01') {
    throw new Error('tag 00 (payload format indicator "01") must come first');
  }
  const crcIndex = entries.findIndex(([tag]) => tag === '63');
  if (crcIndex === -1) throw new Error('tag 63 (CRC) is missing');
  if (crcIndex !== entries.length - 1) throw new Error('tag 63 (CRC) must be the last data object');
  if (entries[crcIndex]?.[1].length !== 4) throw new Error('tag 63 (CRC) must have length 04');
  // Only reachable unverified when the 4 CRC characters are not single UTF-16 units, i.e. not hex.
  if (!crcVerified) throw new Error('tag 63: CRC is not 4 hex digits');

  const tags: Record<string, string> = {};
  const templates: Record<string, Record<string, string>> = {};
  for (const [tag, value] of entries) {
    tags[tag] = value;
    if (isTemplate(tag)) templates[tag] = Object.fromEntries(parseTlvs(Array.from(value), `tag ${tag}`));
  }
  return { ok: true, tags, templates, crcValid: true };
}

/** The transaction amount (tag 54) in whole rupiah, or undefined for a static QR without one. */
export function qrisAmount(payload: string): number | undefined {
  const value = parseEmv(payload).tags['54'];
  if (value === undefined) return undefined;
  // Rupiah has no minor unit in practice, but some issuers still print ".00".
  const match = /^([0-9]+)(?:\.0*)?$/.exec(value);
  const amount = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(amount)) throw new Error(`tag 54: amount "${value}" is not a whole number of rupiah`);
  return amount;
}
