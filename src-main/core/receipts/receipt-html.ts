import type { PaperWidth, Receipt, ReceiptMark, ReceiptRow, ReceiptSection } from './receipt-model';

/** Thermal paper (58 or 80 mm wide), or an A4 sheet (a sale's struk kept as an invoice, or printed on an office printer). */
export type HtmlPaper = PaperWidth | 'A4';

export interface ReceiptHtmlOptions {
  paper: HtmlPaper;
}

/** Printable width of common thermal paper: 58 mm paper prints 48 mm, 80 mm paper prints 72 mm. */
export const PRINTABLE_WIDTH_MM: Readonly<Record<PaperWidth, number>> = { 58: 48, 80: 72 };

/**
 * The width of the receipt's column on each paper. On A4 the receipt keeps its one-column layout, 120 mm wide and
 * centred on the sheet (210 mm less 15 mm margins leaves 180 mm): a long line of text is easier to read than a wide
 * gap between a name and its amount.
 */
const COLUMN_MM: Readonly<Record<HtmlPaper, number>> = { ...PRINTABLE_WIDTH_MM, A4: 120 };
const A4 = { width: 210, height: 297, margin: 15 } as const;

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Type size in mm: the browser preview, the PDF and the printer agree; 80 mm paper gets slightly larger type. */
const BASE_FONT_MM: Readonly<Record<HtmlPaper, number>> = { 58: 2.7, 80: 3.2, A4: 3.2 };
const LINE_HEIGHT = 1.3;
/** A monospace character is 0.6 em wide; a little more, so that the page-height estimate errs on the long side. */
const CHAR_EM = 0.61;
const GAP_MM = 2;
const SIZE = { store: 1.35, title: 1.1, sandbox: 1.15, copy: 1.8, total: 2.3, printed: 0.85, large: 1.6 } as const;
/** A sub-row of a section (an item's quantity × price) is indented by this many em. */
const SUB_INDENT_EM = 1.5;
/** A slip's code is as large as one line of the paper allows, between these sizes (× the base size). */
const CODE_SIZE = { min: 1.2, max: 2.3 } as const;

/** The type size in mm of a slip's code: as large as fits on one line, within CODE_SIZE. */
function codeFontMm(code: string, paper: HtmlPaper): number {
  const f = BASE_FONT_MM[paper];
  const fit = COLUMN_MM[paper] / (Math.max(1, [...code].length) * CHAR_EM);
  return Math.min(f * CODE_SIZE.max, Math.max(f * CODE_SIZE.min, fit));
}

function mm(n: number): string {
  return `${Number(n.toFixed(2))}mm`;
}

function css(paper: HtmlPaper, pageHeightMm: number, codeMm: number, sections: boolean): string {
  const width = COLUMN_MM[paper];
  const f = BASE_FONT_MM[paper];
  // Chromium (Electron, Chrome) does not accept `auto` as a page height and would fall back to A4/Letter; it
  // takes the first rule, whose height is estimated from the content. A browser that understands the
  // second rule uses it instead. An A4 sheet is A4, and a long struk goes on to a second sheet.
  const page =
    paper === 'A4'
      ? `@page { size: A4 portrait; margin: ${A4.margin}mm }`
      : `@page { size: ${paper}mm ${pageHeightMm}mm; margin: 0 }
@page { size: ${paper}mm auto; margin: 0 }`;
  const sheet = 'background: #fff; box-shadow: 0 0 2mm rgba(0, 0, 0, 0.25);';
  const screen =
    paper === 'A4'
      ? `body { margin: 4mm auto; padding: ${A4.margin}mm ${(A4.width - width) / 2}mm; width: ${A4.width}mm; min-height: ${A4.height}mm; ${sheet} }`
      : `body { margin: 4mm auto; padding: 3mm ${mm((paper - width) / 2)} 5mm; width: ${paper}mm; ${sheet} }`;
  return `
${page}
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; background: #fff; color: #000; }
body {
  width: ${width}mm; margin: 0 auto; padding: 2mm 0 4mm;
  font-family: "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, "Courier New", monospace;
  font-size: ${mm(f)}; line-height: ${LINE_HEIGHT};
  -webkit-print-color-adjust: exact; print-color-adjust: exact;
}
header, footer { text-align: center; }
.store { font-size: ${mm(f * SIZE.store)}; font-weight: 700; overflow-wrap: anywhere; }
.address, .thanks { overflow-wrap: anywhere; white-space: pre-line; }
h1 { font-size: ${mm(f * SIZE.title)}; font-weight: 700; margin: 1.5mm 0 0; letter-spacing: 0.05em; }
hr { border: 0; border-top: 0.3mm dashed #000; margin: 2mm 0; }
.mark { display: block; text-align: center; font-weight: 700; margin: 1.5mm 0; padding: 1.2mm 1mm; overflow-wrap: anywhere; }
/* White on black; should a print setting drop backgrounds anyway, the outlined letters and the double frame still print. */
.mark-sandbox { background: #000; background-clip: padding-box; color: #fff; -webkit-text-stroke: 0.12mm #000;
  border: 0.8mm double #000; font-size: ${mm(f * SIZE.sandbox)}; }
.mark-copy { border: 0.8mm solid #000; font-size: ${mm(f * SIZE.copy)}; letter-spacing: 0.3em; }
dl { margin: 0; }
/* Label left, value right; when both do not fit on one line the value takes the next line, right-aligned. */
.row { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; column-gap: ${mm(GAP_MM)}; }
dt { flex: none; max-width: 100%; overflow-wrap: anywhere; }
dd { margin: 0 0 0 auto; min-width: 0; max-width: 100%; text-align: right; overflow-wrap: anywhere; }
.row-status dt, .row-status dd { font-weight: 700; }
.total { text-align: center; margin: 1mm 0; }
.total-label { font-weight: 700; }
.total-value { font-size: ${mm(f * SIZE.total)}; font-weight: 700; line-height: 1.15; overflow-wrap: anywhere; }
.notes { text-align: center; font-weight: 700; margin: 1.5mm 0; }
.notes p { margin: 0.5mm 0; }
.thanks { font-weight: 700; margin: 2mm 0 1mm; }
.printed { font-size: ${mm(f * SIZE.printed)}; }
/* A payment slip's code: large, and broken only between its groups of four, never inside one. */
.code { text-align: center; margin: 1mm 0; }
.code-label { font-weight: 700; }
.code-value { font-size: ${mm(codeMm)}; font-weight: 700; line-height: 1.2; overflow-wrap: normal; word-break: keep-all; }
.steps-title { font-weight: 700; }
.steps ol { margin: 0.5mm 0 0; padding-left: 1.8em; }
.steps li { margin: 0.3mm 0; overflow-wrap: anywhere; }
${sections ? sectionCss(f, paper) : ''}@media screen {
  html { background: #e8e8e8; }
  ${screen}
}
`;
}

/** The rules of a sale's struk only (an order's receipt and a slip have no sections, and keep their bytes). */
function sectionCss(f: number, paper: HtmlPaper): string {
  // On A4 the goods are a table: the name, then its quantity × price and its amount on the same line (a discount on
  // the next, under them); each row's cells are placed in the grid's columns directly (display: contents).
  const table =
    paper === 'A4'
      ? `.sec-items dl { display: grid; grid-template-columns: 1fr auto auto; column-gap: ${mm(GAP_MM * 2)}; }
.sec-items .row { display: contents; }
.sec-items .row-item dt { grid-column: 1; overflow-wrap: anywhere; }
.sec-items .sub dt { grid-column: 2; }
.sec-items .sub dd { grid-column: 3; }
`
      : '';
  return `${table}/* A sale's struk: blocks of rows (the goods, the sums, the taxes, the tenders). */
.sec-title { font-weight: 700; }
.sec .sub { padding-left: ${SUB_INDENT_EM}em; }
.sec .text dt { white-space: pre-line; }
.sec .strong dt, .sec .strong dd { font-weight: 700; }
.sec .large { font-size: ${mm(f * SIZE.large)}; font-weight: 700; line-height: 1.2; }
/* On A4 a long struk goes on to a second sheet: never inside a row, nor between an item and its quantity. */
.row, .total { break-inside: avoid; }
.sec .sub { break-before: avoid; }
`;
}

/**
 * How many lines a text takes when wrapped at `columns`, as the browser wraps it here: at spaces and after
 * hyphens, and a piece longer than a line is broken anywhere (overflow-wrap: anywhere).
 */
function wrappedLines(text: string, columns: number): number {
  let lines = 0;
  let used = 0;
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    word.split(/(?<=-)/).forEach((piece, i) => {
      const len = [...piece].length;
      const joint = i === 0 ? 1 : 0;
      if (used > 0 && used + joint + len <= columns) {
        used += joint + len;
        return;
      }
      lines += Math.ceil(len / columns);
      used = len % columns === 0 ? columns : len % columns;
    });
  }
  return Math.max(1, lines);
}

/**
 * The page height, in whole mm, that holds this receipt: the layout above added up block by block and
 * slightly over-estimated, so a browser prints it on one strip with only a few mm of blank paper after it.
 */
export function estimatePageHeightMm(receipt: Receipt, paper: HtmlPaper): number {
  const w = COLUMN_MM[paper];
  const f = BASE_FONT_MM[paper];
  const rows = (text: string, width: number, size: number, spacingEm = 0) =>
    text
      .split('\n')
      .reduce((n, part) => n + wrappedLines(part, Math.max(1, Math.floor(width / ((CHAR_EM + spacingEm) * size)))), 0);
  const line = (size: number) => LINE_HEIGHT * size;
  const cw = CHAR_EM * f;

  // The body's blocks in order, as [margin-top, height, margin-bottom]; adjacent vertical margins collapse.
  type Block = [number, number, number];
  const markBlock = (m: ReceiptMark): Block => {
    const size = f * (m.kind === 'sandbox' ? SIZE.sandbox : SIZE.copy);
    return [1.5, rows(m.text, w - 2 - 1.6, size, m.kind === 'copy' ? 0.3 : 0) * line(size) + 2.4 + 1.6, 1.5];
  };
  const rule: Block = [2, 0.3, 2];
  const sandbox = receipt.marks.filter((m) => m.kind === 'sandbox').map(markBlock);
  const blocks: Block[] = [...sandbox];

  let header = rows(receipt.header.storeName, w, f * SIZE.store) * line(f * SIZE.store);
  if (receipt.header.storeAddress) header += rows(receipt.header.storeAddress, w, f) * line(f);
  header += 1.5 + rows(receipt.title, w, f * SIZE.title, 0.05) * line(f * SIZE.title);
  blocks.push([0, header, 0]);
  blocks.push(...receipt.marks.filter((m) => m.kind === 'copy').map(markBlock));
  if (receipt.code) {
    blocks.push(rule);
    const size = codeFontMm(receipt.code.text, paper);
    blocks.push([1, line(f) + rows(receipt.code.text, w, size) * 1.2 * size, 1]);
  }
  blocks.push(rule);
  let dl = 0;
  for (const l of receipt.lines) {
    const together = ([...l.label].length + [...l.value].length) * cw + GAP_MM <= w;
    dl += (together ? 1 : rows(l.label, w, f) + rows(l.value, w, f)) * line(f);
  }
  blocks.push([0, dl, 0]);
  const sectionBlocks = (sections: readonly ReceiptSection[]) => {
    for (const sec of sections) {
      blocks.push(rule);
      let height = sec.title ? rows(sec.title, w, f) * line(f) : 0;
      for (const r of sec.rows) {
        const size = r.large ? f * SIZE.large : f;
        const inner = w - (r.sub ? SUB_INDENT_EM * size : 0);
        const lh = r.large ? 1.2 * size : line(size);
        if (r.value === undefined) height += rows(r.label, inner, size) * lh;
        else {
          const together = ([...r.label].length + [...r.value].length) * CHAR_EM * size + GAP_MM <= inner;
          height += (together ? 1 : rows(r.label, inner, size) + rows(r.value, inner, size)) * lh;
        }
      }
      blocks.push([0, height, 0]);
    }
  };
  sectionBlocks(receipt.sections?.beforeTotal ?? []);
  blocks.push(rule);
  blocks.push([1, line(f) + rows(receipt.total.text, w, f * SIZE.total) * 1.15 * f * SIZE.total, 1]);
  if (receipt.notes.length) {
    const notes = receipt.notes.reduce((sum, n) => sum + rows(n, w, f) * line(f), 0) + (receipt.notes.length - 1) * 0.5;
    blocks.push([1.5, notes, 1.5]);
  }
  sectionBlocks(receipt.sections?.afterTotal ?? []);
  blocks.push(rule);
  if (receipt.steps) {
    // Numbered items indented by 1.8 em: each wraps within the width left beside its number.
    const inner = w - 1.8 * f;
    const items = receipt.steps.items.reduce((sum, item) => sum + rows(item, inner, f) * line(f) + 0.6, 0);
    blocks.push([0, line(f) + 0.5 + items, 0]);
    blocks.push(rule);
  }
  blocks.push(...sandbox);
  const printed =
    rows(`${receipt.printedAt.label} ${receipt.printedAt.value}`, w, f * SIZE.printed) * line(f * SIZE.printed);
  blocks.push([2, rows(receipt.footer, w, f) * line(f) + 1 + printed, 0]);

  let h = 2 + 4; // the body's padding, which stops margins collapsing through it
  blocks.forEach(([top, height, bottom], i) => {
    const previousBottom = i === 0 ? 0 : (blocks[i - 1]?.[2] ?? 0);
    h += Math.max(top, previousBottom) + height;
    if (i === blocks.length - 1) h += bottom;
  });
  // A little spare, so rounding in the browser never pushes the last line onto a second page.
  return Math.ceil(h * 1.02 + 2);
}

/** A block of rows: a row with a value puts it on the right; a row without one is a line of text (a name). */
function sectionHtml(sec: ReceiptSection): string {
  const e = escapeHtml;
  const row = (r: ReceiptRow) => {
    const cls = ['row', `row-${r.key}`];
    if (r.value === undefined) cls.push('text');
    if (r.sub) cls.push('sub');
    if (r.strong) cls.push('strong');
    if (r.large) cls.push('large');
    const value = r.value === undefined ? '' : `<dd>${e(r.value)}</dd>`;
    return `<div class="${e(cls.join(' '))}"><dt>${e(r.label)}</dt>${value}</div>`;
  };
  const title = sec.title ? `<div class="sec-title">${e(sec.title)}</div>\n` : '';
  return `\n<hr>\n<section class="sec sec-${e(sec.key)}">\n${title}<dl>\n${sec.rows.map(row).join('\n')}\n</dl>\n</section>`;
}

function mark(m: ReceiptMark): string {
  return `<div class="mark mark-${m.kind}" role="note">${escapeHtml(m.text)}</div>`;
}

/**
 * A complete, self-contained HTML document for a receipt: inline CSS only, no scripts, no external resource
 * (a Content-Security-Policy forbids any), every text escaped. Prints from a browser (window.print()) or to
 * PDF at the paper's width; on screen it is shown as a paper strip.
 */
export function renderReceiptHtml(receipt: Receipt, opts: ReceiptHtmlOptions): string {
  const paper = opts.paper;
  if (paper !== 58 && paper !== 80 && paper !== 'A4')
    throw new Error(`paper must be 58 or 80 (mm) or 'A4', not ${String(paper)}`);
  const e = escapeHtml;
  const sandbox = receipt.marks.filter((m) => m.kind === 'sandbox');
  const address = receipt.header.storeAddress ? `\n<div class="address">${e(receipt.header.storeAddress)}</div>` : '';
  const rows = receipt.lines
    .map((l) => `<div class="row row-${e(l.key)}"><dt>${e(l.label)}</dt><dd>${e(l.value)}</dd></div>`)
    .join('\n');
  const notes = receipt.notes.length
    ? `\n<div class="notes">${receipt.notes.map((n) => `<p>${e(n)}</p>`).join('')}</div>`
    : '';
  // The document's name (a saved PDF's default file name): the title and the order's, refund's or struk's number.
  const number = ['order', 'refund', 'serial'].map((key) => receipt.lines.find((l) => l.key === key)).find(Boolean);
  const title = `${receipt.title} ${number?.value ?? ''}`.trim();
  const code = receipt.code
    ? `\n<hr>\n<div class="code"><div class="code-label">${e(receipt.code.label)}</div><div class="code-value">${e(receipt.code.text)}</div></div>`
    : '';
  const steps = receipt.steps
    ? `\n<section class="steps"><div class="steps-title">${e(receipt.steps.title)}</div><ol>${receipt.steps.items
        .map((item) => `<li>${e(item)}</li>`)
        .join('')}</ol></section>\n<hr>`
    : '';

  const codeMm = receipt.code ? codeFontMm(receipt.code.text, paper) : BASE_FONT_MM[paper];
  const afterTotal = (receipt.sections?.afterTotal ?? []).map(sectionHtml).join('');
  return `<!doctype html>
<html lang="${e(receipt.lang)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>${css(paper, estimatePageHeightMm(receipt, paper), codeMm, receipt.sections !== undefined)}</style>
</head>
<body class="paper-${paper} ${receipt.paid ? 'paid' : 'unpaid'}">
${sandbox.map(mark).join('\n')}
<header>
<div class="store">${e(receipt.header.storeName)}</div>${address}
<h1>${e(receipt.title)}</h1>
</header>
${receipt.marks
  .filter((m) => m.kind === 'copy')
  .map(mark)
  .join('\n')}${code}
<hr>
<dl>
${rows}
</dl>${(receipt.sections?.beforeTotal ?? []).map(sectionHtml).join('')}
<hr>
<div class="total"><div class="total-label">${e(receipt.total.label)}</div><div class="total-value">${e(receipt.total.text)}</div></div>${notes}${afterTotal}
<hr>${steps}
${sandbox.map(mark).join('\n')}
<footer>
<div class="thanks">${e(receipt.footer)}</div>
<div class="printed">${e(receipt.printedAt.label)} ${e(receipt.printedAt.value)}</div>
</footer>
</body>
</html>
`;
}
