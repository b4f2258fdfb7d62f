// The sales the struk's tests print (golden files, screenshots): each built through computeSale, planTenders and
// planRefund by the fixtures, never by hand.
import type { SaleLine } from '../../../src-main/common/sale-line';
import type { RefundReceiptInput, SaleReceiptInput } from '../../../src-main/core/receipts/sale-receipt-input';
import { buildRefundInput, buildSaleInput, GOPAY, QRIS } from './sale-receipt-fixtures';

let n = 0;
const line = (name: string, unitPrice: number, qty = 1, over: Partial<SaleLine> = {}): SaleLine => ({
  lineId: `L${++n}`,
  name,
  unitPrice,
  qty,
  taxCategory: 'ppn',
  ...over,
});

/** 20 lines of a minimarket, PPN 12% × 11/12 in the prices, line and sale discounts, paid by QRIS. */
export function qris20(): SaleReceiptInput {
  n = 0;
  return buildSaleInput({
    lines: [
      line('Beras premium 5 kg', 78_500),
      line('Minyak goreng Bimoli kemasan pouch isi ulang 2 liter', 38_900, 2),
      line('Gula pasir 1 kg', 17_500, 2, { discount: { kind: 'percent', valueBp: 1000 } }),
      line('Telur ayam negeri 10 butir', 28_000),
      line('Susu UHT cokelat 1 L', 19_900, 3),
      line('Roti tawar gandum', 16_500),
      line('Kopi bubuk 200 g', 24_000),
      line('Teh celup isi 25', 8_700, 2),
      line('Mi instan goreng', 3_100, 10, { discount: { kind: 'amount', value: 2_000 } }),
      line('Sabun mandi cair 450 ml', 27_500),
      line('Pasta gigi 190 g', 14_200),
      line('Sampo anti ketombe 170 ml', 25_900),
      line('Deterjen bubuk 1,8 kg', 42_300),
      line('Air mineral 600 ml', 3_500, 6),
      line('Cafe\u0301 latte kaleng', 9_800, 2),
      line('Biskuit kelapa', 11_200),
      line('Kecap manis 520 ml', 23_400),
      line('Saus sambal 340 ml', 15_600),
      line('Tisu wajah 250 lembar', 18_900),
      line('Baterai AA isi 4', 32_000),
    ],
    saleDiscount: { kind: 'amount', value: 5_000 },
    tenders: [{ kind: 'gateway', method: QRIS }],
  });
}

/** A store registered for VAT: its struk carries the tax invoice's fields; rice is exempt; paid by card. */
export function pkpSale(): SaleReceiptInput {
  n = 0;
  return buildSaleInput({
    lines: [
      line('Beras medium 5 kg', 69_000, 1, { taxCategory: 'exempt' }),
      line('Kopi bubuk 200 g', 24_000, 2),
      line('Sabun cuci piring 780 ml', 16_800),
      line('Air mineral 1,5 L', 6_500, 4),
    ],
    tax: {
      pkp: {
        enabled: true,
        sellerName: 'PT Sinar Jaya Makmur',
        address: 'Jl. Merdeka 17\nBandung 40111',
        npwp: '01.234.567.8-901.000',
      },
    },
    tenders: [{ kind: 'other', reference: 'EDC BCA 004512', via: 'card' }],
  });
}

/** A restaurant: PBJT 10% and a 5% service charge added to the prices (one bottled drink carries PPN); GoPay. */
export function pbjtSale(): SaleReceiptInput {
  n = 0;
  return buildSaleInput({
    lines: [
      line('Nasi goreng spesial', 35_000, 2, { taxCategory: 'pbjt' }),
      line('Ayam bakar madu', 42_000, 1, { taxCategory: 'pbjt' }),
      line('Es teh manis', 8_000, 3, { taxCategory: 'pbjt' }),
      line('Air mineral botol', 6_000, 1),
    ],
    tax: {
      pricesIncludeTax: false,
      pbjt: { enabled: true, rateBp: 1000 },
      service: { enabled: true, rateBp: 500 },
      defaultCategory: 'pbjt',
    },
    tenders: [{ kind: 'gateway', method: GOPAY }],
  });
}

/** Cash with change, rounded to the nearest Rp100 (the rounding line printed). */
export function cashSale(): SaleReceiptInput {
  n = 0;
  return buildSaleInput({
    lines: [line('Susu UHT 1 L', 18_750), line('Roti tawar', 16_900, 2), line('Telur ayam 10 butir', 24_380)],
    rounding: 'nearest',
    tenders: [{ kind: 'cash', handed: 100_000 }],
  });
}

/** Rp50.000 in cash, the rest by QRIS. */
export function splitSale(): SaleReceiptInput {
  n = 0;
  return buildSaleInput({
    lines: [line('Kopi susu gula aren', 25_000, 2), line('Croissant cokelat', 18_500, 2)],
    tenders: [
      { kind: 'cash', handed: 50_000 },
      { kind: 'gateway', method: QRIS },
    ],
  });
}

/** One loaf of bread of the cash sale, refunded in cash (rounded down to Rp100 as cash refunds are). */
export function cashRefundOfOneLine(): RefundReceiptInput {
  const sale = cashSale();
  return buildRefundInput(
    sale,
    { kind: 'lines', lines: [{ lineId: 'L2', qty: 1 }] },
    { kind: 'cash', rounding: 'nearest' },
  );
}

export const SALES: { name: string; sale: () => SaleReceiptInput }[] = [
  { name: 'qris20', sale: qris20 },
  { name: 'pkp', sale: pkpSale },
  { name: 'pbjt-service', sale: pbjtSale },
  { name: 'cash-rounding', sale: cashSale },
  { name: 'split-cash-qris', sale: splitSale },
];
