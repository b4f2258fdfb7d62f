import { randomBytes } from 'node:crypto';

/**
 * UUID version 7 (RFC 9562, section 5.7): 48 bits of Unix time in milliseconds, the version (7), 12 bits `rand_a`,
 * the variant (binary 10), 62 bits `rand_b`. Sorted as text, UUIDv7s sort by time.
 *
 * `rand_a` is used as a counter within one millisecond (RFC 9562, section 6.2, method 1), so that the ids one
 * generator hands out are strictly increasing even when many fall in the same millisecond or the clock steps back:
 * a time at or before the last one continues from the last one (its millisecond, the counter plus one), and a
 * counter that runs out (4,096 in one millisecond) moves on to the next millisecond. `rand_b` stays random, so two
 * generators (two processes, two tills) never hand out the same id.
 */

export const UUID_V7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const COUNTER_SPACE = 0x1000; // 12 bits
/** A new millisecond starts its counter below this, leaving room for at least 3,072 more ids in it. */
const COUNTER_START_SPACE = 0x400;
const MAX_MS = 2 ** 48 - 1;

/**
 * The UUIDv7 of millisecond `ms` with counter `counter` (0..4095) in `rand_a`, and `rand_b` from the 8 bytes
 * `random` (its top two bits are replaced by the variant).
 */
export function uuidv7Of(ms: number, counter: number, random: Uint8Array): string {
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > MAX_MS) throw new RangeError(`UUIDv7: no millisecond ${ms}`);
  if (!Number.isInteger(counter) || counter < 0 || counter >= COUNTER_SPACE)
    throw new RangeError(`UUIDv7: counter ${counter} is not 0..4095`);
  if (random.length < 8) throw new RangeError('UUIDv7: 8 random bytes are needed');
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  for (let i = 0; i < 8; i++) bytes[8 + i] = random[i]!;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The millisecond a UUIDv7 was made in. */
export function uuidv7Time(uuid: string): number {
  if (!UUID_V7_PATTERN.test(uuid)) throw new RangeError(`not a UUIDv7: ${JSON.stringify(uuid)}`);
  return parseInt(uuid.slice(0, 8) + uuid.slice(9, 13), 16);
}

/**
 * Random bytes from a pool refilled 4 KiB at a time: one call into the OS's generator per ~400 ids instead of two per
 * id (the order log makes one id per event, inside its write transaction).
 */
function pooledRandom(): (size: number) => Uint8Array {
  let pool = Buffer.alloc(0);
  let at = 0;
  return (size) => {
    if (at + size > pool.length) {
      pool = randomBytes(4096);
      at = 0;
    }
    const bytes = pool.subarray(at, at + size);
    at += size;
    return bytes;
  };
}

/** Hands out strictly increasing UUIDv7s (see the top of this file). One per process is enough. */
export class Uuidv7Generator {
  private lastMs = -1;
  private counter = 0;

  constructor(private readonly random: (size: number) => Uint8Array = pooledRandom()) {}

  /** The next id, for an event at `ms` (the event's own time, from the injected clock). */
  next(ms: number): string {
    if (ms > this.lastMs) {
      this.lastMs = ms;
      this.counter = randomCounterStart(this.random(2));
    } else if (this.counter < COUNTER_SPACE - 1) {
      this.counter++;
    } else {
      this.lastMs++;
      this.counter = randomCounterStart(this.random(2));
    }
    return uuidv7Of(this.lastMs, this.counter, this.random(8));
  }
}

function randomCounterStart(bytes: Uint8Array): number {
  return ((bytes[0]! << 8) | bytes[1]!) % COUNTER_START_SPACE;
}
