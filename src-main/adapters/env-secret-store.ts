import type { SecretName, SecretStore } from '../core/ports';
import { rememberSecret } from './log-redaction';

const VARIABLES: Record<SecretName, string> = { appkey: 'LOKET_APP_KEY', 'signing-secret': 'LOKET_SIGNING_SECRET' };

/** Secrets from environment variables, for the CLI and CI. Read-only: the shell owns them. */
export class EnvSecretStore implements SecretStore {
  readonly description = 'the environment (LOKET_APP_KEY, LOKET_SIGNING_SECRET)';

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  async get(name: SecretName): Promise<string | undefined> {
    const value = this.env[VARIABLES[name]];
    rememberSecret(value); // never to be written to the log file
    return value ? value : undefined;
  }

  async set(name: SecretName): Promise<void> {
    throw new Error(`secrets from the environment are read-only: set ${VARIABLES[name]} in the shell instead`);
  }

  async delete(name: SecretName): Promise<void> {
    throw new Error(`secrets from the environment are read-only: unset ${VARIABLES[name]} in the shell instead`);
  }
}

/** Holds secrets in memory only: the embedded sandbox's key, which is not a secret at all. */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<SecretName, string>();

  constructor(
    readonly description: string,
    initial: Partial<Record<SecretName, string>> = {},
  ) {
    for (const [k, v] of Object.entries(initial)) if (v) this.values.set(k as SecretName, v);
  }

  async get(name: SecretName): Promise<string | undefined> {
    return this.values.get(name);
  }

  async set(name: SecretName, value: string): Promise<void> {
    this.values.set(name, value);
  }

  async delete(name: SecretName): Promise<void> {
    this.values.delete(name);
  }
}
