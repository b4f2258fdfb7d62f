import type { ProductIssueParams } from '../../../src-main/common/product-form';
import { formatRupiah } from '../../../src-main/common/money';

/**
 * The manager's catalogue screen in Bahasa Indonesia (the reference: catalogue-en.ts has the same keys, typed by
 * it). A rule's words come from the rule's name and its params (common/product-form.ts, the import's issues), never
 * from the server's English.
 */
export const catalogueId = {
  title: 'Produk',
  reload: 'Muat ulang',
  intro: 'Barang yang dijual kasir: dicari dengan nama, SKU atau kode batang, atau dipindai.',
  search: 'Cari produk',
  searchHint: 'Nama, SKU atau kode batang.',
  total: (n: number) => `${n.toLocaleString('id-ID')} produk di katalog`,
  showing: (from: number, to: number, total: number) =>
    `Menampilkan ${from.toLocaleString('id-ID')}–${to.toLocaleString('id-ID')} dari ${total.toLocaleString('id-ID')}`,
  found: (n: number, max: number) =>
    n >= max ? `${max} hasil pertama; perjelas pencarian untuk melihat yang lain.` : `${n} hasil.`,
  noMatch: (text: string) => `Tidak ada produk yang cocok dengan "${text}".`,
  empty: 'Belum ada produk. Tambahkan satu, atau impor berkas.',
  loading: 'Memuat…',
  list: 'Daftar produk',
  columns: {
    sku: 'SKU',
    name: 'Nama',
    barcodes: 'Kode batang',
    category: 'Kategori',
    price: 'Harga',
    tax: 'Pajak',
    active: 'Status',
    actions: 'Tindakan',
  },
  taxes: { ppn: 'PPN', pbjt: 'PBJT', exempt: 'Bebas pajak' },
  active: 'Aktif',
  inactive: 'Nonaktif',
  previous: 'Sebelumnya',
  next: 'Berikutnya',
  add: 'Tambah produk',
  edit: 'Ubah',
  editLabel: (name: string) => `Ubah ${name}`,
  deactivate: 'Nonaktifkan',
  deactivateLabel: (name: string) => `Nonaktifkan ${name}`,
  activate: 'Aktifkan',
  activateLabel: (name: string) => `Aktifkan ${name}`,
  notices: {
    added: (name: string) => `${name} ditambahkan.`,
    saved: (name: string) => `${name} disimpan.`,
    deactivated: (name: string) => `${name} dinonaktifkan: tidak dijual lagi.`,
    activated: (name: string) => `${name} diaktifkan lagi.`,
  },
  form: {
    addTitle: 'Produk baru',
    editTitle: (name: string) => `Ubah: ${name}`,
    sku: 'SKU',
    skuHint: 'Kode produk toko, unik (huruf besar/kecil dianggap sama).',
    name: 'Nama',
    nameHint: 'Dicetak di struk.',
    barcodes: 'Kode batang',
    barcodesHint: 'EAN-13, EAN-8 atau UPC-A; satu per baris. Boleh kosong.',
    category: 'Kategori',
    categoryHint: 'Misalnya Minuman. Boleh kosong.',
    price: 'Harga (Rp)',
    priceHint: 'Rupiah utuh, misalnya 18000 atau 18.000.',
    priceRule: 'Tulis harga dalam rupiah utuh, misalnya 18000 atau 18.000, tanpa sen.',
    taxCategory: 'Kategori pajak',
    activeLabel: 'Aktif (dijual di kasir)',
    save: 'Simpan',
    saving: 'Menyimpan…',
    cancel: 'Batal',
  },
  /** A product field's or an import cell's rule, in words. */
  rule: (rule: string, p: ProductIssueParams = {}): string => {
    const code = p.code !== undefined ? `${p.code}: ` : '';
    switch (rule) {
      case 'required':
        return 'Wajib diisi.';
      case 'sku':
        return `1–${p.max ?? 40} karakter, tanpa spasi di awal atau akhir.`;
      case 'sku_duplicate':
        return p.otherName !== undefined
          ? `SKU ini sudah dipakai ${p.otherName} (SKU ${p.otherSku}); setiap produk punya SKU sendiri.`
          : `SKU ini sudah dipakai ${p.otherLine !== undefined ? `baris ${p.otherLine}` : 'baris lain'}; setiap produk punya SKU sendiri.`;
      case 'name':
        return `1–${p.max ?? 80} karakter, tanpa karakter kontrol.`;
      case 'barcode_digits':
        return `${code}kode batang hanya berisi angka (bila Excel menulisnya seperti 8,99E+12, format kolomnya sebagai Teks).`;
      case 'barcode_length':
        return `${code}kode batang terdiri dari 13 angka (EAN-13), 12 (UPC-A) atau 8 (EAN-8)${p.length !== undefined ? `; ini ${p.length}` : ''}.`;
      case 'barcode_check_digit':
        return p.expected !== undefined
          ? `${code}angka pemeriksa (angka terakhir) seharusnya ${p.expected}: ada angka yang salah ketik.`
          : `${code}angka pemeriksa (angka terakhir) salah: ada angka yang salah ketik.`;
      case 'barcode_duplicate':
        return p.otherName !== undefined
          ? `${code}sudah menjadi kode batang ${p.otherName} (SKU ${p.otherSku}); satu kode batang untuk satu produk.`
          : p.otherLine !== undefined
            ? `${code}sudah menjadi kode batang baris ${p.otherLine}; satu kode batang untuk satu produk.`
            : `${code}kode batang dipakai dua kali; satu kode batang untuk satu produk.`;
      case 'barcode_count':
        return `Paling banyak ${p.max ?? 20} kode batang.`;
      case 'category':
        return `Paling banyak ${p.max ?? 40} karakter, tanpa spasi di awal atau akhir.`;
      case 'price':
        return `Rupiah utuh dari 0 sampai ${formatRupiah(p.max ?? 10_000_000_000)}, tanpa sen, misalnya 18000.`;
      case 'tax':
        return 'ppn, pbjt atau exempt (kosong: kategori bawaan toko).';
      case 'active':
        return '1 atau 0, ya atau tidak (kosong: aktif).';
      case 'item_id':
        return `1–${p.max ?? 50} karakter tanpa spasi.`;
      case 'cell':
        return 'Sel berisi galat spreadsheet (misalnya #N/A).';
      case 'columns':
        return 'Jumlah kolom baris ini berbeda dengan baris judul.';
      case 'header':
        return 'Baris judul harus memuat kolom sku, name dan price (boleh juga barcode, category, tax, active), masing-masing sekali.';
      case 'file':
        return 'Berkas tidak dapat dibaca atau kosong: simpan sebagai "CSV UTF-8" atau XLSX, dengan baris judul dan produk.';
      case 'not_found':
        return 'Produk ini sudah tidak ada di katalog; muat ulang daftar.';
      default:
        return 'Tidak sesuai aturan berkas katalog.';
    }
  },
  import: {
    title: 'Impor dari berkas',
    intro:
      'Berkas CSV atau Excel (XLSX) dengan kolom sku, name, price (dan barcode, category, tax, active). ' +
      'Diperiksa dulu; lalu semua diimpor, atau tidak sama sekali.',
    pick: 'Pilih berkas CSV atau XLSX',
    limit: (mb: number) => `Paling besar ${mb} MB.`,
    uploading: (name: string) => `Mengirim ${name}…`,
    checking: (name: string) => `Memeriksa ${name}…`,
    importing: (name: string) => `Mengimpor ${name}…`,
    wouldImport: (name: string, rows: number, created: number, updated: number, unchanged: number) =>
      `${name}: ${rows} baris tanpa masalah. Impor akan menambah ${created} produk, mengubah ${updated}, dan ${unchanged} tetap sama.`,
    importNow: 'Impor',
    imported: (rows: number, created: number, updated: number, unchanged: number) =>
      `Diimpor ${rows} baris: ${created} baru, ${updated} diubah, ${unchanged} tetap sama.`,
    issues: (name: string, n: number) =>
      `${name}: ${n} masalah. Tidak ada yang diimpor; perbaiki berkas lalu pilih lagi.`,
    more: (n: number) => `… dan ${n} masalah lagi.`,
    where: (line: number | null, column: string | null, xlsx: boolean) =>
      line === null
        ? column
          ? `Kolom ${column}`
          : 'Berkas'
        : `${xlsx ? 'Baris' : 'Baris'} ${line}${column ? `, kolom ${column}` : ''}`,
    tooLarge: (mb: number) => `Berkas lebih besar dari ${mb} MB: bagi menjadi beberapa berkas.`,
    empty: 'Berkas kosong.',
    gone: 'Berkas sudah tidak ada di Loket (lebih dari 10 menit, atau sudah diimpor): pilih lagi.',
    another: 'Pilih berkas lain',
  },
  export: {
    title: 'Ekspor ke berkas',
    intro: 'Semua produk (aktif dan nonaktif) dalam format yang sama dengan impor.',
    formats: { csv: 'CSV (Excel berbahasa Indonesia)', xlsx: 'Excel (XLSX)' },
    format: 'Format',
    run: 'Ekspor produk',
    running: 'Menyiapkan berkas…',
    downloaded: (file: string) => `${file} diunduh; lihat folder unduhan peramban.`,
    saved: (path: string) => `Disimpan: ${path}`,
    notSaved: 'Berkas tidak disimpan.',
  },
};

export type CatalogueMessages = typeof catalogueId;
