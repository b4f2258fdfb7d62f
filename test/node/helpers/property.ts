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
