/**
 * Real rows to copy for the order-log benchmark: one order per enabled payment method created through
 * Loket's core against the sandbox, plus one the gateway rejects (HTTP 503) and one whose answer never
 * comes (connection dropped), read back from Loket's own database. The bulk rows of benchmark (b) reuse
 * their instruction and response bodies, so row sizes are those of real orders.
 */
import type { SandboxHandle } from '../../src-main/sandbox/server';
import type { Loket } from '../../src-main/runtime';
import type { PaymentKind } from '../../src-main/common/payment-methods';

export interface SampleOrder {
  methodId: string;
  kind: PaymentKind;
  minAmount: number;
  maxAmount: number;
  requiresCustomerName: boolean;
  requiresPhone: boolean;
  instruction: string;
  responseBody: string;
  gatewayTransactionId: string | null;
  /** expires_at − created_at, in ms. */
  ttlMs: number;
  /** The reason the core wrote on its `creating → awaiting_payment` event. */
  acceptedReason: string;
}

export interface SampleFailure {
  responseBody: string | null;
  retcode: string | null;
  message: string;
  httpStatus: number | null;
  reason: string;
}

export interface Samples {
  methods: SampleOrder[];
  rejected: SampleFailure;
  unknown: SampleFailure;
}

interface Row {
  id: string;
  instruction: string | null;
  response_body: string | null;
  gateway_transaction_id: string | null;
  expires_at: string | null;
  created_at: string;
  rejection_retcode: string | null;
  rejection_message: string | null;
  rejection_http_status: number | null;
}

const actor = { source: 'cashier' as const, actor: 'bench' };

export async function captureSamples(loket: Loket, sandbox: SandboxHandle): Promise<Samples> {
  const row = (id: string) =>
    loket.db
      .prepare(
        `SELECT id, instruction, response_body, gateway_transaction_id, expires_at, created_at,
                rejection_retcode, rejection_message, rejection_http_status FROM orders WHERE id = ?`,
      )
      .get(id) as Row;
  const lastReason = (id: string) => loket.log.events(id).at(-1)?.reason ?? '';

  const methods: SampleOrder[] = [];
  for (const m of loket.methods.filter((x) => x.enabled)) {
    const amount = Math.min(m.maxAmount, Math.max(m.minAmount, 25_000));
    const outcome = await loket.orders.create(
      {
        methodId: m.id,
        amount,
        itemName: 'Sampel',
        ...(m.requiresCustomerName ? { customerName: 'Budi Santoso' } : {}),
        ...(m.requiresPhone ? { phone: '081234567890' } : {}),
      },
      actor,
    );
    if (!outcome.ok) throw new Error(`sample order for ${m.id} failed: ${outcome.failure.message}`);
    const r = row(outcome.order.id);
    methods.push({
      methodId: m.id,
      kind: m.kind,
      minAmount: m.minAmount,
      maxAmount: m.maxAmount,
      requiresCustomerName: m.requiresCustomerName,
      requiresPhone: m.requiresPhone,
      instruction: r.instruction ?? '{}',
      responseBody: r.response_body ?? '',
      gatewayTransactionId: r.gateway_transaction_id,
      ttlMs: r.expires_at ? Date.parse(r.expires_at) - Date.parse(r.created_at) : 15 * 60_000,
      acceptedReason: lastReason(outcome.order.id),
    });
  }

  const failure = async (faults: {
    http_status: number | null;
    drop_after_store: boolean;
    count: number;
  }): Promise<SampleFailure> => {
    sandbox.faults.set({ latency_ms: 0, malformed_json: false, ...faults });
    const outcome = await loket.orders.create({ methodId: 'qris_dynamic', amount: 25_000, itemName: 'Sampel' }, actor);
    sandbox.faults.clear();
    if (outcome.ok || !outcome.order) throw new Error('a sample failure did not fail as expected');
    const r = row(outcome.order.id);
    return {
      responseBody: r.response_body,
      retcode: r.rejection_retcode,
      message: r.rejection_message ?? outcome.failure.message,
      httpStatus: r.rejection_http_status,
      reason: lastReason(outcome.order.id),
    };
  };
  // A refusal is a 4xx with a retcode (a 5xx is an outage); an unknown outcome needs the quick inquiry after the
  // lost answer to be lost too (two requests).
  const rejected = await failure({ http_status: 422, drop_after_store: false, count: 1 });
  const unknown = await failure({ http_status: null, drop_after_store: true, count: 2 });
  return { methods, rejected, unknown };
}
