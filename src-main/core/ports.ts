import { OrderRuleError } from '../common/order-policy';
import { KEYCHAIN_PROBLEMS, reason, type KeychainProblem, type Reason } from '../common/reasons';

/** Ports: what core needs from the outside world, implemented in src-main/adapters (docs/architecture.md). */

/** Named secrets (the appkey, a signing secret). Values never reach logs, SQLite, the renderer or exports. */
export interface SecretStore {
  readonly description: string;
  get(name: SecretName): Promise<string | undefined>;
  set(name: SecretName, value: string): Promise<void>;
  delete(name: SecretName): Promise<void>;
}

export type SecretName = 'appkey' | 'signing-secret';

/**
 * A secret store that cannot be reached (no keychain, a locked one): the message says what to install or
 * unlock, and the API reports it as `unavailable`, never as an internal error.
 */
export class SecretStoreUnavailableError extends OrderRuleError {
  readonly code = 'unavailable';

  /** The keychain's own classification where the error carries one (KeychainUnavailableError's `reason`). */
  override get why(): Reason {
    return reason('keychain.unavailable', { problem: keychainProblemOf(this) });
  }
}

/** Why a keychain error says it cannot be used, as its adapter classified it; 'other' when it did not. */
export function keychainProblemOf(err: SecretStoreUnavailableError): KeychainProblem {
  const problem = (err as { reason?: unknown }).reason;
  return (KEYCHAIN_PROBLEMS as readonly unknown[]).includes(problem) ? (problem as KeychainProblem) : 'other';
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
