import { describe, expect, it } from 'vitest';
import { ORDER_STATES, type OrderState } from '../../src-main/common/order';
import {
  GATEWAY_STATUS_STATE,
  IllegalTransitionError,
  InvalidReasonError,
  LATE_PAYMENT_STATES,
  REASON_MAX,
  TRANSITIONS,
  checkReason,
  gatewayStatusEffect,
  retrySafety,
  statesLeadingTo,
  type GatewayStatus,
} from '../../src-main/common/order-policy';

describe('the reason rule', () => {
  it('keeps a reason trimmed, and refuses blanks, fewer than 3 characters and more than 200', () => {
    expect(checkReason('  customer left  ')).toBe('customer left');
    expect(checkReason('abc')).toBe('abc');
    expect(checkReason('x'.repeat(REASON_MAX))).toHaveLength(REASON_MAX);
    for (const bad of ['', '   ', 'ab', '  ab  ', 'x'.repeat(REASON_MAX + 1), undefined, 42]) {
      expect(() => checkReason(bad), JSON.stringify(bad)).toThrow(InvalidReasonError);
    }
  });
});

describe('statesLeadingTo and the words of an illegal transition', () => {
  it('reads the table: only awaiting_payment and unknown can be cancelled', () => {
    expect(statesLeadingTo('cancelled').sort()).toEqual(['awaiting_payment', 'unknown']);
    expect(statesLeadingTo('creating')).toEqual([]);
    const err = new IllegalTransitionError('T01-1', 'paid', 'cancelled');
    expect(err.message).toBe(
      'order T01-1 is paid; only an order that is unknown or awaiting_payment can become cancelled',
    );
    expect(new IllegalTransitionError('T01-1', 'paid', 'creating').message).toContain('nothing becomes creating');
  });
});

describe('gatewayStatusEffect: what a callback or inquiry status does to an order', () => {
  const statuses: GatewayStatus[] = ['PENDING', 'PAID', 'EXPIRED', 'FAILED'];
  const cases = ORDER_STATES.flatMap((state) => statuses.map((status) => [state, status] as const));

  it.each(cases)('%s + %s', (state: OrderState, status: GatewayStatus) => {
    const effect = gatewayStatusEffect(state, status);
    if (status === 'PENDING') return expect(effect).toEqual({ effect: 'none', why: 'pending' });
    const to = GATEWAY_STATUS_STATE[status];
    if (state === to) return expect(effect).toEqual({ effect: 'none', why: 'same' });
    if (status === 'PAID' && LATE_PAYMENT_STATES.includes(state))
      return expect(effect).toEqual({ effect: 'late_payment' });
    // The gateway closing an order Loket cancelled (it has no cancel call) is expected, and recorded.
    if (state === 'cancelled') return expect(effect).toEqual({ effect: 'closed_at_gateway' });
    // Forward only, and only along the one state machine.
    if (TRANSITIONS[state].includes(to)) return expect(effect).toEqual({ effect: 'change', to });
    expect(effect).toEqual({ effect: 'none', why: 'not_forward' });
  });

  it('spot checks: a payment settles a waiting or unknown order; on a given-up or refused one it is a late payment', () => {
    expect(gatewayStatusEffect('awaiting_payment', 'PAID')).toEqual({ effect: 'change', to: 'paid' });
    expect(gatewayStatusEffect('unknown', 'PAID')).toEqual({ effect: 'change', to: 'paid' });
    expect(gatewayStatusEffect('cancelled', 'PAID')).toEqual({ effect: 'late_payment' });
    expect(gatewayStatusEffect('paid', 'EXPIRED')).toEqual({ effect: 'none', why: 'not_forward' });
    // The gateway took a "refused" order after all: the money is there, so it is kept and flagged.
    expect(gatewayStatusEffect('rejected', 'PAID')).toEqual({ effect: 'late_payment' });
    expect(gatewayStatusEffect('creating', 'PAID')).toEqual({ effect: 'none', why: 'not_forward' });
  });
});

describe('retrySafety: what a failed charge allows next', () => {
  it.each([
    [{ class: 'not_sent' }, undefined, 'safe_to_resend'],
    [{ class: 'not_sent' }, 'unknown', 'safe_to_resend'],
    [{ class: 'unknown' }, 'unknown', 'may_exist'],
    [{ class: 'unknown' }, undefined, 'may_exist'],
    [{ class: 'malformed' }, 'unknown', 'may_exist'],
    [{ class: 'rejected', duplicate: true }, 'unknown', 'may_exist'],
    [{ class: 'rejected', duplicate: false }, 'rejected', 'final'],
    [{ class: 'invalid_input' }, undefined, 'final'],
    [{ class: 'invalid_input' }, 'unknown', 'may_exist'],
  ] as const)('%o on an order %s → %s', (failure, state, expected) => {
    expect(retrySafety(failure, state)).toBe(expected);
  });
});
