/**
 * The attention queue and its actions (docs/end-of-day.md, "Attention"), in parts by job: the queue
 * (attention-queue.ts), its words (attention-words.ts), acting on an item (attention-actions.ts) and asking the
 * gateway about an order (attention-check.ts). Here, what the books' callers use.
 */
export {
  ACTIONS_BY_KIND,
  ATTENTION_ACTIONS,
  attention,
  LATE_PAYMENT_ACKNOWLEDGED,
  MISMATCH_ACKNOWLEDGED,
  TILL_RELEASED,
  type AttentionOptions,
} from './attention-queue';
export { resolveAttention, type AttentionOutcome, type AttentionRequest } from './attention-actions';
export type { AttentionDeps } from './attention-check';
