// The registry of payment kinds (common/payment-kinds/): each kind's module is consistent with itself — what the
// sandbox answers for it is what Loket's parser reads as its instruction — and the places that differ by kind
// (catalogue, settings, exports, screens' words) take every kind from it. A new kind's module is held to the same.
import { describe, expect, it } from 'vitest';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { fitsKind, parseV2Answer } from '../../src-main/core/gateway/parse-response';
import {
  codeKindsSql,
  isPaymentKind,
  kindSpec,
  kindsWhere,
  KIND_LABELS,
  PAYMENT_KINDS,
  unknownKindMessage,
} from '../../src-main/common/payment-kinds';
import type { SandboxKindOrder } from '../../src-main/common/payment-kinds/kind-spec';
import { parsePaymentCatalogue } from '../../src-main/common/payment-methods';
import { DEFAULT_SETTINGS, settingsSchema } from '../../src-main/common/settings';
import { en } from '../../src-renderer/src/i18n/en';
import { id } from '../../src-renderer/src/i18n/id';

const METHODS = loadPaymentCatalogue();
const EXPIRES = new Date('2025-03-01T04:00:00.000Z');

/** A sandbox order of `kind` as the sandbox makes one: the kind's payment data, from fixed "random" parts. */
function sandboxOrder(kind: (typeof PAYMENT_KINDS)[number]): SandboxKindOrder {
  const method = METHODS.find((m) => m.kind === kind)!;
  const request = {
    redirect_target: '_top',
    user_id: 'u1',
    user_mdn: '081234567890',
    merchant_transaction_id: 'T01-1',
    payment_method: method.id,
    currency: 'IDR',
    amount: 25_000,
    item_name: 'Kopi',
    customer_name: 'Siti',
  };
  const payment = kindSpec(kind).sandbox.payment({
    method,
    request,
    pageUrl: 'http://127.0.0.1:1/api/order/app/tok',
    qrisUrl: 'http://127.0.0.1:1/api/qris/tok.png',
    qrString: () => '00020101021226',
    newVirtualAccount: () => '8808123412341234',
    smsDetails: () => ({ keyword: 'BAYAR', sms_code: '123456', trx_type: 'SMS_REPLY' }),
  });
  return { request, method, payment, transactionId: 'SBX-1', expiresAt: EXPIRES };
}

describe('the registry of payment kinds', () => {
  it('holds one module per kind, under its own name, with a label the screens have words for', () => {
    expect(PAYMENT_KINDS.length).toBeGreaterThan(0);
    for (const kind of PAYMENT_KINDS) {
      const spec = kindSpec(kind);
      expect(spec.kind).toBe(kind);
      expect(KIND_LABELS).toContain(spec.label);
      expect(en.kinds[spec.label]).toMatch(/\S/);
      expect(id.kinds[spec.label]).toMatch(/\S/);
      expect(spec.lifetimeSeconds).toBeGreaterThanOrEqual(30);
    }
    expect(isPaymentKind('qris')).toBe(true);
    expect(isPaymentKind('cash')).toBe(false);
    expect(isPaymentKind(undefined)).toBe(false);
  });

  for (const kind of PAYMENT_KINDS) {
    it(`${kind}: the sandbox's answer for it parses into its own instruction, and fits only kinds of that shape`, () => {
      const answer = kindSpec(kind).sandbox.answer(sandboxOrder(kind), 'Asia/Jakarta');
      const parsed = parseV2Answer(JSON.parse(JSON.stringify(answer)), kind);
      expect(parsed).toMatchObject({ ok: true, instruction: { type: kindSpec(kind).answer.instruction } });
      if (!parsed.ok) return;
      // Nothing the answer carried is lost: what the shape does not model is kept in `extra`.
      expect(parsed.instruction.extra).toBeUndefined();
      for (const other of PAYMENT_KINDS)
        expect(fitsKind(other, parsed.instruction)).toBe(kindSpec(other).answer === kindSpec(kind).answer);
    });
  }

  it('the catalogue accepts every kind, and its kind-only flags only on the kinds whose module allows them', () => {
    const base = { provider: 'P', label: { id: 'x', en: 'x' }, requiresCustomerName: false, enabled: true };
    for (const kind of PAYMENT_KINDS)
      expect(parsePaymentCatalogue([{ ...base, id: 'k_one', kind }])[0]!.kind).toBe(kind);
    const shortCode = kindsWhere((k) => k.catalogue?.shortCode === true);
    expect(shortCode).toEqual(['airtime_sms']);
    expect(() => parsePaymentCatalogue([{ ...base, id: 'k_one', kind: 'airtime', hasShortCode: true }])).toThrow(
      /hasShortCode: hasShortCode applies to airtime_sms only/,
    );
    expect(() => parsePaymentCatalogue([{ ...base, id: 'k_one', kind: 'cash' }])).toThrow(/kind/);
  });

  it('settings: every kind has a lifetime, and a kind missing from saved settings gets its module’s', () => {
    expect(DEFAULT_SETTINGS.fallbackTtlSeconds).toEqual(
      Object.fromEntries(PAYMENT_KINDS.map((k) => [k, kindSpec(k).lifetimeSeconds])),
    );
    const { va_cstore: _dropped, ...saved } = { ...DEFAULT_SETTINGS.fallbackTtlSeconds, qris: 600 };
    const parsed = settingsSchema.parse({ ...DEFAULT_SETTINGS, fallbackTtlSeconds: saved });
    expect(parsed.fallbackTtlSeconds).toEqual({ ...DEFAULT_SETTINGS.fallbackTtlSeconds, qris: 600 });
  });

  it('the exports take the kinds with a code from the registry; an unknown kind is named with its field and rule', () => {
    expect(codeKindsSql()).toBe("'va_bank', 'va_cstore'");
    expect(unknownKindMessage('kind', 'cash')).toBe(
      `kind: "cash" is not a payment kind (one of ${PAYMENT_KINDS.join(', ')})`,
    );
    expect(() => kindSpec('cash' as never)).toThrow(/^kind: "cash" is not a payment kind/);
  });
});
