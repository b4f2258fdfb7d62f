import { BreakLine, CharacterSet, PrinterTypes, ThermalPrinter } from 'node-thermal-printer';
import type { PaperWidth, Receipt, ReceiptMark, ReceiptSection } from './receipt-model';

export interface EscPosOptions {
  paper: PaperWidth;
}

/** Characters per line in the printer's standard font A (12×24 dots at 203 dpi). */
export const CHARS_PER_LINE: Readonly<Record<PaperWidth, number>> = { 58: 32, 80: 48 };

/**
 * The builder is never connected: this interface string only satisfies the constructor, which parses it
 * without opening anything. Loket sends the bytes itself (src-main/adapters/tcp-printer.ts).
 */
const UNUSED_INTERFACE = 'tcp://receipt-builder.invalid';

/** ESC @: initialise the printer (clear the buffer, reset modes). The builder has it, its typings do not. */
const ESC_INIT = Buffer.from([0x1b, 0x40]);

const REPLACEMENTS: Readonly<Record<string, string>> = {
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u00ab': '"',
  '\u00bb': '"',
  '\u2022': '*',
  '\u00b7': '.',
  '\u00d7': 'x',
  '\u00f7': '/',
  '\u20ac': 'EUR',
  '\u00a3': 'GBP',
  '\u00a5': 'JPY',
  '\u00df': 'ss',
  '\u00e6': 'ae',
  '\u00c6': 'AE',
  '\u0153': 'oe',
  '\u0152': 'OE',
  '\u00f8': 'o',
  '\u00d8': 'O',
  '\u0111': 'd',
  '\u0110': 'D',
  '\u0142': 'l',
  '\u0141': 'L',
  '\u0131': 'i',
  '\u00b0': 'o',
};

/**
 * Printable ASCII only, deterministically: accents are dropped (é → e), common punctuation is transliterated
 * (— → -, “ ” → "), white space and control characters become one space — so text from an order (an item
 * name) can never smuggle a printer command (ESC, GS) — and anything else becomes "?". Indonesian needs
 * nothing beyond ASCII; amounts are "Rp25.000".
 */
export function toPrinterText(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFKD').replace(/\p{M}/gu, '')) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x20 && code < 0x7f) out += ch;
    else if (REPLACEMENTS[ch] !== undefined) out += REPLACEMENTS[ch];
    else if (code < 0x20 || code === 0x7f || /\s/u.test(ch) || (code >= 0x80 && code < 0xa0)) out += ' ';
    else out += '?';
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** Word-wraps to `width` columns; a word longer than a line (an id, a VA number) is cut. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(' ').filter((w) => w !== '')) {
    if (line && line.length + 1 + word.length <= width) {
      line += ` ${word}`;
      continue;
    }
    if (line) lines.push(line);
    while (word.length > width) {
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    line = word;
  }
  if (line) lines.push(line);
  return lines;
}

function centred(text: string, width: number): string {
  const left = Math.floor((width - text.length) / 2);
  return `${' '.repeat(Math.max(0, left))}${text}`.padEnd(width, ' ');
}

/**
 * ESC/POS bytes for an Epson-compatible thermal printer, built with node-thermal-printer's builder and never
 * sent by it. Deterministic: the same receipt and paper always give the same bytes (the builder reads no
 * clock and no randomness; all text is reduced to ASCII here, so its code-page switching never runs).
 * Starts with ESC @ (initialise) and ends with a feed, a full cut (GS V 0) and ESC @.
 */
export function renderEscPos(receipt: Receipt, opts: EscPosOptions): Buffer {
  const paper = opts.paper;
  if (paper !== 58 && paper !== 80) throw new Error(`paper must be 58 or 80 (mm), not ${String(paper)}`);
  const width = CHARS_PER_LINE[paper];
  const half = Math.floor(width / 2);
  const p = new ThermalPrinter({
    type: PrinterTypes.EPSON,
    interface: UNUSED_INTERFACE,
    width,
    // Folding is done here, so every line handed to the builder already fits.
    breakLine: BreakLine.NONE,
    lineCharacter: '-',
  });
  const txt = toPrinterText;
  // A manager's address, header and footer keep the lines they were typed on.
  const printWrapped = (text: string, columns = width) => {
    for (const part of text.split('\n')) for (const line of wrapText(txt(part), columns)) p.println(line);
  };
  // ESC ! (text size) also resets emphasis on Epson printers, so the size is always set before bold.
  const style = (size: 'normal' | 'tall' | 'big', bold: boolean) => {
    if (size === 'normal') p.setTextNormal();
    else if (size === 'tall') p.setTextDoubleHeight();
    else p.setTextQuadArea();
    p.bold(bold);
  };

  const sandboxBand = (m: ReceiptMark) => {
    // White on black across the whole line, double height: it cannot be missed or mistaken.
    p.alignCenter();
    style('tall', true);
    p.invert(true);
    for (const line of wrapText(txt(m.text), width)) p.println(centred(line, width));
    p.invert(false);
    style('normal', false);
  };
  const sandbox = receipt.marks.filter((m) => m.kind === 'sandbox');

  p.append(ESC_INIT);
  p.setCharacterSet(CharacterSet.PC437_USA);
  sandbox.forEach(sandboxBand);

  p.alignCenter();
  style('tall', true);
  printWrapped(receipt.header.storeName);
  style('normal', false);
  if (receipt.header.storeAddress) printWrapped(receipt.header.storeAddress);
  style('normal', true);
  printWrapped(receipt.title);
  style('normal', false);

  for (const m of receipt.marks.filter((mk) => mk.kind === 'copy')) {
    style('big', true);
    printWrapped(`** ${m.text} **`, half);
    style('normal', false);
  }

  if (receipt.code) {
    // A slip's code as large as fits: double size when it fits half the columns, else double height; it wraps
    // only between its groups of four.
    p.alignLeft();
    p.drawLine();
    p.alignCenter();
    style('normal', true);
    printWrapped(receipt.code.label);
    const code = txt(receipt.code.text);
    style(code.length <= half ? 'big' : 'tall', true);
    printWrapped(code, code.length <= half ? half : width);
    style('normal', false);
  }

  /**
   * A sale's block of rows: a value goes on the right of its label when both fit, else under it, right-aligned; a
   * row without a value is wrapped text (an item's name); sub-rows are indented two columns; a large row (the
   * change) is double height.
   */
  const section = (sec: ReceiptSection) => {
    p.drawLine();
    if (sec.title) {
      style('normal', true);
      printWrapped(sec.title);
      style('normal', false);
    }
    for (const r of sec.rows) {
      const indent = r.sub ? '  ' : '';
      if (r.large) style('tall', true);
      else if (r.strong) p.bold(true);
      const label = txt(r.label);
      if (r.value === undefined) {
        for (const part of r.label.split('\n'))
          for (const line of wrapText(txt(part), width - indent.length)) p.println(`${indent}${line}`);
      } else {
        const value = txt(r.value);
        if (indent.length + label.length + 1 + value.length <= width) p.leftRight(`${indent}${label}`, value);
        else {
          for (const line of wrapText(label, width - indent.length)) p.println(`${indent}${line}`);
          for (const part of wrapText(value, width - indent.length - 2)) p.println(part.padStart(width, ' '));
        }
      }
      if (r.large) style('normal', false);
      else if (r.strong) p.bold(false);
    }
  };

  p.alignLeft();
  p.drawLine();
  for (const line of receipt.lines) {
    const label = txt(line.label);
    const value = txt(line.value);
    const strong = line.key === 'status';
    if (strong) p.bold(true);
    if (label.length + 1 + value.length <= width) {
      p.leftRight(label, value);
    } else {
      printWrapped(label);
      for (const part of wrapText(value, width - 2)) p.println(`  ${part}`);
    }
    if (strong) p.bold(false);
  }
  (receipt.sections?.beforeTotal ?? []).forEach(section);
  p.drawLine();

  p.alignCenter();
  style('normal', true);
  printWrapped(receipt.total.label);
  const amount = txt(receipt.total.text);
  style(amount.length <= half ? 'big' : 'tall', true);
  printWrapped(amount, amount.length <= half ? half : width);
  style('normal', false);
  if (receipt.notes.length) {
    style('normal', true);
    for (const note of receipt.notes) printWrapped(note);
    style('normal', false);
  }
  p.alignLeft();
  (receipt.sections?.afterTotal ?? []).forEach(section);
  p.drawLine();
  if (receipt.steps) {
    style('normal', true);
    printWrapped(receipt.steps.title);
    style('normal', false);
    // "1. " then the step, its next lines under the step's first letter.
    receipt.steps.items.forEach((item, i) => {
      const number = `${i + 1}. `;
      wrapText(txt(item), width - number.length).forEach((part, j) =>
        p.println(`${j === 0 ? number : ' '.repeat(number.length)}${part}`),
      );
    });
    p.drawLine();
  }

  sandbox.forEach(sandboxBand);
  p.alignCenter();
  style('normal', true);
  printWrapped(receipt.footer);
  style('normal', false);
  printWrapped(`${receipt.printedAt.label} ${receipt.printedAt.value}`);
  p.alignLeft();
  p.cut();

  return Buffer.from(p.getBuffer());
}
