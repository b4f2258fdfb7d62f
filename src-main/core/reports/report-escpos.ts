import { BreakLine, CharacterSet, PrinterTypes, ThermalPrinter } from 'node-thermal-printer';
import type { PaperWidth } from '../receipts/receipt-model';
import { CHARS_PER_LINE, toPrinterText, wrapText } from '../receipts/receipt-escpos';
import type { PaperEntry, ReportDoc } from './report-doc';

export interface ReportEscPosOptions {
  paper: PaperWidth;
}

/** Never connected: the builder only parses it (as receipt-escpos.ts does); Loket sends the bytes itself. */
const UNUSED_INTERFACE = 'tcp://report-builder.invalid';
/** ESC @: initialise the printer. */
const ESC_INIT = Buffer.from([0x1b, 0x40]);

function centred(text: string, width: number): string {
  const left = Math.floor((width - text.length) / 2);
  return `${' '.repeat(Math.max(0, left))}${text}`.padEnd(width, ' ');
}

/** ASCII for the printer: arrows first (toPrinterText would make them "?"), then the receipt's rules. */
function txt(text: string): string {
  return toPrinterText(text.replaceAll('→', '->').replaceAll('∅', '-'));
}

/**
 * The day's report as ESC/POS bytes for the receipt printer (58 or 80 mm), built like a receipt
 * (receipt-escpos.ts: node-thermal-printer's builder, never connected; every text reduced to ASCII, so no text
 * can carry a printer command). Deterministic: the same model and paper give the same bytes. Each entry prints
 * its label left and its value right when both fit on a line, else the label, then the value right-aligned;
 * details follow, indented.
 */
export function renderReportEscPos(doc: ReportDoc, opts: ReportEscPosOptions): Buffer {
  const paper = opts.paper;
  if (paper !== 58 && paper !== 80) throw new Error(`paper must be 58 or 80 (mm), not ${String(paper)}`);
  const width = CHARS_PER_LINE[paper];
  const p = new ThermalPrinter({
    type: PrinterTypes.EPSON,
    interface: UNUSED_INTERFACE,
    width,
    breakLine: BreakLine.NONE,
    lineCharacter: '-',
  });
  const printWrapped = (text: string, columns = width, indent = '') => {
    for (const part of text.split('\n'))
      for (const line of wrapText(txt(part), columns - indent.length)) p.println(`${indent}${line}`);
  };
  // ESC ! (text size) also resets emphasis on Epson printers, so the size is set before bold.
  const style = (size: 'normal' | 'tall', bold: boolean) => {
    if (size === 'normal') p.setTextNormal();
    else p.setTextDoubleHeight();
    p.bold(bold);
  };
  const pair = (label: string, value: string) => {
    const l = txt(label);
    const v = txt(value);
    if (l.length + 1 + v.length <= width) p.leftRight(l, v);
    else {
      printWrapped(l);
      for (const part of wrapText(v, width - 2)) p.println(part.padStart(width, ' '));
    }
  };
  const entry = (e: PaperEntry) => {
    if (e.strong) p.bold(true);
    if (e.value === undefined) printWrapped(e.label);
    else pair(e.label, e.value);
    if (e.strong) p.bold(false);
    for (const d of e.detail ?? []) printWrapped(d, width, '  ');
  };
  const mark = (text: string) => {
    p.alignCenter();
    style('tall', true);
    p.invert(true);
    for (const line of wrapText(txt(text), width)) p.println(centred(line, width));
    p.invert(false);
    style('normal', false);
  };

  p.append(ESC_INIT);
  p.setCharacterSet(CharacterSet.PC437_USA);
  for (const m of doc.marks) mark(m.text);

  p.alignCenter();
  style('tall', true);
  printWrapped(doc.header.storeName);
  style('normal', false);
  if (doc.header.storeAddress) printWrapped(doc.header.storeAddress);
  style('normal', true);
  printWrapped(doc.title);
  style('normal', false);
  printWrapped(doc.day.value);

  p.alignLeft();
  p.drawLine();
  for (const s of doc.status) pair(s.label, s.value);

  for (const section of doc.sections) {
    p.drawLine();
    style('normal', true);
    printWrapped(section.title);
    style('normal', false);
    if (section.note) printWrapped(section.note);
    if (section.paper.length === 0) printWrapped(section.empty, width, '  ');
    section.paper.forEach((e, i) => {
      // A blank line between entries that run over several lines, so each reads as one.
      if (i > 0 && (e.detail?.length ?? 0) > 1) p.newLine();
      entry(e);
    });
  }
  p.drawLine();

  for (const m of doc.marks.filter((mk) => mk.kind === 'training')) mark(m.text);
  p.alignCenter();
  printWrapped(`${doc.printedAt.label} ${doc.printedAt.value}`);
  p.alignLeft();
  p.cut();
  return Buffer.from(p.getBuffer());
}
