// A shift's X and Z reports rendered (docs/tenders.md, "The X and Z reports") with the day report's renderers: on the
// receipt printer (ESC/POS, golden files) and as an A4 page (golden HTML), in 'id' and 'en'; and the day report's
// section of shifts with their cash variance.
import { describe, expect, it } from 'vitest';
import { shiftCash } from '../../src-main/common/cash';
import { formatRupiah } from '../../src-main/common/money';
import type { DayReport } from '../../src-main/common/reports';
import type { ShiftEventView, ShiftView } from '../../src-main/common/shifts';
import { CHARS_PER_LINE } from '../../src-main/core/receipts/receipt-escpos';
import { buildReportDoc } from '../../src-main/core/reports/report-model';
import { renderReportEscPos } from '../../src-main/core/reports/report-escpos';
import { renderReportHtml } from '../../src-main/core/reports/report-html';
import { cashEvents } from '../../src-main/core/shifts/shift-book';
import { buildShiftReport } from '../../src-main/core/shifts/shift-report';
import { buildShiftReportDoc } from '../../src-main/core/shifts/shift-report-doc';
import { checkGolden, checkGoldenText, GOLDEN_DIR, printedLines } from './helpers/golden';

const EVENTS: ShiftEventView[] = [
  {
    seq: 1,
    at: '2025-03-14T01:00:00.000Z',
    type: 'float',
    amount: 300_000,
    change: 0,
    by: { staffId: 2, name: 'Ani' },
  },
  {
    seq: 2,
    at: '2025-03-14T01:30:00.000Z',
    type: 'cash_tender',
    amount: 100_000,
    change: 12_500,
    documentId: 'S-1',
    by: { staffId: 2, name: 'Ani' },
  },
  {
    seq: 3,
    at: '2025-03-14T02:00:00.000Z',
    type: 'pay_in',
    amount: 50_000,
    change: 0,
    reason: 'Uang receh dari bank',
    by: { staffId: 2, name: 'Ani' },
  },
  {
    seq: 4,
    at: '2025-03-14T03:00:00.000Z',
    type: 'pay_out',
    amount: 150_000,
    change: 0,
    reason: 'Bayar pemasok galon',
    by: { staffId: 2, name: 'Ani' },
    approvedBy: { staffId: 1, name: 'Bu Sri' },
  },
  {
    seq: 5,
    at: '2025-03-14T04:00:00.000Z',
    type: 'cash_refund',
    amount: 20_000,
    change: 0,
    documentId: 'R-1',
    by: { staffId: 2, name: 'Ani' },
  },
  {
    seq: 6,
    at: '2025-03-14T05:00:00.000Z',
    type: 'no_sale',
    amount: 0,
    change: 0,
    reason: 'Tukar uang pecahan',
    by: { staffId: 2, name: 'Ani' },
    approvedBy: { staffId: 1, name: 'Bu Sri' },
  },
];

const OPEN: ShiftView = {
  id: 'T01-S0007',
  terminalId: 'T01',
  businessDay: '2025-03-14',
  timeZone: 'Asia/Jakarta',
  state: 'open',
  openedAt: '2025-03-14T01:00:00.000Z',
  openedBy: { staffId: 2, name: 'Ani' },
  float: 300_000,
  cash: shiftCash(cashEvents(EVENTS)),
};

const CLOSED: ShiftView = {
  ...OPEN,
  state: 'closed',
  closedAt: '2025-03-14T10:00:00.000Z',
  closedBy: { staffId: 2, name: 'Ani' },
  count: {
    expected: 267_500,
    counted: 265_000,
    difference: -2_500,
    status: 'short',
    byDenomination: { note100000: 2, note50000: 1, note10000: 1, note5000: 1 },
  },
};

const EXTRA = {
  tenders: [{ tender: 'gateway' as const, methodId: 'qris_dynamic', count: 3, amount: 75_000 }],
  rounding: -300,
};
const METHODS = [
  {
    id: 'qris_dynamic',
    label: { id: 'QRIS (semua aplikasi)', en: 'QRIS (any app)' },
  },
] as never;

const ctx = (lang: 'id' | 'en', training = false) => ({
  storeName: 'Toko Sumber Rejeki',
  storeAddress: 'Jl. Merdeka 17, Bandung',
  lang,
  printedAt: new Date('2025-03-14T10:05:00.000Z'),
  training,
  methods: METHODS,
});

describe('the X and Z reports of a shift', () => {
  it('adds up: expected = float + cash in − change − refunds − pay-outs + pay-ins', () => {
    const z = buildShiftReport(CLOSED, EVENTS, EXTRA);
    expect(z.expected).toBe(300_000 + 100_000 - 12_500 - 20_000 - 150_000 + 50_000);
    expect(z.tenders).toEqual([
      { tender: 'cash', count: 1, amount: 87_500 },
      { tender: 'gateway', methodId: 'qris_dynamic', count: 3, amount: 75_000 },
    ]);
    expect(z).toMatchObject({ kind: 'Z', refunds: { count: 1, amount: 20_000 }, rounding: -300 });
    expect(buildShiftReport(OPEN, EVENTS, EXTRA)).toMatchObject({ kind: 'X' });
    expect(buildShiftReport(OPEN, EVENTS, EXTRA)).not.toHaveProperty('count');
  });

  it("prints a voided sale's cash given back as its own line, apart from the sales and the refunds", () => {
    const events: ShiftEventView[] = [
      ...EVENTS,
      { seq: 7, at: '2025-03-14T06:00:00.000Z', type: 'cash_tender', amount: 40_000, change: 0, documentId: 'S-2' },
      { seq: 8, at: '2025-03-14T06:05:00.000Z', type: 'cash_void', amount: 40_000, change: 0, documentId: 'S-2' },
    ];
    const shift = { ...OPEN, cash: shiftCash(cashEvents(events)) };
    const x = buildShiftReport(shift, events, EXTRA);
    expect(x.expected).toBe(267_500);
    expect(x.tenders[0]).toEqual({ tender: 'cash', count: 1, amount: 87_500 });
    expect(x.voided).toEqual({ count: 1, amount: 40_000 });
    for (const lang of ['id', 'en'] as const) {
      const doc = buildShiftReportDoc(x, ctx(lang));
      const drawer = doc.sections.find((sec) => sec.key === 'shiftCash')!;
      const label = lang === 'id' ? 'Penjualan batal, tunai dikembalikan (1)' : 'Voided sales, cash given back (1)';
      expect(drawer.rows).toContainEqual([label, formatRupiah(-40_000)]);
      // The drawer's lines still add up to the expected cash.
      expect(drawer.total).toEqual([expect.any(String), formatRupiah(267_500)]);
    }
    // Without one, no such line (the golden files below).
    const plain = buildShiftReportDoc(buildShiftReport(OPEN, EVENTS, EXTRA), ctx('en'));
    expect(JSON.stringify(plain)).not.toContain('Voided');
  });

  const cases = [
    { name: 'shift-z-id-58', shift: CLOSED, lang: 'id' as const, paper: 58 as const, training: false },
    { name: 'shift-x-training-en-80', shift: OPEN, lang: 'en' as const, paper: 80 as const, training: true },
  ];
  for (const c of cases)
    it(`prints ${c.name} on the receipt printer and as an A4 page, as the golden files`, () => {
      const doc = buildShiftReportDoc(buildShiftReport(c.shift, EVENTS, EXTRA), ctx(c.lang, c.training));
      const bytes = renderReportEscPos(doc, { paper: c.paper });
      for (const line of printedLines(bytes)) expect(line.columns).toBeLessThanOrEqual(CHARS_PER_LINE[c.paper]);
      checkGolden(GOLDEN_DIR, c.name, bytes);
      checkGoldenText(GOLDEN_DIR, `${c.name}.html`, renderReportHtml(doc));
    });

  it('says the blind count and its difference on the Z report, in the store’s language', () => {
    const id = renderReportHtml(buildShiftReportDoc(buildShiftReport(CLOSED, EVENTS, EXTRA), ctx('id')));
    expect(id).toContain('LAPORAN Z');
    expect(id).toContain('Hitungan buta');
    expect(id).toContain('-Rp2.500 (kurang)');
    expect(id).toContain('QRIS (semua aplikasi)');
    expect(id).toContain('disetujui Bu Sri');
    const en = renderReportHtml(buildShiftReportDoc(buildShiftReport(OPEN, EVENTS, EXTRA), ctx('en')));
    expect(en).toContain('X REPORT');
    expect(en).not.toContain('Blind count');
  });
});

describe("the day report's shifts", () => {
  it('lists each shift with its expected cash, its count and the difference; an open one says so', () => {
    const report: DayReport = {
      date: '2025-03-14',
      timeZone: 'Asia/Jakarta',
      figures: {
        from: '2025-03-14',
        to: '2025-03-14',
        timeZone: 'Asia/Jakarta',
        paid: { count: 0, amount: 0 },
        latePaid: { count: 0, amount: 0 },
        orders: { count: 0, amount: 0 },
        byMethod: [],
        byState: [],
        byStaff: [],
      },
      attention: [],
      afterClosing: [],
      training: false,
      waiting: [],
      waitingCount: 0,
      shifts: [
        {
          id: 'T01-S0007',
          terminalId: 'T01',
          state: 'closed',
          openedAt: '2025-03-14T01:00:00.000Z',
          closedAt: '2025-03-14T10:00:00.000Z',
          openedBy: 'Ani',
          float: 300_000,
          expected: 267_500,
          counted: 265_000,
          difference: -2_500,
        },
        {
          id: 'T01-S0008',
          terminalId: 'T01',
          state: 'open',
          openedAt: '2025-03-14T10:30:00.000Z',
          openedBy: 'Budi',
          float: 100_000,
          expected: 100_000,
        },
      ],
    };
    const doc = buildReportDoc(report, { storeName: 'Toko', lang: 'en', printedAt: new Date('2025-03-14T11:00:00Z') });
    const section = doc.sections.find((s) => s.key === 'shifts')!;
    expect(section.rows).toEqual([
      ['T01-S0007 (Ani)', expect.any(String), 'Rp267.500', 'Rp265.000', '-Rp2.500'],
      ['T01-S0008 (Budi)', expect.any(String), 'Rp100.000', '', 'still open'],
    ]);
    // A day without shifts prints as before.
    expect(
      buildReportDoc({ ...report, shifts: [] }, { storeName: 'Toko', lang: 'en', printedAt: new Date() }).sections.map(
        (s) => s.key,
      ),
    ).not.toContain('shifts');
  });
});
