import { reason, type KeychainProblem, type Reason } from '../../common/reasons';
import { keychainProblemOf, SecretStoreUnavailableError, type SecretName, type SecretStore } from '../ports';

/** What the keychain behind a store says of itself (KeychainSecretStore.probe), when it can say. */
export type KeychainProbeResult = { available: true } | { available: false; reason: KeychainProblem; message: string };

/** Why live mode cannot use the credentials: English words ending with what to do, and the reason for screens. */
export interface CredentialsProblem {
  message: string;
  reason: Reason;
}

/**
 * The one rule of going live, for the app and the CLI alike: live mode signs with credentials it can read — the
 * appkey, and the signing secret when the profile signs with one. Why not, in words that end with what to do;
 * undefined when it can. A locked keyring answers reads with "nothing stored", so an empty answer is checked
 * with the keychain's own probe (`probe`, when the store has a keychain behind it) before it is called "not set".
 * Switching to live is refused while this says anything, and a Loket set to live runs in training mode (the app)
 * or refuses to send (the CLI) until it says nothing.
 */
export async function liveCredentialsProblem(
  secrets: SecretStore,
  signWith: 'appkey' | 'secret',
  probe?: () => Promise<KeychainProbeResult>,
): Promise<CredentialsProblem | undefined> {
  const needed: readonly SecretName[] = signWith === 'secret' ? ['appkey', 'signing-secret'] : ['appkey'];
  try {
    for (const name of needed) {
      if (await secrets.get(name)) continue;
      const probed = probe ? await probe() : undefined;
      if (probed && !probed.available) return keychainProblem(probed.reason, probed.message);
      return {
        message:
          `no ${name} is stored in ${secrets.description}: enter it in the manager's settings (Gateway) or with ` +
          `npm run cli -- config set-secret ${name}.`,
        reason: reason('live.secret_missing', { secret: name }),
      };
    }
    return undefined;
  } catch (err) {
    if (err instanceof SecretStoreUnavailableError) return keychainProblem(keychainProblemOf(err), err.message);
    throw err;
  }
}

function keychainProblem(problem: KeychainProblem, advice: string): CredentialsProblem {
  return { message: `the OS keychain cannot be used: ${advice}`, reason: reason('live.keychain', { problem }) };
}
