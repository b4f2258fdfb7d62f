// The day's report rendered (docs/end-of-day.md, "Printing the report"): on the receipt printer (ESC/POS, 58 and
// 80 mm, golden files) and as an A4 page (self-contained HTML that prints and saves to PDF), in 'id' and 'en'.
import { describe, expect, it, vi } from 'vitest';
import type { DayReport, ReportFigures } from '../../src-main/common/reports';
import { formatRupiah } from '../../src-main/common/money';
import { CHARS_PER_LINE } from '../../src-main/core/receipts/receipt-escpos';
import { buildReportDoc, type ReportContext } from '../../src-main/core/reports/report-model';
import { renderReportEscPos } from '../../src-main/core/reports/report-escpos';
import { renderReportHtml } from '../../src-main/core/reports/report-html';
import { checkGolden, GOLDEN_DIR, printedLines } from './helpers/golden';

const FIGURES: ReportFigures = {
  from: '2025-03-14',
  to: '2025-03-14',
  timeZone: 'Asia/Jakarta',
  paid: { count: 3, amount: 50_030_001 },
  latePaid: { count: 0, amount: 0 },
  orders: { count: 8, amount: 50_126_001 },
  byMethod: [
    {
      methodId: 'qris_dynamic',
      label: 'QRIS (semua aplikasi)',
      count: 5,
      amount: 74_001,
      paid: { count: 1, amount: 1 },
    },
    { methodId: 'ewallet_ovo', label: 'OVO', count: 2, amount: 52_000, paid: { count: 1, amount: 30_000 } },
    {
      methodId: 'va_bca',
      label: 'Virtual Account BCA',
      count: 1,
      amount: 50_000_000,
      paid: { count: 1, amount: 50_000_000 },
    },
  ],
  byState: [
    { state: 'awaiting_payment', count: 1, amount: 40_000 },
    { state: 'unknown', count: 1, amount: 12_000 },
    { state: 'paid', count: 3, amount: 50_030_001 },
    { state: 'expired', count: 1, amount: 22_000 },
    { state: 'cancelled', count: 2, amount: 22_000 },
  ],
  byStaff: [
    { staffId: 1, name: 'Ani', count: 4, amount: 74_001, paid: { count: 2, amount: 30_001 } },
    { staffId: 2, name: 'Budi', count: 3, amount: 50_052_000, paid: { count: 1, amount: 50_000_000 } },
    { staffId: null, name: '(tanpa kasir)', count: 1, amount: 0, paid: { count: 0, amount: 0 } },
  ],
};

const CLOSED: DayReport = {
  date: '2025-03-14',
  timeZone: 'Asia/Jakarta',
  figures: { ...FIGURES, paid: { count: 4, amount: 50_070_001 } },
  attention: [
    {
      kind: 'late_payment',
      orderId: 'T01-20250314-030500000-LATE',
      since: '2025-03-14T03:20:00.000Z',
      summary: 'Dibayar setelah dibatalkan: uangnya ada di suatu tempat (Rp20.000, QRIS (semua aplikasi)).',
      what: {
        key: 'attention.item.late_payment',
        params: { amount: 20_000, methodId: 'qris_dynamic', state: 'cancelled' },
      },
      actions: ['acknowledge'],
    },
    {
      kind: 'callback_problem',
      orderId: 'T09-20250314-031600000-ZZZZ',
      since: '2025-03-14T09:45:00.000Z',
      summary: 'Callback PAID Rp75.000 yang sah untuk pesanan yang tidak ada di kasir ini.',
      what: { key: 'attention.item.unknown_order', params: { status: 'PAID', amount: 75_000 } },
      actions: ['acknowledge'],
      issueId: 4,
    },
  ],
  closing: {
    day: '2025-03-14',
    timeZone: 'Asia/Jakarta',
    closedAt: '2025-03-14T14:00:00.000Z',
    closedBy: { staffId: 2, name: 'Budi' },
    figures: FIGURES,
    openAttention: 2,
  },
  afterClosing: [
    {
      orderId: 'T01-20250314-040000000-WAIT',
      at: '2025-03-14T14:30:00.000Z',
      type: 'state_changed',
      from: 'awaiting_payment',
      to: 'paid',
      source: 'callback',
      reason: 'gateway callback: PAID (transaction SBX-881)',
    },
    {
      orderId: 'T01-20250314-030500000-LATE',
      at: '2025-03-15T01:10:00.000Z',
      type: 'note',
      source: 'manager',
      actor: 'Budi',
      reason: 'dikembalikan tunai kepada pelanggan',
    },
    // One sale made after closing: four events, one line.
    ...(['creating', 'awaiting_payment', 'paid'] as const).map((to, i) => ({
      orderId: 'T01-20250314-150000000-NEW1',
      at: `2025-03-14T15:0${i}:00.000Z`,
      type: i === 0 ? ('created' as const) : ('state_changed' as const),
      ...(i === 0 ? {} : { from: (['creating', 'awaiting_payment'] as const)[i - 1] }),
      to,
      source: i === 0 ? ('cashier' as const) : ('callback' as const),
      ...(i === 0 ? { actor: 'Ani' } : {}),
    })),
    {
      orderId: 'T01-20250314-150000000-NEW1',
      at: '2025-03-14T15:00:01.000Z',
      type: 'delivery',
      source: 'gateway',
    },
  ],
  training: false,
  waiting: [],
  waitingCount: 0,
};

const OPEN_TRAINING: DayReport = {
  date: '2025-03-14',
  timeZone: 'Asia/Jakarta',
  figures: FIGURES,
  attention: [],
  afterClosing: [],
  training: true,
  waiting: [],
  waitingCount: 0,
};

const CTX: ReportContext = {
  storeName: 'Toko Sinar Jaya',
  storeAddress: 'Jl. Merdeka 17, Bandung',
  lang: 'id',
  printedAt: new Date('2025-03-15T01:30:00.000Z'),
};

const GOLDEN = [
  { name: 'report-closed-id-58', paper: 58, report: CLOSED, ctx: CTX },
  { name: 'report-closed-id-80', paper: 80, report: CLOSED, ctx: CTX },
  { name: 'report-open-training-en-80', paper: 80, report: OPEN_TRAINING, ctx: { ...CTX, lang: 'en' } },
] as const;

const escpos = (g: (typeof GOLDEN)[number]) => renderReportEscPos(buildReportDoc(g.report, g.ctx), { paper: g.paper });

describe('the report on the receipt printer (ESC/POS)', () => {
  it.each(GOLDEN)('$name equals its golden file byte for byte', (g) => {
    checkGolden(GOLDEN_DIR, g.name, escpos(g));
  });

  it('starts with ESC @, ends with a cut, is plain ASCII, and no line is wider than the paper', () => {
    for (const g of GOLDEN) {
      const bytes = escpos(g);
      expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]);
      expect([...bytes.subarray(-5)]).toEqual([0x1d, 0x56, 0x00, 0x1b, 0x40]);
      expect(bytes.every((b) => b < 0x80)).toBe(true);
      for (const line of printedLines(bytes))
        expect(line.columns, line.text).toBeLessThanOrEqual(CHARS_PER_LINE[g.paper]);
    }
  });

  it('prints the figures of the closing, the open items and the changes after closing', () => {
    const text = printedLines(escpos(GOLDEN[0]))
      .map((l) => l.text.trim())
      .join('\n');
    // Received leads; what still waits and what was not paid stand apart (never summed with it).
    for (const amount of [FIGURES.paid.amount, 52_000, 44_000, 50_000_000, 30_000, 22_000])
      expect(text).toContain(formatRupiah(amount));
    expect(text).toMatch(/Diterima \(lunas\) \(3\)\s+Rp50\.030\.001/);
    expect(text).toMatch(/Masih menunggu \(2\)\s+Rp52\.000/);
    expect(text).toMatch(/Tidak dibayar \(3\)\s+Rp44\.000/);
    expect(text).not.toContain(formatRupiah(FIGURES.orders.amount));
    // Not the figures now (Rp50.070.001): the closed figures are the official ones.
    expect(text).not.toContain(formatRupiah(50_070_001));
    expect(text).toContain('LAPORAN HARIAN');
    expect(text).toContain('14/03/2025 21.00 WIB');
    expect(text).toContain('Pembayaran terlambat');
    expect(text).toContain('Menunggu pembayaran -> Lunas');
    // One line per order: the sale made after closing is one change, not its four events.
    expect(text).toContain('Perubahan setelah ditutup (3)');
    expect(text).toContain('Penjualan baru -> Lunas');
    expect(text.match(/T01-20250314-150000000-NEW1/g)).toHaveLength(1);
  });

  it('is deterministic whatever the clock says, and no text can carry a printer command', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2020-01-01T00:00:00Z'));
      const a = escpos(GOLDEN[1]);
      vi.setSystemTime(new Date('2031-06-15T12:34:56Z'));
      expect(escpos(GOLDEN[1]).equals(a)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    const evil = renderReportEscPos(buildReportDoc(CLOSED, { ...CTX, storeName: 'Toko\u001b@\u001dV\u0000 Jaya' }), {
      paper: 58,
    });
    const plain = renderReportEscPos(buildReportDoc(CLOSED, { ...CTX, storeName: 'Toko @ V Jaya' }), { paper: 58 });
    expect(evil.equals(plain)).toBe(true);
    expect(() => renderReportEscPos(buildReportDoc(CLOSED, CTX), { paper: 76 as never })).toThrow(/58 or 80/);
  });
});

describe('the report as an A4 page', () => {
  const html = renderReportHtml(buildReportDoc(CLOSED, CTX));

  it('is one self-contained page: A4, print CSS, no script, no outside resource', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<html lang="id">');
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).toMatch(/@page \{ size: A4 portrait;/);
    expect(html).not.toMatch(/<script|<link|<img|\bsrc=|\bhref=|url\(/i);
  });

  it("holds the store's name, the day, every figure of the closing, the attention items, the closing and what came after", () => {
    expect(html).toContain('Toko Sinar Jaya');
    expect(html).toContain('Jl. Merdeka 17, Bandung');
    expect(html).toContain('LAPORAN HARIAN');
    expect(html).toContain('14/03/2025 (Asia/Jakarta)');
    for (const m of FIGURES.byMethod) {
      expect(html).toContain(`<td>${m.label}</td>`);
      expect(html).toContain(`<td class="num">${formatRupiah(m.paid.amount)}</td>`);
    }
    // No amount that adds paid and unpaid orders: not by method, not in total.
    expect(html).not.toContain(formatRupiah(74_001));
    for (const s of FIGURES.byStaff) expect(html).toContain(`<td>${s.name}</td>`);
    for (const label of ['Menunggu pembayaran', 'Belum diketahui', 'Lunas', 'Kedaluwarsa', 'Dibatalkan'])
      expect(html).toContain(`<td>${label}</td>`);
    expect(html).toContain(`<td class="num">${formatRupiah(FIGURES.paid.amount)}</td>`);
    expect(html).not.toContain(formatRupiah(FIGURES.orders.amount));
    expect(html).not.toContain(formatRupiah(50_070_001));
    for (const a of CLOSED.attention) {
      expect(html).toContain(a.orderId);
      expect(html).toContain(a.summary);
    }
    expect(html).toMatch(/<dt>Ditutup<\/dt><dd>14\/03\/2025 21\.00 WIB<\/dd><dt>Oleh<\/dt><dd>Budi<\/dd>/);
    expect(html).toContain('<dt>Perlu perhatian saat ditutup</dt><dd>2</dd>');
    expect(html).toContain('Perubahan setelah ditutup (3)');
    expect(html).toContain('<td>Menunggu pembayaran → Lunas</td>');
    expect(html).toContain('<td>Penjualan baru → Lunas</td>');
    expect(html).toContain('<td>Budi (manajer)</td>');
    expect(html).toContain('Dicetak 15/03/2025 08.30 WIB');
  });

  it('in English too; a day not closed is marked so, and a training report as training', () => {
    const en = renderReportHtml(buildReportDoc(OPEN_TRAINING, { ...CTX, lang: 'en' }));
    expect(en).toContain('<html lang="en">');
    for (const words of [
      'DAY REPORT',
      'Gateway orders (detail)',
      'Orders by method',
      'Orders by state',
      'Orders by staff',
      'Needs attention (0)',
      'Nothing needs attention.',
    ])
      expect(en).toContain(words);
    expect(en).toContain('NOT CLOSED — FIGURES MAY STILL CHANGE');
    expect(en).toContain('SANDBOX — TRAINING, NOT THE STORE&#39;S BOOKS');
    expect(en).toContain('<dt>Status</dt><dd>not closed</dd>');
    expect(en).not.toContain('Changes after closing');
    expect(html).not.toContain('BELUM DITUTUP');
  });

  it('escapes every text', () => {
    const evil = renderReportHtml(
      buildReportDoc(
        { ...CLOSED, attention: [{ ...CLOSED.attention[0]!, summary: '<script>alert(1)</script>' }] },
        { ...CTX, storeName: 'Toko <b>"Jaya"</b> & Co' },
      ),
    );
    expect(evil).not.toContain('<script>');
    expect(evil).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(evil).toContain('Toko &lt;b&gt;&quot;Jaya&quot;&lt;/b&gt; &amp; Co');
  });
});

describe("the day's sales on the report", () => {
  const SALES: NonNullable<DayReport['sales']> = {
    completed: { count: 3, amount: 139_089 },
    voided: { count: 1, amount: 18_000 },
    open: { count: 0, amount: 0 },
    subtotal: 149_000,
    discounts: 11_600,
    net: 131_232,
    tax: { dpp: 25_817, ppn: 3_098, pbjt: 3_224, service: 1_535 },
    total: 139_089,
    rounding: -89,
    byCategory: [
      { category: 'Sembako', qty: 1, gross: 78_000, discounts: 5_633, net: 72_367, total: 72_367 },
      { category: '', qty: 3, gross: 71_000, discounts: 5_967, net: 58_865, total: 66_722 },
    ],
    byProduct: [{ sku: 'BERAS-5', name: 'Beras 5 kg', qty: 1, net: 72_367, total: 72_367 }],
    tenders: {
      byKind: [
        { kind: 'cash', count: 1, amount: 100_000 },
        { kind: 'gateway', count: 1, amount: 39_000 },
      ],
      byMethod: [{ methodId: 'ewallet_ovo', count: 1, amount: 39_000 }],
      cashHanded: 150_000,
      change: 50_000,
    },
    taken: {
      amount: 139_000,
      count: 3,
      byTender: [
        { kind: 'cash', count: 2, amount: 100_000 },
        { kind: 'gateway', methodId: 'ewallet_ovo', label: 'OVO', count: 1, amount: 39_000 },
      ],
      byStaff: [
        { staffId: 1, name: 'Ani', count: 2, amount: 100_000 },
        { staffId: 2, name: 'Budi', count: 1, amount: 39_000 },
      ],
      withoutSale: { count: 0, amount: 0 },
    },
  };
  const open = { ...OPEN_TRAINING, sales: SALES };
  const closed = { ...CLOSED, sales: { ...SALES, total: 1 }, closing: { ...CLOSED.closing!, sales: SALES } };

  it('the A4 page has the Sales block: the figures with the tax summary, by category, top sellers, tenders', () => {
    const html = renderReportHtml(buildReportDoc(open, { ...CTX, lang: 'en' }));
    const sales = /<section id="sales">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    for (const [label, amount] of [
      ['Subtotal', 149_000],
      ['Discounts', -11_600],
      ['Net (without tax)', 131_232],
      ['DPP (tax base)', 25_817],
      ['PPN', 3_098],
      ['PBJT', 3_224],
      ['Service charge', 1_535],
      ['Cash rounding', -89],
    ] as const)
      expect(sales).toContain(`<td>${label}</td><td class="num"></td><td class="num">${formatRupiah(amount)}</td>`);
    expect(sales).toContain('<td>Sales completed</td><td class="num">3</td><td class="num">Rp139.089</td>');
    expect(sales).toContain('<td>Sales voided (not counted)</td><td class="num">1</td>');
    expect(sales).toMatch(/<tfoot><tr><td>Total<\/td><td class="num"><\/td><td class="num">Rp139\.089<\/td>/);
    expect(html).toMatch(/<section id="salesByCategory">[\s\S]*<td>\(no category\)<\/td>[\s\S]*Rp66\.722/);
    expect(html).toMatch(/<section id="topSellers">[\s\S]*<td>Beras 5 kg \(BERAS-5\)<\/td>/);
    // How it was paid is the money taken, before the sales: each gateway method by its name, cash handed over and the
    // change.
    const taken = /<section id="taken">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(taken).toContain('<td>OVO</td><td class="num">1</td><td class="num">Rp39.000</td>');
    expect(taken).toMatch(/<td>Cash handed over<\/td><td class="num"><\/td><td class="num">Rp150\.000<\/td>/);
    expect(html).not.toContain('id="saleTenders"');
  });

  it('leads with the money taken by every tender and the staff lines; the gateway orders follow as their detail', () => {
    const doc = buildReportDoc(open, CTX);
    expect(doc.sections.map((x) => x.key).slice(0, 5)).toEqual([
      'taken',
      'takenByStaff',
      'sales',
      'salesByCategory',
      'topSellers',
    ]);
    expect(doc.sections.findIndex((x) => x.key === 'summary')).toBeGreaterThan(4);
    const html = renderReportHtml(doc);
    const taken = /<section id="taken">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(taken).toContain('<h2>Uang diterima</h2>');
    expect(taken).toContain('<td>Tunai</td><td class="num">2</td><td class="num">Rp100.000</td>');
    expect(taken).toMatch(
      /<tfoot><tr><td>Diterima \(3 penjualan\)<\/td><td class="num"><\/td><td class="num">Rp139\.000/,
    );
    const staff = /<section id="takenByStaff">[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(staff).toContain('<td>Ani</td><td class="num">2</td><td class="num">Rp100.000</td>');
    expect(staff).toContain('<td>Budi</td><td class="num">1</td><td class="num">Rp39.000</td>');
    // On paper the money taken is the first figure, in bold.
    const text = printedLines(renderReportEscPos(doc, { paper: 58 }))
      .map((l) => l.text.trim())
      .join('\n');
    expect(text.indexOf('Rp139.000')).toBeLessThan(text.indexOf('Rp50.030.001'));
    expect(text).toMatch(/Diterima \(3 penjualan\)\s+Rp139\.000/);
    expect(text).toMatch(/Ani\s+Rp100\.000/);
  });

  it('old orders without a sale are in the money taken, said so; a closing before the money taken shows it now', () => {
    const withOld = {
      ...SALES.taken!,
      amount: 189_000,
      count: 4,
      byTender: [
        ...SALES.taken!.byTender,
        { kind: 'gateway' as const, methodId: 'va_bca', label: 'VA BCA', count: 1, amount: 50_000 },
      ],
      withoutSale: { count: 1, amount: 50_000 },
    };
    const html = renderReportHtml(
      buildReportDoc({ ...open, sales: { ...SALES, taken: withOld } }, { ...CTX, lang: 'en' }),
    );
    expect(html).toContain('Includes 1 old order(s) without a sale (Rp50.000), counted by their payment method.');
    expect(html).toContain('<td>VA BCA</td><td class="num">1</td><td class="num">Rp50.000</td>');
    // A closing whose sales were kept before the money taken was counted: the figure now, said to be so.
    const { taken: _none, ...oldSales } = SALES;
    const before = { ...CLOSED, sales: SALES, closing: { ...CLOSED.closing!, sales: oldSales } };
    const page = renderReportHtml(buildReportDoc(before, CTX));
    expect(page).toContain('Penutupan ini dibuat sebelum Loket menghitung uang diterima: ini angka sekarang.');
    // Once kept at closing, the closing's figure, said so.
    const closedTaken = renderReportHtml(buildReportDoc(closed, CTX));
    expect(/<section id="taken">[\s\S]*?<\/section>/.exec(closedTaken)?.[0]).toContain('Angka saat hari ditutup.');
  });

  it("a closed day prints the closing's sales, said so; on paper too, within the width", () => {
    const html = renderReportHtml(buildReportDoc(closed, CTX));
    expect(html).toContain('Penjualan saat hari ditutup.');
    expect(html).toContain('Rp139.089');
    for (const paper of [58, 80] as const) {
      const bytes = renderReportEscPos(buildReportDoc(closed, CTX), { paper });
      const lines = printedLines(bytes);
      for (const line of lines) expect(line.columns, line.text).toBeLessThanOrEqual(CHARS_PER_LINE[paper]);
      const text = lines.map((l) => l.text.trim()).join('\n');
      expect(text).toMatch(/PPN\s+Rp3\.098/);
      expect(text).toMatch(/Total\s+Rp139\.089/);
      expect(text).toContain('Produk terlaris');
    }
  });

  it('a day without any sale prints no Sales block (a day of orders alone reads as before)', () => {
    const none = { ...SALES, completed: { count: 0, amount: 0 }, voided: { count: 0, amount: 0 } };
    const html = renderReportHtml(buildReportDoc({ ...OPEN_TRAINING, sales: none }, CTX));
    expect(html).not.toContain('id="sales"');
  });
});
