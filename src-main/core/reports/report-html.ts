import { escapeHtml } from '../receipts/receipt-html';
import type { ReportColumn, ReportDoc, ReportSection } from './report-doc';

const CSS = `
@page { size: A4 portrait; margin: 14mm 14mm 16mm; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; background: #fff; color: #000; }
body {
  font-family: "DejaVu Sans", "Liberation Sans", "Segoe UI", Roboto, Arial, sans-serif;
  font-size: 10pt; line-height: 1.35;
  -webkit-print-color-adjust: exact; print-color-adjust: exact;
}
header { display: flex; justify-content: space-between; align-items: flex-start; gap: 8mm;
  border-bottom: 0.6mm solid #000; padding-bottom: 3mm; margin-bottom: 4mm; }
.store { font-size: 15pt; font-weight: 700; overflow-wrap: anywhere; }
.address { white-space: pre-line; overflow-wrap: anywhere; }
h1 { font-size: 13pt; margin: 0; letter-spacing: 0.06em; text-align: right; }
.day { text-align: right; font-weight: 700; }
.mark { border: 0.6mm solid #000; font-weight: 700; text-align: center; padding: 1.5mm; margin: 0 0 3mm;
  letter-spacing: 0.04em; }
.mark-training { background: #000; color: #fff; -webkit-text-stroke: 0.1mm #000; border-style: double; border-width: 1mm; }
dl.status { display: grid; grid-template-columns: max-content auto; gap: 0.5mm 6mm; margin: 0 0 4mm; }
dl.status dt { font-weight: 700; }
dl.status dd { margin: 0; }
section { margin: 0 0 5mm; break-inside: avoid; page-break-inside: avoid; }
section.long { break-inside: auto; page-break-inside: auto; }
h2 { font-size: 11.5pt; margin: 0 0 1.5mm; border-bottom: 0.3mm solid #000; padding-bottom: 0.5mm; }
.note { margin: 0 0 1.5mm; font-style: italic; }
table { width: 100%; border-collapse: collapse; }
thead { display: table-header-group; }
tr { break-inside: avoid; page-break-inside: avoid; }
th, td { border-bottom: 0.2mm solid #999; padding: 1mm 1.5mm; vertical-align: top; text-align: left; overflow-wrap: break-word; }
th { background: #eee; font-weight: 700; }
.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.nowrap { white-space: nowrap; }
tfoot td { font-weight: 700; border-top: 0.4mm solid #000; border-bottom: 0; }
.empty { color: #333; margin: 0; }
footer { margin-top: 6mm; font-size: 8.5pt; color: #333; text-align: right; }
@media screen {
  html { background: #e8e8e8; }
  body { width: 210mm; min-height: 297mm; margin: 6mm auto; padding: 14mm; background: #fff;
    box-shadow: 0 0 2mm rgba(0, 0, 0, 0.25); }
}
`;

function cell(text: string, column: ReportColumn | undefined, tag: 'td' | 'th' = 'td'): string {
  const cls = column?.align === 'right' ? 'num' : column?.nowrap ? 'nowrap' : undefined;
  return `<${tag}${cls ? ` class="${cls}"` : ''}>${escapeHtml(text)}</${tag}>`;
}

function section(s: ReportSection): string {
  const long = s.rows.length > 12;
  const note = s.note ? `\n<p class="note">${escapeHtml(s.note)}</p>` : '';
  if (s.rows.length === 0)
    return `<section id="${s.key}">\n<h2>${escapeHtml(s.title)}</h2>${note}\n<p class="empty">${escapeHtml(s.empty)}</p>\n</section>`;
  const head = `<tr>${s.columns.map((c) => cell(c.label, c, 'th')).join('')}</tr>`;
  const body = s.rows.map((row) => `<tr>${row.map((text, i) => cell(text, s.columns[i])).join('')}</tr>`).join('\n');
  const foot = s.total
    ? `\n<tfoot><tr>${s.total.map((text, i) => cell(text, s.columns[i])).join('')}</tr></tfoot>`
    : '';
  return `<section id="${s.key}"${long ? ' class="long"' : ''}>
<h2>${escapeHtml(s.title)}</h2>${note}
<table>
<thead>${head}</thead>
<tbody>
${body}
</tbody>${foot}
</table>
</section>`;
}

/**
 * A complete, self-contained A4 page of a day's report: inline CSS only, no script, no external resource (a
 * Content-Security-Policy forbids any), every text escaped. Prints from a browser (window.print()), or to PDF,
 * on A4; on screen it is shown as a sheet.
 */
export function renderReportHtml(doc: ReportDoc): string {
  const e = escapeHtml;
  const address = doc.header.storeAddress ? `\n<div class="address">${e(doc.header.storeAddress)}</div>` : '';
  const marks = doc.marks.map((m) => `<div class="mark mark-${m.kind}" role="note">${e(m.text)}</div>`).join('\n');
  const status = doc.status.map((s) => `<dt>${e(s.label)}</dt><dd>${e(s.value)}</dd>`).join('');
  return `<!doctype html>
<html lang="${e(doc.lang)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(`${doc.title} ${doc.day.value} — ${doc.header.storeName}`)}</title>
<style>${CSS}</style>
</head>
<body class="${doc.closed ? 'closed' : 'not-closed'}">
<header>
<div><div class="store">${e(doc.header.storeName)}</div>${address}</div>
<div><h1>${e(doc.title)}</h1><div class="day">${e(doc.day.label)}: ${e(doc.day.value)}</div></div>
</header>
${marks}
<dl class="status">${status}</dl>
${doc.sections.map(section).join('\n')}
<footer>${e(doc.printedAt.label)} ${e(doc.printedAt.value)}</footer>
</body>
</html>
`;
}
