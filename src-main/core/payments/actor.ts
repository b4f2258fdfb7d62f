import type { EventSource } from '../../common/order';

/** Who or what changes an order: its event's source, a name, and the staff member (docs/roles.md). */
export interface Actor {
  source: EventSource;
  actor?: string;
  /** The staff member: an order records who sold it, in training as live (docs/roles.md). */
  staffId?: number;
}
