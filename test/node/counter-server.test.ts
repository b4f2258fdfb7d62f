// The counter's server side (docs/browser-mode.md): one current sale, kept across a restart; a second charge
// refused while it waits unless parked; an outage that is not a refusal; the gateway's transaction id on every
// paid order; the training gateway's URLs on the LAN.
import { afterEach, describe, expect, it } from 'vitest';
import { startAppHost, type AppHost } from '../../src-main/app-host';
import { openLoket } from '../../src-main/runtime';
import { tempDir } from './helpers/loket';

const qris = { methodId: 'qris_dynamic', amount: 15000, itemName: 'Kopi' };
let hosts: AppHost[] = [];
const dirs: { remove(): void }[] = [];
afterEach(async () => {
  for (const h of hosts) await h.close();
  hosts = [];
  for (const d of dirs.splice(0)) d.remove();
});

async function host(dataDir: string): Promise<AppHost> {
  const h = await startAppHost({ version: 't', dataDir, env: {} });
  hosts.push(h);
  return h;
}

async function charge(h: AppHost) {
  const result = await h.app.createOrder(qris);
  if (!result.ok) throw new Error(result.failure.message);
  return result.order;
}

describe('one current sale, kept across a reload and a restart', () => {
  it('the sale on the display is the current sale; a restart brings it back; a second charge waits for it or a park', async () => {
    const dir = tempDir('loket-counter-');
    dirs.push(dir);
    let h = await host(dir.path);
    expect(await h.app.currentSale()).toBeNull();
    const first = await charge(h);
    expect(await h.app.currentSale()).toMatchObject({
      order: { id: first.id, state: 'awaiting_payment' },
      receiptPrinted: false,
    });
    await expect(h.app.createOrder(qris)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining(`order ${first.id}`),
    });

    // Restart: the customer still sees it, and the cashier comes back to it.
    await h.close();
    hosts = [];
    h = await host(dir.path);
    expect((await h.app.currentSale())?.order.id).toBe(first.id);
    expect((await h.app.displayState()).order).toMatchObject({ amount: 15000 });

    // Parked: off the display, still waiting, in today's list; the next sale may start.
    expect(await h.app.parkSale(first.id)).toBeNull();
    expect(await h.app.currentSale()).toBeNull();
    expect((await h.app.displayState()).order).toBeNull();
    expect((await h.app.getOrder(first.id))?.state).toBe('awaiting_payment');
    expect(h.loket.log.events(first.id).at(-1)).toMatchObject({ type: 'note', payload: { parked: true } });
    const second = await charge(h);
    expect((await h.app.currentSale())?.order.id).toBe(second.id);
  });

  it('a paid sale whose receipt was not printed comes back after a restart; once printed it does not', async () => {
    const dir = tempDir('loket-counter-paid-');
    dirs.push(dir);
    let h = await host(dir.path);
    const sale = await charge(h);
    await h.app.simulatePayment(sale.id);
    expect(await h.app.currentSale()).toMatchObject({ order: { state: 'paid' }, receiptPrinted: false });
    // A paid sale does not block the next one.
    await h.close();
    hosts = [];
    h = await host(dir.path);
    expect(await h.app.currentSale()).toMatchObject({ order: { id: sale.id, state: 'paid' }, receiptPrinted: false });
    await h.app.receipt(sale.id, { paper: 58, copy: false });
    expect(await h.app.currentSale()).toMatchObject({ receiptPrinted: true });
    await h.close();
    hosts = [];
    h = await host(dir.path);
    expect(await h.app.currentSale()).toBeNull();
  });
});

describe('outage is not refusal', () => {
  it('an HTTP 503 is an outage: safe to send again, and Retry charges the same order', async () => {
    const dir = tempDir('loket-outage-');
    dirs.push(dir);
    const h = await host(dir.path);
    h.loket.sandbox!.faults.set({ http_status: 503, count: 1 });
    const failed = await h.app.createOrder(qris);
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.failure).toMatchObject({ class: 'outage', retry: 'safe_to_resend' });
    const retried = await h.app.retryOrder(failed.order!.id);
    expect(retried).toMatchObject({ ok: true, order: { id: failed.order!.id, state: 'awaiting_payment' } });
  });

  it('the display says nothing was charged after an outage, and "being checked" only for a truly unknown outcome', async () => {
    const dir = tempDir('loket-outage-display-');
    dirs.push(dir);
    const h = await host(dir.path);
    const shown: unknown[] = [];
    h.app.subscribe((event) => {
      if (event.type === 'display') shown.push(event.state.order?.notCharged);
    });
    h.loket.sandbox!.faults.set({ http_status: 503, count: 1 });
    const failed = await h.app.createOrder(qris);
    const id = failed.order!.id;
    expect((await h.app.displayState()).order).toMatchObject({ state: 'unknown', notCharged: true });

    // Sent again and lost (the gateway stored it, then the connection dropped): it may exist now.
    h.loket.sandbox!.faults.set({ drop_after_store: true, count: 3 });
    const lost = await h.app.retryOrder(id);
    expect(lost).toMatchObject({ ok: false, failure: { retry: 'may_exist' } });
    const display = (await h.app.displayState()).order!;
    expect(display.state).toBe('unknown');
    expect(display.notCharged).toBeUndefined();
    // While it was being sent again, the display said "being checked" too, never "nothing was charged".
    expect(shown[0]).toBe(true);
    expect(shown.length).toBeGreaterThan(1);
    expect(shown.slice(1)).not.toContain(true);
  });

  it('a 4xx refusal stays a refusal: final, with the retcode', async () => {
    const dir = tempDir('loket-refusal-');
    dirs.push(dir);
    const h = await host(dir.path);
    h.loket.sandbox!.faults.set({ http_status: 422, count: 1 });
    const refused = await h.app.createOrder(qris);
    expect(refused).toMatchObject({ ok: false, failure: { class: 'rejected', retry: 'final', retcode: '5003' } });
  });
});

describe('the gateway transaction id on a paid order', () => {
  it('a QRIS order (whose create answer carries none) gets it from the inquiry that confirms the payment', async () => {
    const dir = tempDir('loket-txid-');
    dirs.push(dir);
    const h = await host(dir.path);
    const sale = await charge(h);
    expect(sale.gatewayTransactionId).toBeUndefined();
    const paid = await h.app.simulatePayment(sale.id);
    expect(paid.gatewayTransactionId).toBe(h.loket.sandbox!.orders.get(sale.id)!.transactionId);
    const { html } = await h.app.receipt(sale.id, { paper: 58, copy: true });
    expect(html).toContain(paid.gatewayTransactionId!);
  });
});

describe('training on the LAN', () => {
  it("the training gateway's URLs name the LAN address, so a phone on the network opens them", async () => {
    const dir = tempDir('loket-lan-');
    dirs.push(dir);
    const loket = await openLoket({ dataDir: dir.path, env: {}, sandboxLan: { publicHost: '192.0.2.10' } });
    try {
      const outcome = await loket.orders.create(
        { methodId: 'ewallet_ovo', amount: 5000, itemName: 'Teh' },
        { source: 'cli' },
      );
      expect(outcome).toMatchObject({ ok: true, order: { instruction: { type: 'ewallet' } } });
      const redirect = (outcome.order!.instruction as { redirect: string }).redirect;
      expect(new URL(redirect).hostname).toBe('192.0.2.10');
      // Loket itself still reaches it on loopback.
      expect(new URL(loket.client.config.baseUrl).hostname).toBe('127.0.0.1');
    } finally {
      await loket.close();
    }
  });
});
