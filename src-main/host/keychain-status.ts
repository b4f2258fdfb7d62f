import type { KeychainStatus, SecretName, SecretStatus } from '../common/manager';
import { KEYCHAIN_PROBLEMS, type KeychainProblem } from '../common/reasons';
import type { Clock } from '../core/ports';
import { KeychainSecretStore, KeychainUnavailableError, secretStatus } from '../adapters/keychain-secret-store';
import { OverrideSecretStore } from '../adapters/override-secret-store';
import type { StoreBooks } from '../runtime';

/** The keychain probe writes on Linux; its answer is kept this long. */
export const KEYCHAIN_STATUS_MS = 60_000;

/** The keychain's state for the manager's screens, probed at most once a KEYCHAIN_STATUS_MS (on the injected clock). */
export class KeychainStatusCache {
  private checked: { at: number; status: KeychainStatus } | undefined;

  constructor(
    private readonly store: StoreBooks,
    private readonly clock: Clock,
    private readonly probe: (store: StoreBooks) => Promise<KeychainStatus> = probeKeychain,
  ) {}

  async status(): Promise<KeychainStatus> {
    const now = this.clock.now().getTime();
    if (this.checked && now - this.checked.at < KEYCHAIN_STATUS_MS) return this.checked.status;
    const status = await this.probe(this.store);
    this.checked = { at: now, status };
    return status;
  }
}

export async function probeKeychain(store: StoreBooks): Promise<KeychainStatus> {
  const secrets = store.secrets;
  const keychain = secrets instanceof OverrideSecretStore ? secrets.keychainStore : secrets;
  if (!(keychain instanceof KeychainSecretStore)) return { available: true };
  const probe = await keychain.probe();
  return probe.available
    ? { available: true }
    : { available: false, message: probe.message, problem: keychainProblem(probe.reason) };
}

export async function readSecretStatus(store: StoreBooks, name: SecretName): Promise<SecretStatus> {
  const secrets = store.secrets;
  const fromEnv = secrets instanceof OverrideSecretStore && secrets.overridden(name);
  try {
    const status = secretStatus(await secrets.get(name));
    return { ...status, from: status.set ? (fromEnv ? 'environment' : 'keychain') : 'none' };
  } catch (err) {
    if (err instanceof KeychainUnavailableError) return { set: false, from: 'none' };
    throw err;
  }
}

/** The keychain adapter's classification, as screens know it ('other' for one they do not). */
function keychainProblem(problem: string): KeychainProblem {
  return (KEYCHAIN_PROBLEMS as readonly string[]).includes(problem) ? (problem as KeychainProblem) : 'other';
}
