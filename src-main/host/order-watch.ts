import type { Order } from '../common/order';
import { pollUntilSettled } from '../core/confirmation/status-poller';
import type { Clock } from '../core/ports';
import type { Loket } from '../runtime';

/** How long the poller keeps asking after an order's own expiry, for a late answer. */
export const POLL_GRACE_MS = 60_000;

/**
 * Polls orders until the gateway settles them, as a fallback to the gateway's callback (and the only way where there
 * is no listener): an order waiting for payment, and one cancelled in Loket, which the gateway keeps payable until
 * its own deadline (a payment then is a late payment). Each order is watched once, whichever path brought it here;
 * the poll ends at the order's deadline at the gateway and a grace.
 */
export class OrderWatch {
  private readonly watched = new Set<string>();
  private readonly polls = new Set<AbortController>();
  private readonly unwatchLog: () => void;

  constructor(
    private readonly loket: Loket,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
  ) {
    // An answer written late (the disk refused it at first) or a check that found the order waiting brings an order
    // to awaiting_payment outside a charge: it is watched too.
    this.unwatchLog = loket.log.onChange((order) => {
      if (order.state === 'awaiting_payment' || order.state === 'cancelled') this.watch(order);
    });
  }

  /** Orders still waiting from before a restart, and those cancelled before it the gateway may still take a payment for. */
  watchLeftOver(): void {
    for (const order of this.loket.log.list({ state: 'awaiting_payment' })) this.watch(order);
    for (const order of this.loket.orders.awaitingGatewayWord()) this.watch(order);
  }

  readonly watch = (order: Order): void => {
    const loket = this.loket;
    if (!loket.client.config.inquiryPath || this.watched.has(order.id)) return;
    if (order.state === 'cancelled' && loket.log.hasGatewayWord(order.id)) return;
    const deadline = new Date(loket.orders.gatewayDeadline(order).getTime() + POLL_GRACE_MS);
    if (deadline.getTime() <= this.clock.now().getTime()) return;
    this.watched.add(order.id);
    const controller = new AbortController();
    this.polls.add(controller);
    void pollUntilSettled(order.id, {
      orders: loket.orders,
      log: loket.log,
      client: loket.client,
      initialDelayMs: 2000,
      maxDelayMs: 30_000,
      deadline,
      clock: this.clock,
      signal: controller.signal,
    })
      .catch((err: unknown) => this.log(`poll ${order.id}: ${(err as Error).message}`))
      .finally(() => {
        this.polls.delete(controller);
        this.watched.delete(order.id);
      });
  };

  stop(): void {
    this.unwatchLog();
    for (const c of this.polls) c.abort();
  }
}
