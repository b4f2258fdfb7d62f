import type { RuleParams } from '../../../src-main/common/reasons';

/**
 * The Tax section and the day's Sales block, in Bahasa Indonesia (docs/tax.md, docs/end-of-day.md "Sales"). Kept in a
 * file of their own beside id.ts, which spreads them in; tax-words-en.ts must have the same keys (Messages).
 */
export const taxSettingsId = {
  title: 'Pajak',
  intro:
    'PPN, PBJT, biaya layanan dan faktur pajak (PKP), pembulatan tunai dan batas diskon. ' +
    'Berlaku untuk penjualan berikutnya; setiap perubahan dicatat di log audit.',
  ppnGroup: 'PPN',
  ppnRate: 'Tarif PPN (%)',
  ppnRateHint: 'Misalnya 12 atau 12,5.',
  dpp: 'Dasar pengenaan pajak (DPP)',
  dppHint: 'Pecahan dari harga tanpa pajak, misalnya 11/12 (12% × 11/12 = 11% efektif).',
  prices: 'Harga di rak',
  pricesInclude: 'Sudah termasuk pajak',
  pricesExclude: 'Belum termasuk pajak',
  pricesHint: 'Belum termasuk: pajak ditambahkan di kasir.',
  example: (price: string, ppn: string, dpp: string, pays: string) =>
    `Contoh: harga ${price} → PPN ${ppn}, DPP ${dpp}; pelanggan membayar ${pays}.`,
  pbjtGroup: 'PBJT dan biaya layanan',
  pbjtIntro: 'Untuk makanan dan minuman restoran (kategori pbjt); PBJT menggantikan PPN untuk kategori ini.',
  pbjtEnabled: 'Kenakan PBJT (pajak restoran)',
  pbjtRate: 'Tarif PBJT (%)',
  serviceEnabled: 'Kenakan biaya layanan',
  serviceRate: 'Biaya layanan (%)',
  pkpGroup: 'Pengusaha Kena Pajak (PKP)',
  pkpEnabled: 'Toko terdaftar sebagai PKP: struk berlaku sebagai faktur pajak',
  pkpHint: 'Nama, alamat dan NPWP dicetak di setiap struk.',
  sellerName: 'Nama penjual terdaftar',
  sellerAddress: 'Alamat terdaftar',
  sellerAddressHint: 'Paling banyak 3 baris.',
  npwp: 'NPWP',
  npwpHint: '15 atau 16 angka, misalnya 01.234.567.8-901.000',
  tillGroup: 'Di kasir',
  defaultCategory: 'Kategori pajak baris yang diketik',
  categories: { ppn: 'PPN (barang biasa)', pbjt: 'PBJT (makanan dan minuman restoran)', exempt: 'Bebas pajak' },
  cashRounding: 'Pembulatan tunai',
  roundings: {
    off: 'Tidak dibulatkan',
    down: 'Ke bawah, ke Rp100',
    nearest: 'Ke Rp100 terdekat (Rp50 ke atas)',
  },
  lineDiscountLimit: 'Batas diskon per baris tanpa PIN manajer (%)',
  saleDiscountLimit: 'Batas diskon penjualan tanpa PIN manajer (%)',
  discountLimitHint: 'Di atas batas ini kasir memerlukan PIN manajer; 100 berarti tidak pernah.',
};

export const taxRulesId = {
  'tax.ppn.rateBp': 'Persentase 0 sampai 100, paling banyak dua desimal, misalnya 12 atau 12,5.',
  'tax.ppn.dpp':
    'Pecahan seperti 11/12: bilangan bulat, pembilang tidak lebih besar dari penyebut, paling besar 10000.',
  'tax.ppn.dpp.num':
    'Pecahan seperti 11/12: bilangan bulat, pembilang tidak lebih besar dari penyebut, paling besar 10000.',
  'tax.ppn.dpp.den':
    'Pecahan seperti 11/12: bilangan bulat, pembilang tidak lebih besar dari penyebut, paling besar 10000.',
  'tax.pricesIncludeTax': 'Termasuk atau belum termasuk pajak.',
  'tax.pbjt.enabled': 'Ya atau tidak.',
  'tax.pbjt.rateBp': 'Persentase 0 sampai 100, paling banyak dua desimal, misalnya 10.',
  'tax.service.enabled': 'Ya atau tidak.',
  'tax.service.rateBp': 'Persentase 0 sampai 100, paling banyak dua desimal, misalnya 5.',
  'tax.defaultCategory': 'PPN, PBJT atau bebas pajak.',
  'tax.pkp.enabled': 'Ya atau tidak.',
  'tax.pkp.sellerName': ({ max = 60 }: RuleParams) =>
    `Nama terdaftar, paling banyak ${max} karakter dalam satu baris; wajib untuk toko PKP.`,
  'tax.pkp.address': ({ max = 120, maxLines = 3 }: RuleParams) =>
    `Alamat terdaftar, paling banyak ${max} karakter dalam paling banyak ${maxLines} baris; wajib untuk toko PKP.`,
  'tax.pkp.npwp':
    'NPWP: 15 atau 16 angka, boleh dengan titik, tanda hubung atau spasi di antaranya (01.234.567.8-901.000); wajib untuk toko PKP.',
  'cash.rounding': 'Tidak dibulatkan, ke bawah ke Rp100, atau ke Rp100 terdekat.',
  'discounts.lineBp': 'Persentase 0 sampai 100, paling banyak dua desimal.',
  'discounts.saleBp': 'Persentase 0 sampai 100, paling banyak dua desimal.',
};

export const daySalesId = {
  title: 'Penjualan',
  summary: 'Ringkasan',
  atClosing: 'Penjualan saat hari ditutup.',
  none: 'Belum ada penjualan hari ini.',
  completed: 'Penjualan selesai',
  voided: 'Dibatalkan (tidak dihitung)',
  open: 'Masih dibayar (tidak dihitung)',
  subtotal: 'Subtotal',
  discounts: 'Diskon',
  net: 'Neto (tanpa pajak)',
  taxTitle: 'Ringkasan pajak',
  dpp: 'DPP',
  ppn: 'PPN',
  pbjt: 'PBJT',
  service: 'Biaya layanan',
  total: 'Total',
  rounding: 'Pembulatan tunai',
  byCategory: 'Per kategori',
  category: 'Kategori',
  noCategory: '(tanpa kategori)',
  qty: 'Qty',
  topSellers: 'Produk terlaris',
  product: 'Produk',
  tenders: 'Pembayaran',
  kind: 'Jenis',
  count: 'Jumlah',
  amount: 'Nilai',
  kinds: { cash: 'Tunai', gateway: 'Pembayaran gateway', other: 'Lainnya' },
  cashHanded: 'Tunai diterima',
  change: 'Kembalian',
};
