import type { Parameters } from 'fast-check';

/**
 * fast-check's parameters for Loket's property tests. Each run draws a fresh seed, and a failure prints it with the
 * shrunk case's path; to run that case again:
 *   LOKET_PROPERTY_SEED=<seed> [LOKET_PROPERTY_PATH=<path>] npx vitest run --config test/vitest.config.ts FILE
 * LOKET_PROPERTY_RUNS sets how many cases each property tries (default: each test's own number).
 */
export function propertyParams<T>(numRuns: number): Parameters<T> {
  const params: Parameters<T> = { numRuns: envInteger('LOKET_PROPERTY_RUNS') ?? numRuns };
  const seed = envInteger('LOKET_PROPERTY_SEED');
  if (seed !== undefined) params.seed = seed;
  const path = process.env.LOKET_PROPERTY_PATH;
  if (path) params.path = path;
  return params;
}

function envInteger(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be a whole number (got ${JSON.stringify(raw)})`);
  return value;
}

/**
 * Random numbers from a seed, for a test that draws its own (the crash test's kill times): the seed is `envName`'s
 * value when set, else a fresh one; a failing test prints it (`describeSeed`), so that the same draws can be made
 * again: `LOKET_CRASH_SEED=<seed> npx vitest run --config test/vitest.config.ts FILE`.
 */
export function seededRandom(envName: string): { seed: number; next(): number; describeSeed(): string } {
  const seed = envInteger(envName) ?? Math.floor(Math.random() * 2 ** 31);
  // mulberry32: small, fast and plenty for spreading kill times.
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { seed, next, describeSeed: () => `${envName}=${seed} repeats these random draws` };
}
