import type { KeychainStatus } from '../common/manager';
import type { Clock } from '../core/ports';
import { keychainStatus, type SecretLayers } from '../core/settings/keychain-state';

/** The keychain probe writes on Linux; its answer is kept this long. */
export const KEYCHAIN_STATUS_MS = 60_000;

/**
 * The keychain's state for the manager's screens (core/settings/keychain-state.ts's rule), probed at most once a
 * KEYCHAIN_STATUS_MS on the injected clock: a screen asks for it at every view.
 */
export class KeychainStatusCache {
  private checked: { at: number; status: KeychainStatus } | undefined;

  constructor(
    private readonly layers: SecretLayers,
    private readonly clock: Clock,
    private readonly probe: (layers: SecretLayers) => Promise<KeychainStatus> = keychainStatus,
  ) {}

  async status(): Promise<KeychainStatus> {
    const now = this.clock.now().getTime();
    if (this.checked && now - this.checked.at < KEYCHAIN_STATUS_MS) return this.checked.status;
    const status = await this.probe(this.layers);
    this.checked = { at: now, status };
    return status;
  }
}
