import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAYMENT_KINDS, parsePaymentCatalogue } from '../../src-main/common/payment-methods';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';

describe('payment-method catalogue', () => {
  const methods = loadPaymentCatalogue();

  it('covers every kind with enabled methods', () => {
    for (const kind of PAYMENT_KINDS) {
      expect(methods.filter((m) => m.kind === kind && m.enabled).length, kind).toBeGreaterThan(0);
    }
  });

  it('has several banks, e-wallets and carriers, and two convenience stores', () => {
    expect(methods.filter((m) => m.kind === 'va_bank').length).toBeGreaterThanOrEqual(4);
    expect(methods.filter((m) => m.kind.startsWith('ewallet')).length).toBeGreaterThanOrEqual(3);
    expect(methods.filter((m) => m.kind.startsWith('airtime')).length).toBeGreaterThanOrEqual(4);
    expect(methods.filter((m) => m.kind === 'va_cstore').length).toBe(2);
  });

  it('marks the special cases of the interface: one customer_name bank, one e-wallet without back_url, two short_code carriers', () => {
    expect(methods.filter((m) => m.requiresCustomerName).map((m) => m.kind)).toEqual(['va_bank']);
    expect(methods.filter((m) => m.kind.startsWith('ewallet') && !m.returnsBackUrl)).toHaveLength(1);
    expect(methods.filter((m) => m.hasShortCode).map((m) => m.kind)).toEqual(['airtime_sms', 'airtime_sms']);
    expect(methods.some((m) => m.kind === 'airtime_sms' && !m.hasShortCode)).toBe(true);
  });

  it('uses <type>_<name> ids with labels in Indonesian and English', () => {
    for (const m of methods) {
      expect(m.id).toMatch(/^[a-z]+_[a-z0-9]+$/);
      expect(m.label.id.length).toBeGreaterThan(0);
      expect(m.label.en.length).toBeGreaterThan(0);
    }
  });

  it('refuses an invalid catalogue with a message that names each place', () => {
    const bad = [
      {
        id: 'VA BCA',
        kind: 'va_bank',
        provider: 'BCA',
        label: { id: 'x', en: 'x' },
        requiresCustomerName: false,
        enabled: true,
      },
      {
        id: 'qris_a',
        kind: 'cash',
        provider: 'Q',
        label: { id: 'x', en: 'x' },
        requiresCustomerName: false,
        enabled: true,
      },
      {
        id: 'qris_b',
        kind: 'qris',
        provider: 'Q',
        label: { id: 'x', en: 'x' },
        requiresCustomerName: true,
        enabled: true,
      },
    ];
    expect(() => parsePaymentCatalogue(bad, 'test.json')).toThrow(/0\.id[\s\S]*1\.kind[\s\S]*2\.requiresCustomerName/);
    expect(() => parsePaymentCatalogue([])).toThrow(/payment-method catalogue/);
  });

  it('refuses duplicate ids, unreadable files and bad JSON', () => {
    const one = methods[0]!;
    expect(() => parsePaymentCatalogue([one, one])).toThrow(/duplicate id/);
    const dir = mkdtempSync(join(tmpdir(), 'loket-cat-'));
    expect(() => loadPaymentCatalogue(join(dir, 'missing.json'))).toThrow(/cannot read.*ENOENT/);
    writeFileSync(join(dir, 'bad.json'), '[{');
    expect(() => loadPaymentCatalogue(join(dir, 'bad.json'))).toThrow(/not valid JSON/);
  });
});
