import { z } from 'zod';

/**
 * Fault switches for tests and training (the sandbox's own convention). They act on the order
 * creation endpoints (V1 and V2) and the status inquiry, for the next `count` requests or until cleared.
 */
export const faultSettingsSchema = z
  .object({
    /** Added before the answer, after the order is stored. */
    latency_ms: z.number().int().min(0).max(120_000).default(0),
    /** Answer with this status and an error body, without storing the order: a 4xx is a refusal, a 5xx an outage. */
    http_status: z.number().int().min(400).max(599).nullable().default(null),
    /** Drop the connection without an answer, before the order is stored (a gateway that went away). */
    drop_before_store: z.boolean().default(false),
    /** Store the order, then drop the connection without an answer. */
    drop_after_store: z.boolean().default(false),
    /** Store the order, then answer 200 with a body that is not valid JSON. */
    malformed_json: z.boolean().default(false),
    /** How many requests the switches apply to; null means until cleared. */
    count: z.number().int().positive().nullable().default(null),
  })
  .strict();

export type FaultSettings = z.infer<typeof faultSettingsSchema>;

export const NO_FAULTS: FaultSettings = faultSettingsSchema.parse({});

export class FaultSwitches {
  private current: FaultSettings = NO_FAULTS;

  get settings(): FaultSettings {
    return this.current;
  }

  /** Fields left out take their defaults (off), so a switch added later changes no existing caller. */
  set(settings: z.input<typeof faultSettingsSchema>): void {
    this.current = faultSettingsSchema.parse(settings);
  }

  clear(): void {
    this.current = NO_FAULTS;
  }

  /** The switches for one request, counting it against `count`. */
  take(): FaultSettings {
    const active = this.current;
    if (active === NO_FAULTS) return active;
    if (active.count !== null) {
      const left = active.count - 1;
      this.current = left > 0 ? { ...active, count: left } : NO_FAULTS;
    }
    return active;
  }
}
