import { describe, expect, it } from 'vitest';
import type { Order } from '../../src-main/common/order';
import type { PaymentMethod } from '../../src-main/common/payment-methods';
import { escapeHtml, estimatePageHeightMm, renderReceiptHtml } from '../../src-main/core/receipts/receipt-html';
import { buildReceipt, type ReceiptContext } from '../../src-main/core/receipts/receipt-model';

const METHOD: PaymentMethod = {
  id: 'va_bca',
  kind: 'va_bank',
  provider: 'BCA',
  label: { id: 'Virtual Account BCA', en: 'BCA Virtual Account' },
  requiresCustomerName: true,
  requiresPhone: false,
  hasShortCode: false,
  returnsBackUrl: true,
  enabled: true,
  minAmount: 1,
  maxAmount: 100_000_000,
};

function order(over: Partial<Order> = {}): Order {
  return {
    id: 'T01-20261122-182955001-7F3K',
    terminalId: 'T01',
    api: 'v2',
    state: 'paid',
    methodId: 'va_bca',
    kind: 'va_bank',
    amount: 25000,
    currency: 'IDR',
    itemName: 'Kopi susu gula aren',
    userId: 'kasir1',
    training: false,
    delivery: 'answered',
    gatewayTransactionId: 'GW-8812345',
    instruction: { type: 'virtual_account', va: '8808123456789012' },
    paidAt: '2026-11-22T18:30:05Z',
    latePayment: false,
    createdAt: '2026-11-22T18:29:55Z',
    updatedAt: '2026-11-22T18:30:05Z',
    ...over,
  };
}

const CTX: ReceiptContext = {
  storeName: 'Toko Sinar Jaya',
  storeAddress: 'Jl. Merdeka 17, Bandung',
  method: METHOD,
  timeZone: 'Asia/Jakarta',
  lang: 'id',
  copy: false,
  training: false,
  printedAt: new Date('2026-11-22T18:31:00Z'),
};

const html = (o: Partial<Order> = {}, c: Partial<ReceiptContext> = {}, paper: 58 | 80 = 58) =>
  renderReceiptHtml(buildReceipt(order(o), { ...CTX, ...c }), { paper });

describe('receipt HTML', () => {
  it('is a complete document with the language set and the receipt content', () => {
    const doc = html();
    expect(doc.startsWith('<!doctype html>\n<html lang="id">')).toBe(true);
    expect(doc).toContain('<meta charset="utf-8">');
    expect(doc.trimEnd().endsWith('</html>')).toBe(true);
    for (const text of [
      'Toko Sinar Jaya',
      'Jl. Merdeka 17, Bandung',
      'STRUK PEMBAYARAN',
      'T01-20261122-182955001-7F3K',
      '23/11/2026 01.30 WIB',
      '8808123456789012',
      'LUNAS',
      'Rp25.000',
      'Terima kasih',
    ]) {
      expect(doc, text).toContain(text);
    }
    expect(html({}, { lang: 'en' })).toContain('<html lang="en">');
    expect(html({}, { lang: 'en' })).toContain('PAYMENT RECEIPT');
  });

  it('escapes every text: an item name with <script> stays text', () => {
    const doc = html(
      { itemName: '<script>alert("x")</script> & \'kopi\'' },
      { storeName: 'Toko "Baru" <b>&</b>', storeAddress: '<img src=x onerror=alert(1)>' },
    );
    expect(doc).not.toMatch(/<script/i);
    expect(doc).not.toContain('<img');
    expect(doc).not.toContain('<b>');
    expect(doc).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;kopi&#39;');
    expect(doc).toContain('Toko &quot;Baru&quot; &lt;b&gt;&amp;&lt;/b&gt;');
    expect(doc).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });

  it('lays out for 58 mm or 80 mm paper: page size and printable width', () => {
    const d58 = html({}, {}, 58);
    const d80 = html({}, {}, 80);
    expect(d58).toContain('@page { size: 58mm auto; margin: 0 }');
    expect(d80).toContain('@page { size: 80mm auto; margin: 0 }');
    // Chromium ignores an `auto` height, so a rule with a height estimated from the content comes first.
    expect(d58).toMatch(/@page \{ size: 58mm \d+mm; margin: 0 \}/);
    expect(d80).toMatch(/@page \{ size: 80mm \d+mm; margin: 0 \}/);
    expect(d58).toMatch(/body \{\s*width: 48mm;/);
    expect(d80).toMatch(/body \{\s*width: 72mm;/);
    expect(d58).not.toContain('80mm');
    expect(d80).not.toContain('58mm');
    expect(d58).toMatch(/font-family: [^;]*monospace/);
    expect(d58).toMatch(/hr \{[^}]*dashed/);
    expect(() => renderReceiptHtml(buildReceipt(order(), CTX), { paper: 57 as 58 })).toThrow(/58 or 80/);
  });

  it('grows the page with the content', () => {
    const short = buildReceipt(order(), CTX);
    const long = buildReceipt(order({ itemName: 'Paket nasi goreng spesial '.repeat(8) }), {
      ...CTX,
      copy: true,
      training: true,
    });
    expect(estimatePageHeightMm(long, 58)).toBeGreaterThan(estimatePageHeightMm(short, 58) + 30);
    for (const paper of [58, 80] as const) expect(estimatePageHeightMm(short, paper)).toBeGreaterThan(60);
  });

  it('shows the COPY and SANDBOX marks, the SANDBOX band at the top and the bottom', () => {
    const doc = html({}, { copy: true, training: true });
    expect(doc).toContain('<div class="mark mark-copy" role="note">SALINAN</div>');
    expect(
      doc.match(/<div class="mark mark-sandbox" role="note">SANDBOX — BUKAN TRANSAKSI NYATA<\/div>/g),
    ).toHaveLength(2);
    expect(doc).toMatch(/print-color-adjust: exact/);
    const en = html({}, { copy: true, training: true, lang: 'en' });
    expect(en).toContain('>COPY</div>');
    expect(en).toContain('>SANDBOX — NOT A REAL PAYMENT</div>');
    const plain = html();
    expect(plain).not.toContain('mark-copy"');
    expect(plain).not.toContain('mark-sandbox"');
  });

  it('an unpaid order says so and is not a proof of payment', () => {
    const doc = html({ state: 'awaiting_payment', paidAt: undefined });
    expect(doc).toContain('BELUM DIBAYAR');
    expect(doc).toContain('Bukan bukti pembayaran.');
    expect(doc).not.toContain('LUNAS');
    expect(doc).not.toContain('STRUK PEMBAYARAN');
  });

  it('is self-contained: no scripts, no external URLs, and a policy that forbids loading any', () => {
    for (const doc of [html(), html({}, { copy: true, training: true, lang: 'en' }, 80)]) {
      expect(doc).not.toMatch(/https?:\/\//i);
      expect(doc).not.toMatch(/\b(src|href)\s*=/i);
      expect(doc).not.toMatch(/url\(|@import|<link|<script|<iframe|<img/i);
      expect(doc).toContain(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
      );
    }
  });
});
