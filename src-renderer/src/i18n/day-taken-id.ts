/** The day screen's money taken (components/manager/books/DayTaken.svelte), in Indonesian. */
export const dayTakenId = {
  title: 'Uang diterima',
  official: 'Angka saat hari ditutup (resmi).',
  soFar: 'Angka sampai saat ini; hari belum ditutup.',
  closedBefore: 'Penutupan hari ini dibuat sebelum Loket menghitung uang diterima: ini angka sekarang.',
  total: 'Diterima, semua cara bayar',
  sales: (n: number) => `${n} penjualan`,
  hint: 'Penjualan selesai yang sudah dibayar: tunai, kartu atau transfer, dan gateway.',
  tenders: 'Per cara bayar',
  tender: 'Cara bayar',
  count: 'Jumlah',
  amount: 'Nilai',
  cash: 'Tunai',
  other: 'Lainnya (kartu, transfer)',
  cashHanded: 'Tunai diterima dari pelanggan',
  change: 'Kembalian',
  withoutSale: (n: number, amount: string) =>
    `Termasuk ${n} pesanan lama tanpa penjualan (${amount}), dihitung menurut metode pembayarannya.`,
  refunds: (n: number, amount: string) =>
    `Dikembalikan kepada pelanggan hari ini: ${n} refund, ${amount} (tidak dikurangkan; lihat Refund di bawah).`,
  now: (amount: string, sales: string) => `Sekarang: ${amount} (${sales}).`,
  byStaff: 'Per kasir',
  staff: 'Kasir',
  salesCount: 'Penjualan',
  nobody: '(tanpa kasir)',
  none: 'Belum ada uang diterima pada hari ini.',
};
