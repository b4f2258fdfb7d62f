import type { SecretStore } from '../core/ports';
import type { SecretLayers } from '../core/settings/keychain-state';
import { KeychainSecretStore } from './keychain-secret-store';
import { OverrideSecretStore } from './override-secret-store';

/** A host's SecretStore seen as its layers (core/settings/keychain-state.ts): the environment over the OS keychain. */
export function secretLayersOf(secrets: SecretStore): SecretLayers {
  const keychain = secrets instanceof OverrideSecretStore ? secrets.keychainStore : secrets;
  return {
    effective: secrets,
    keychain,
    overridden: (name) => secrets instanceof OverrideSecretStore && secrets.overridden(name),
    ...(keychain instanceof KeychainSecretStore ? { probe: () => keychain.probe() } : {}),
  };
}
