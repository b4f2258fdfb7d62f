import type { KeychainStatus, SecretName, SecretStatus } from '../../common/manager';
import { KEYCHAIN_PROBLEMS, type KeychainProblem } from '../../common/reasons';
import { SecretStoreUnavailableError, type SecretStore } from '../ports';

/**
 * How a host's secrets are layered (runtime.ts's StoreBooks.secrets, seen through adapters/secret-layers.ts): the
 * environment's values (LOKET_APP_KEY, LOKET_SIGNING_SECRET) over the OS keychain. The CLI's `config show` and the
 * manager's screens read the keychain's state and each secret's through it, by the rules below.
 */
export interface SecretLayers {
  /** The store in effect: the environment's value where it sets one, else the keychain's. */
  readonly effective: SecretStore;
  /** The OS keychain behind any override (the one store where there is none): where secrets are written. */
  readonly keychain: SecretStore;
  /** Whether the environment sets `name`, so that the keychain's value (if any) is not used. */
  overridden(name: SecretName): boolean;
  /** The keychain's own check that it can be used (a locked keyring looks empty); absent where it is not a keychain. */
  probe?(): Promise<{ available: true } | { available: false; reason: string; message: string }>;
}

/** The keychain's state: usable, or why not (its adapter's classification, as screens know it). */
export async function keychainStatus(layers: SecretLayers): Promise<KeychainStatus> {
  if (!layers.probe) return { available: true };
  const probe = await layers.probe();
  return probe.available
    ? { available: true }
    : { available: false, message: probe.message, problem: keychainProblem(probe.reason) };
}

/**
 * What may be shown of a secret after entry: whether it is set and, for a secret of at least 8 characters, its
 * last 4. Below 8, four characters would be half of the secret or more (all of a 4-character one), which is a
 * real head start for a guesser; real appkeys are far longer, so the threshold costs nothing in practice.
 * Characters are counted as code points, so a last4 never splits a character. An empty string is not set, as an
 * empty LOKET_APP_KEY is not.
 */
export function secretShown(value: string | undefined): { set: boolean; last4?: string } {
  if (!value) return { set: false };
  const chars = Array.from(value);
  return chars.length >= 8 ? { set: true, last4: chars.slice(-4).join('') } : { set: true };
}

/** A secret's state: the one in effect (the environment's, else the keychain's) and the keychain's own. */
export interface SecretReport extends SecretStatus {
  /** What the keychain holds; null when it cannot be read (or was not asked: `keychainUsable` false). */
  keychain: { set: boolean; last4?: string } | null;
}

/** A secret's state as the manager's screens show it (SecretStatus) and `config show` (with the keychain's own). */
export async function secretReport(
  layers: SecretLayers,
  name: SecretName,
  keychainUsable = true,
): Promise<SecretReport> {
  // Overridden: the environment answers, without asking the keychain.
  const envStatus = layers.overridden(name) ? secretShown(await layers.effective.get(name)) : undefined;
  let inKeychain: { set: boolean; last4?: string } | null = null;
  if (keychainUsable) {
    try {
      inKeychain = secretShown(await layers.keychain.get(name));
    } catch (err) {
      if (!(err instanceof SecretStoreUnavailableError)) throw err;
    }
  }
  const effective = envStatus ?? inKeychain ?? { set: false };
  const from: SecretStatus['from'] = envStatus ? 'environment' : inKeychain?.set ? 'keychain' : 'none';
  return { ...effective, from, keychain: inKeychain };
}

/** The SecretStatus part of a report (what a screen shows). */
export async function secretStatusOf(layers: SecretLayers, name: SecretName): Promise<SecretStatus> {
  const { keychain: _keychain, ...status } = await secretReport(layers, name);
  return status;
}

function keychainProblem(problem: string): KeychainProblem {
  return (KEYCHAIN_PROBLEMS as readonly string[]).includes(problem) ? (problem as KeychainProblem) : 'other';
}
