import type { KeychainWords, PrintWords, ReasonWords } from './reason-words';

/** Mengapa keychain sistem tidak dapat dipakai, singkat (cara memperbaikinya ada di dokumentasi: docs/settings.md). */
export const keychainId: KeychainWords = {
  no_dbus: 'tidak ada sesi D-Bus untuk menjangkaunya',
  no_secret_service: 'tidak ada layanan keyring yang menjawab',
  locked: 'keyring terkunci',
  timeout: 'keyring tidak menjawab',
  module_missing: 'modul keychain Loket tidak terpasang',
  other: 'keychain menolak',
};

const print: PrintWords = {
  invalid_options: () => 'Pengaturan printer belum lengkap (alamat dan port).',
  refused: (at) => `Printer${at} menolak sambungan: apakah printer menyala, dan port-nya benar?`,
  timeout: (at) => `Printer${at} tidak menjawab tepat waktu.`,
  unfinished: (at) => `Printer${at} tidak selesai menerima halaman tepat waktu.`,
  not_found: (at) => `Alamat printer${at} tidak ditemukan.`,
  unreachable: (at) => `Printer${at} tidak terjangkau dari komputer ini.`,
  dropped: (at) => `Printer${at} memutus sambungan sebelum halaman terkirim.`,
  system: (at) => `Printer komputer ini${at} tidak menerima halaman.`,
  error: (at) => `Printer${at} tidak dapat dipakai.`,
};

const openWhat = {
  change_gateway: 'mengubah gateway dalam mode langsung',
  change_credential: 'mengubah kredensial mode langsung',
  remove_credential: 'menghapus kredensial mode langsung',
} as const;

const modeName = { training: 'latihan', live: 'langsung' } as const;
const http = (status: number, retcode?: string) => `HTTP ${status}${retcode ? `, retcode ${retcode}` : ''}`;

/** Kata-kata Bahasa Indonesia untuk setiap alasan. */
/** Aturan yang dilanggar kolom shift (common/cash.ts, CashRule), singkat. */
const shiftRuleId: Record<string, string> = {
  amount: 'bilangan bulat rupiah, lebih dari 0',
  reason: 'sebutkan alasannya, 3 sampai 200 karakter',
  drawer: 'lebih dari uang yang seharusnya ada di laci',
  count: 'jumlah lembar atau keping, 0 atau lebih',
  denomination: 'bukan uang kertas atau logam Indonesia yang dihitung Loket',
  pin: 'memerlukan PIN manajer',
};

export const reasonsId: ReasonWords = {
  'arguments.invalid': ({ field, min, max }, say) =>
    min !== undefined && max !== undefined
      ? `Permintaan ini tidak diterima (${field}): bilangan bulat rupiah dari ${say.rupiah(min)} sampai ${say.rupiah(max)}.`
      : `Permintaan ini tidak diterima (${field}).`,

  'order.not_found': ({ orderId }) => `Pesanan ${orderId} tidak ditemukan.`,
  'order.duplicate': ({ orderId }) => `Nomor pesanan ${orderId} sudah dipakai.`,
  'order.illegal_transition': ({ orderId, from, to, allowedFrom }, say) =>
    allowedFrom.length > 0
      ? `Pesanan ${orderId} berstatus ${say.state(from)}: hanya pesanan berstatus ` +
        `${say.either(allowedFrom.map(say.state))} yang dapat menjadi ${say.state(to)}.`
      : `Pesanan ${orderId} berstatus ${say.state(from)}: tidak ada pesanan yang dapat menjadi ${say.state(to)}.`,
  'order.reason_rule': ({ min, max }) => `Beri alasan ${min} sampai ${max} karakter.`,
  'order.not_awaiting_payment': ({ orderId, state }, say) =>
    `Pesanan ${orderId} berstatus ${say.state(state)}: hanya pesanan yang menunggu pembayaran yang dapat dibayar.`,
  'order.late_payment_state': ({ orderId, state }, say) =>
    `Pesanan ${orderId} berstatus ${say.state(state)}: pembayaran terlambat hanya dicatat pada pesanan yang dibatalkan, kedaluwarsa, gagal, atau ditolak.`,
  'order.bad_day': ({ day }) => `${day} bukan tanggal.`,
  'sale.waiting': ({ orderId, unknown }) =>
    unknown
      ? `Penjualan lain (${orderId}) masih terbuka: hasilnya belum diketahui. Selesaikan, batalkan, atau parkir dulu.`
      : `Penjualan lain (${orderId}) masih menunggu pembayaran. Selesaikan, batalkan, atau parkir dulu.`,
  'sale.held': ({ orderId }) =>
    `Hasil pesanan ${orderId} belum diketahui: mungkin sudah ditagih, jadi tidak ada pembayaran lain ` +
    '(tunai, kartu, atau QR) yang diterima sampai pesanan itu selesai. Periksa lagi, atau minta manajer ' +
    '(Manajer → Perlu perhatian).',
  'sale.in_flight': ({ orderId }) =>
    `Tagihan lain (${orderId}) sedang dikirim: tunggu jawabannya. Tidak ada yang diterima untuk tagihan ini.`,
  'sale.sign_in_required': () => 'Masuk dulu di kasir: toko ini meminta PIN setiap kasir sebelum menagih.',
  'sale.simulate_training_only': () => 'Pembayaran hanya dapat disimulasikan dalam mode latihan.',
  'sale.sandbox_restarted': () =>
    'Gateway latihan dimulai ulang dan tidak lagi mengenal pesanan ini: batalkan, lalu tagih lagi.',

  'pin.format': ({ min, max }) => `PIN terdiri dari ${min} sampai ${max} angka.`,
  'staff.name_rule': ({ min, max }) => `Nama ${min} sampai ${max} karakter.`,
  'staff.name_characters': () => 'Nama hanya boleh berisi huruf, angka, spasi, dan tanda baca.',
  'staff.role': () => 'Peran adalah kasir atau manajer.',
  'staff.not_found': () => 'Staf ini tidak ditemukan.',
  'staff.duplicate_name': ({ name, former }) =>
    former
      ? `${name} adalah nama staf lama: aktifkan lagi, atau pilih nama lain.`
      : `Sudah ada staf bernama ${name}: pilih nama lain.`,
  'staff.last_manager': ({ name, action }) =>
    `${name} adalah satu-satunya manajer aktif dan tidak dapat ` +
    `${{ remove: 'dihapus', demote: 'dijadikan kasir', deactivate: 'dinonaktifkan' }[action]}: jadikan staf lain ` +
    `manajer terlebih dahulu.`,
  'manager.exists': () => 'Loket sudah punya manajer; manajer menambah staf di layar manajer.',
  'manager.locked': () => 'Layar manajer terkunci: masukkan PIN manajer.',

  'settings.unknown_field': ({ field }) => `${field} bukan pengaturan yang dikenal Loket.`,
  'settings.open_orders': ({ count, what }) =>
    `Masih ada ${count} pesanan yang sedang dikirim, menunggu pembayaran, atau belum diketahui: selesaikan atau ` +
    `batalkan dulu sebelum ${openWhat[what]}.`,
  'settings.remove_gateway_live': () =>
    'Gateway tidak dapat dihapus dalam mode langsung: kembali ke mode latihan dulu.',
  'mode.open_orders': ({ count, mode, to }) =>
    `Masih ada ${count} pesanan terbuka dalam mode ${modeName[mode]} (sedang dikirim, menunggu pembayaran, atau ` +
    `belum diketahui): selesaikan dulu — tunggu pembayaran atau kedaluwarsa, batalkan, atau tuntaskan yang belum ` +
    `diketahui — lalu beralih ke mode ${modeName[to]}.`,
  'mode.needs_gateway': () =>
    'Mode langsung memerlukan gateway: isi alamat, appid, dan appkey-nya, simpan, lalu uji koneksi dulu.',
  'mode.confirm': ({ baseUrl }) => `Untuk beralih ke mode langsung, ketik alamat gateway persis: ${baseUrl}`,
  'live.keychain': ({ problem }) => `Mode langsung tidak dapat membaca appkey: ${keychainId[problem]}.`,
  'live.secret_missing': ({ secret }) =>
    `Mode langsung tidak dapat dimulai: belum ada ${secret === 'appkey' ? 'appkey' : 'rahasia penandatanganan'} ` +
    `yang tersimpan. Isi di bagian Gateway dan simpan dulu.`,
  'live.plain_http': () =>
    'Mode langsung tidak dapat dimulai: alamat gateway memakai http:// biasa di mesin lain. Pakai https://, atau izinkan http dengan sengaja di bagian Gateway.',
  'live.start_failed': () => 'Mode langsung tidak dapat dimulai; rinciannya ada di log.',
  'keychain.unavailable': ({ problem }) => `Keychain sistem tidak dapat dipakai: ${keychainId[problem]}.`,
  'gateway.not_configured': () => 'Isi dan simpan alamat serta appid gateway dulu.',

  'print.done': ({ printer, what }) => {
    const on = printer ? ` di ${printer}` : '';
    return {
      receipt: 'Struk tercetak.',
      copy: 'Salinan tercetak.',
      test: `Halaman uji tercetak${on}.`,
      report: `Laporan harian tercetak${on}.`,
      slip: 'Slip pembayaran tercetak.',
    }[what];
  },
  'print.no_printer': ({ what }) =>
    ({
      receipt: 'Belum ada printer yang diatur: cetak dari layar ini.',
      test: 'Belum ada printer yang diatur: struk dicetak dari layar.',
      report: 'Belum ada printer yang diatur: cetak halaman A4 dari layar.',
      slip: 'Belum ada printer yang diatur: cetak dari layar ini.',
    })[what],
  'print.failed': ({ printer, problem }) => print[problem](printer ? ` ${printer}` : ''),

  'shift.none_open': () => 'Tidak ada shift yang terbuka di kasir ini: buka shift dengan modal awalnya dulu.',
  'shift.already_open': ({ shiftId }) => `Sudah ada shift terbuka di kasir ini (${shiftId}): tutup dulu.`,
  'shift.not_found': ({ shiftId }) => `Tidak ada shift ${shiftId}.`,
  'shift.sales_being_paid': ({ sales }, say) => {
    const named = sales.map((x) =>
      x.orderId
        ? `${x.serial} (${x.methodId ? say.method(x.methodId) : 'pembayaran digital'} ${x.orderId}: ` +
          `${x.orderState ? say.state(x.orderState) : 'tidak ditemukan'})`
        : x.serial,
    );
    const unknown = sales.some((x) => x.orderState === 'unknown');
    return (
      `Shift belum dapat ditutup selama ${sales.length === 1 ? 'ada penjualan yang' : 'ada penjualan-penjualan yang'} ` +
      `masih dibayar: ${named.join(', ')}. Tunggu pembayarannya, periksa lagi di layar pembayaran, atau batalkan ` +
      `penjualannya${unknown ? ' (pembayaran yang belum jelas diputuskan oleh manajer)' : ''}; lalu tutup shift.`
    );
  },
  'shift.field_rule': ({ field, rule, min, max }, say) =>
    rule === 'amount' && min !== undefined && max !== undefined
      ? `${field}: bilangan bulat rupiah dari ${say.rupiah(min)} sampai ${say.rupiah(max)}.`
      : `${field}: ${shiftRuleId[rule] ?? 'tidak diperbolehkan di sini'}.`,
  'shift.manager_pin': ({ refusal }) =>
    refusal === 'locked_out'
      ? 'Memasukkan PIN dikunci sebentar setelah terlalu banyak PIN salah.'
      : refusal === 'not_a_manager'
        ? 'Staf itu bukan manajer: manajer harus menyetujui ini.'
        : refusal === 'pin_required'
          ? 'Ini memerlukan PIN manajer.'
          : 'PIN manajer salah.',
  'drawer.opened': () => 'Laci kas terbuka.',
  'drawer.no_printer': () => 'Printer struk belum diatur, jadi Loket tidak dapat membuka laci kas: buka secara manual.',
  'drawer.system_printer': () =>
    'Laci kas tidak dapat dibuka lewat printer komputer ini: buka secara manual (atau gunakan printer jaringan).',
  'drawer.failed': ({ printer, problem }) => `Laci kas tidak terbuka: ${print[problem](printer ? ` ${printer}` : '')}`,
  'day.shift_open': ({ day, shiftId, businessDay }, say) =>
    `${say.day(day)} tidak dapat ditutup selama shift ${shiftId} (dibuka ${say.day(businessDay)}) masih terbuka: tutup shift dengan hitungannya dulu.`,
  'books.bad_query': ({ field }) => `Pembukuan tidak dapat menjawab permintaan ini (${field}).`,
  'day.not_begun': ({ day }, say) =>
    `${say.day(day)} belum dimulai di zona waktu toko: hari dapat ditutup mulai hari itu sendiri.`,
  'day.already_closed': ({ day, closedAt, by }, say) =>
    `${say.day(day)} sudah ditutup pada ${say.time(closedAt)} oleh ${by}; perubahan sesudahnya tercantum setelah penutupan.`,
  'store.not_enrolled': () => 'Kasir ini belum terdaftar di buku toko: hanya bukunya sendiri yang bisa ditampilkan.',
  'store.unreachable': () => 'Buku toko tidak bisa dihubungi sekarang: coba lagi, atau tampilkan buku kasir ini saja.',
  'attention.issue_not_found': () => 'Masalah callback ini tidak ditemukan.',
  'attention.already_acknowledged': ({ orderId }) => `Ini sudah ditangani sementara itu (${orderId}).`,
  'attention.nothing_to_acknowledge': ({ orderId }) =>
    `Pesanan ${orderId} tidak punya pembayaran terlambat atau masalah callback untuk dicatat.`,
  'attention.does_not_fit': ({ orderId, state }, say) =>
    `Pesanan ${orderId} berstatus ${say.state(state)}: tindakan ini untuk pesanan yang hasilnya belum diketahui atau sudah lewat batas waktunya.`,
  'attention.only_acknowledge': ({ orderId }) =>
    `Pesanan ${orderId} tidak ada di kasir ini: masalah callback tentangnya hanya dapat dicatat sudah ditangani.`,
  'attention.no_inquiry': ({ orderId, state }, say) =>
    `Gateway ini tidak punya pengecekan status, jadi pesanan ${orderId} (${say.state(state)}) tidak dapat diperiksa ` +
    `dari sini: cari di gateway, lalu tandai lunas atau batalkan.`,
  'attention.now': ({ orderId, state }, say) => `Pesanan ${orderId} sekarang ${say.state(state)}.`,
  'attention.late_acknowledged': ({ orderId }) => `Pembayaran terlambat ${orderId} dicatat sudah ditangani.`,
  'attention.problems_acknowledged': ({ count }) =>
    count === 1 ? 'Masalah callback dicatat sudah ditangani.' : `${count} masalah callback dicatat sudah ditangani.`,
  'attention.inquiry_failed': ({ orderId }) => `Pengecekan status ${orderId} ke gateway gagal; coba lagi nanti.`,
  'attention.still_waiting': ({ orderId }) =>
    `Gateway masih menunggu pembayaran ${orderId}: batalkan, atau tandai lunas bila uangnya sudah terlihat.`,
  'attention.kept_late': ({ orderId, status, state }, say) =>
    `Gateway menyatakan ${status}: dicatat sebagai pembayaran terlambat pada pesanan ${orderId}, yang tetap ${say.state(state)}.`,
  'attention.stays': ({ orderId, status, state }, say) =>
    `Gateway menyatakan ${status}; pesanan ${orderId} tetap ${say.state(state)}.`,
  'attention.set_aside': ({ orderId }) =>
    `Pesanan ${orderId} tetap belum diketahui dan tetap di antrean; kasir boleh berjualan lagi.`,
  'attention.set_aside_unknown_only': ({ orderId, state }, say) =>
    `Pesanan ${orderId} berstatus ${say.state(state)}: hanya pesanan yang hasilnya belum diketahui yang dapat dikesampingkan.`,
  'attention.closed': ({ orderId, status }) =>
    `Gateway menyatakan ${status}: pesanan ${orderId}, yang dibatalkan di Loket, juga ditutup di sana.`,
  'attention.mismatch_acknowledged': ({ orderId }) => `Jawaban yang tidak cocok untuk ${orderId} sudah ditandai.`,
  'attention.mismatch_not_applied': ({ orderId }) =>
    `Jawaban gateway tidak cocok dengan pesanan ${orderId} (pesanan, jumlah, atau metode lain): tidak diterapkan.`,
  'attention.still_unknown': ({ orderId }) => `Hasil ${orderId} masih belum diketahui.`,
  'attention.item.unknown': ({ amount, methodId }, say) =>
    `Terkirim, tetapi hasilnya belum diketahui: mungkin sudah ditagih (${say.rupiah(amount)}, ${say.method(methodId)}).`,
  'attention.item.late_payment': ({ amount, methodId, state }, say) =>
    `Dibayar setelah ${say.state(state)}: uangnya ada di suatu tempat (${say.rupiah(amount)}, ${say.method(methodId)}).`,
  'attention.item.overdue': ({ amount, methodId }, say) =>
    `Masih menunggu pembayaran melewati batas waktunya: gateway belum memberi kabar (${say.rupiah(amount)}, ${say.method(methodId)}).`,
  'attention.item.mismatch': ({ amount, methodId }, say) =>
    `Gateway menjawab dengan pesanan, jumlah, atau metode lain: tidak diterapkan (${say.rupiah(amount)}, ${say.method(methodId)}).`,
  'attention.item.unknown_order': ({ status, amount }, say) =>
    `Callback ${status}${amount === undefined ? '' : ` ${say.rupiah(amount)}`} yang sah untuk pesanan yang tidak ada di kasir ini.`,
  'attention.item.amount_mismatch': ({ status, amount, orderAmount }, say) =>
    `Callback ${status} melaporkan ${amount === undefined ? 'jumlah lain' : say.rupiah(amount)}, padahal pesanan ` +
    `sebesar ${say.rupiah(orderAmount)}: tidak diterapkan.`,
  'attention.item.not_forward': ({ status, state }, say) =>
    `Gateway melaporkan ${status} padahal pesanan ${state ? say.state(state) : 'berstatus lain'}: diabaikan.`,

  'probe.no_appkey': () =>
    'Belum ada appkey yang tersimpan, jadi Loket tidak menghubungi gateway. Isi appkey dari gateway, simpan, lalu uji lagi.',
  'probe.no_signing_secret': () =>
    'Tanda tangan memakai rahasia penandatanganan terpisah dan belum ada yang tersimpan, jadi Loket tidak ' +
    'menghubungi gateway. Isi rahasia itu (atau tanda tangani dengan appkey), lalu uji lagi.',
  'probe.secrets_unreadable': () =>
    'Kredensial tidak dapat dibaca dari keychain sistem, jadi Loket tidak menghubungi gateway. Buka kunci atau perbaiki keychain, lalu uji lagi.',
  'probe.not_sent': ({ baseUrl, code }) =>
    `Tidak dapat menjangkau ${baseUrl} (${code}). Periksa alamat dan koneksi jaringan komputer ini, lalu uji lagi.`,
  'probe.tls': ({ baseUrl, code }) =>
    `Terhubung ke ${baseUrl}, tetapi sertifikat TLS-nya tidak diterima (${code}). Periksa alamatnya: nama host harus sama dengan sertifikat.`,
  'probe.timeout': ({ baseUrl, seconds }) =>
    `Tidak ada jawaban dari ${baseUrl} dalam ${seconds} detik. Gateway mungkin sedang mati atau alamatnya salah.`,
  'probe.broken': ({ baseUrl, code }) =>
    `Sambungan ke ${baseUrl} terputus sebelum ada jawaban (${code}). Periksa alamat (http atau https?) dan jaringan.`,
  'probe.unknown_appid': ({ appId }) =>
    `Gateway tidak mengenal appid "${appId}". Periksa (huruf besar/kecil berpengaruh) dengan yang diberikan gateway.`,
  'probe.bad_key': ({ appId }) =>
    `Gateway mengenal appid "${appId}", tetapi appkey yang tersimpan bukan pasangannya. Isi appkey lagi, persis seperti dari gateway.`,
  'probe.bad_signature': ({ key, encoding }) =>
    `Appid dan appkey diterima, tetapi tanda tangannya tidak. Periksa pengaturan tanda tangan (sekarang: ` +
    `${key === 'appkey' ? 'appkey' : 'rahasia penandatanganan terpisah'}, ${encoding}) dengan petunjuk gateway.`,
  'probe.refused': ({ status, retcode }) =>
    `Gateway tidak menerima kredensial (${http(status, retcode)}). Periksa appid, appkey, dan pengaturan tanda tangan.`,
  'probe.inquiry_found': ({ probeId, path }) =>
    `Kredensial diterima, tetapi gateway menyatakan punya pesanan ${probeId}, yang tidak pernah dibuat Loket. ` +
    `Periksa apakah jalur pengecekan status (${path}) memang milik gateway, dan beri tahu dukungan gateway.`,
  'probe.create_accepted': ({ probeId }) =>
    `Kredensial diterima, tetapi gateway MENERIMA pesanan uji yang seharusnya ditolak (${probeId}, jumlah 0). ` +
    `Batalkan pesanan itu di gateway dan beri tahu dukungannya; bila gateway punya pengecekan status, isi jalurnya ` +
    `agar uji memakainya.`,
  'probe.ok_inquiry': ({ probeId }) =>
    `Terhubung: gateway menerima appid, appkey, dan tanda tangan. Loket menanyakan pesanan yang tidak mungkin ada ` +
    `(${probeId}) dan gateway menjawab "tidak ditemukan", sebagaimana mestinya. Tidak ada yang dibuat.`,
  'probe.ok_create': ({ probeId, retcode }) =>
    `Terhubung: gateway menerima appid, appkey, dan tanda tangan. Gateway menolak pesanan uji Loket yang sengaja ` +
    `tidak sah (${probeId}) karena isiannya (retcode ${retcode}), sebagaimana mestinya. Tidak ada yang dibuat.`,
  'probe.redirect': ({ status, location }) =>
    `Gateway menjawab dengan pengalihan (HTTP ${status}${location ? ` ke ${location}` : ''}). Periksa alamatnya: ` +
    `https alih-alih http, atau jalur yang kurang.`,
  'probe.server_error': ({ status, retcode }) =>
    `Gateway gagal menjawab (${http(status, retcode)}): mungkin sedang dalam pemeliharaan. Coba lagi nanti.`,
  'probe.not_json': ({ status, url, inquiry }) =>
    `${url} menjawab HTTP ${status} dengan sesuatu yang bukan jawaban gateway. Periksa ${inquiry ? 'jalur pengecekan status' : 'alamatnya'}.`,
  'probe.no_endpoint': ({ path, status, inquiry }) =>
    `Gateway tidak punya endpoint ${path} (HTTP ${status}). Periksa ${inquiry ? 'jalur pengecekan status' : 'alamatnya'}.`,
  'probe.unexpected': ({ status, retcode }) =>
    `Jawaban gateway tidak seperti yang diharapkan uji ini (${http(status, retcode)}); kredensial tidak dapat dipastikan.`,

  'save.done': ({ path }) => `Tersimpan: ${path}`,
  'save.cancelled': () => 'Tidak disimpan: dialog simpan dibatalkan.',
  'save.gone': () => 'Ekspor ini sudah tidak ada (sudah disimpan, atau terlalu lama): ekspor lagi.',
  'save.failed': () => 'Tidak disimpan: file tidak dapat ditulis (disk penuh, atau USB dicabut?).',
};
