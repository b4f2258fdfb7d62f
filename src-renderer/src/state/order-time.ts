import type { Order } from '../../../src-main/common/order';

/**
 * Whether `order` is at least as recent as `known`: live events and call answers about one order can arrive
 * in any order, and a screen must never step back in time.
 */
export function isNotOlder(order: Order, known: Order | undefined): boolean {
  return !known || order.updatedAt >= known.updatedAt;
}
