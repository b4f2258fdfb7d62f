import type { SecretName } from '../core/ports';
import { KeychainSecretStore } from './keychain-secret-store';

/**
 * The store book's passwords in the OS keychain (the StoreSecrets port of src-main/store-book/credentials.ts): the
 * same keychain, service and safeguards as the gateway's secrets (KeychainSecretStore: a deadline on every call,
 * no secret in any error, a probe that tells a locked keyring from an empty one), with one entry per store and
 * terminal (`store-book:<store>:<terminal>:<store id>`), so two data folders on one machine never share one.
 *
 * KeychainSecretStore names its accounts by the gateway's SecretName; the store book's accounts are other names of
 * the same kind (keytar's account string), passed through as they are.
 */
export class KeychainStoreSecrets {
  constructor(readonly keychain: KeychainSecretStore = new KeychainSecretStore()) {}

  get description(): string {
    return this.keychain.description;
  }

  probe(): ReturnType<KeychainSecretStore['probe']> {
    return this.keychain.probe();
  }

  get(account: string): Promise<string | undefined> {
    return this.keychain.get(checked(account));
  }

  set(account: string, value: string): Promise<void> {
    return this.keychain.set(checked(account), value);
  }

  delete(account: string): Promise<void> {
    return this.keychain.delete(checked(account));
  }
}

/** Only the store book's own accounts: never the gateway's appkey or signing secret through this door. */
function checked(account: string): SecretName {
  if (!account.startsWith('store-book:'))
    throw new Error(`not a store-book keychain account: ${JSON.stringify(account)}`);
  return account as SecretName;
}
