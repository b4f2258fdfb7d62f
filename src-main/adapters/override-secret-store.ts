import type { SecretName, SecretStore } from '../core/ports';
import { rememberSecret } from './log-redaction';

/** The environment variable that overrides each secret. */
export const SECRET_OVERRIDES: Readonly<Record<SecretName, string>> = {
  appkey: 'LOKET_APP_KEY',
  'signing-secret': 'LOKET_SIGNING_SECRET',
};

/**
 * The documented precedence: a secret set in the environment (LOKET_APP_KEY, LOKET_SIGNING_SECRET) wins over the
 * one in the keychain, for CI and scripts; otherwise the keychain answers. An empty variable counts as unset, as
 * in EnvSecretStore. Writes and deletes go to the keychain only, and only with the value given: a value from the
 * environment is never copied into the keychain. The environment is read at each call.
 */
export class OverrideSecretStore implements SecretStore {
  constructor(
    private readonly keychain: SecretStore,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /**
   * Who answers: "the OS keychain (Loket)" when no variable is set, "the environment (LOKET_APP_KEY,
   * LOKET_SIGNING_SECRET)" when both are, and "the environment (LOKET_APP_KEY), else the OS keychain (Loket)"
   * when only some are. `describe(name)` says it for one secret.
   */
  get description(): string {
    const fromEnv = (Object.keys(SECRET_OVERRIDES) as SecretName[]).filter((name) => this.overridden(name));
    if (fromEnv.length === 0) return this.keychain.description;
    const variables = `the environment (${fromEnv.map((name) => SECRET_OVERRIDES[name]).join(', ')})`;
    return fromEnv.length === Object.keys(SECRET_OVERRIDES).length
      ? variables
      : `${variables}, else ${this.keychain.description}`;
  }

  /** The keychain behind the override, for a probe that tells "locked" from "not set". */
  get keychainStore(): SecretStore {
    return this.keychain;
  }

  /** Where `name` is read from: "the environment (LOKET_APP_KEY)" or the keychain's description. */
  describe(name: SecretName): string {
    return this.overridden(name) ? `the environment (${SECRET_OVERRIDES[name]})` : this.keychain.description;
  }

  /** Whether the environment sets `name`, so that the keychain's value (if any) is not used. */
  overridden(name: SecretName): boolean {
    return Boolean(this.env[SECRET_OVERRIDES[name]]);
  }

  async get(name: SecretName): Promise<string | undefined> {
    const fromEnv = this.env[SECRET_OVERRIDES[name]];
    rememberSecret(fromEnv); // never to be written to the log file
    return fromEnv ? fromEnv : this.keychain.get(name);
  }

  /** Stores `value` in the keychain. While the environment sets `name`, the environment's value still wins. */
  async set(name: SecretName, value: string): Promise<void> {
    await this.keychain.set(name, value);
  }

  /** Deletes `name` from the keychain; the environment is the shell's to change. */
  async delete(name: SecretName): Promise<void> {
    await this.keychain.delete(name);
  }
}
