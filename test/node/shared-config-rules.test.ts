// The rules the CLI's config commands and the manager service share (core/settings/): saving the gateway with its
// secrets in one order of writes with one rollback, the open-orders refusal, the keychain's state and the
// connection test's audit record. Real parts: the store's books in a real SQLite file; the keychain is a memory
// store that fails where the test says (a keyring that goes away halfway through).
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { OverrideSecretStore } from '../../src-main/adapters/override-secret-store';
import { secretLayersOf } from '../../src-main/adapters/secret-layers';
import type { SecretName } from '../../src-main/common/manager';
import { cliActor } from '../../src-main/core/audit/audit-log';
import { SecretStoreUnavailableError } from '../../src-main/core/ports';
import { recordConnectionTest, saveWithSecrets } from '../../src-main/core/settings/gateway-secrets';
import { keychainStatus, secretReport } from '../../src-main/core/settings/keychain-state';
import { openOrdersRefusal } from '../../src-main/core/settings/open-orders';
import { changeSection } from '../../src-main/core/settings/settings-changes';
import { openStoreBooks, type StoreBooks } from '../../src-main/runtime';
import { tempDir } from './helpers/loket';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0).reverse()) c();
});

/** A keychain whose `set` fails at the given call, once, as a keyring that is locked for a moment does. */
class FailingKeychain extends MemorySecretStore {
  sets = 0;
  constructor(
    initial: Partial<Record<SecretName, string>>,
    private readonly failAtSet: number,
  ) {
    super('the test keychain', initial);
  }
  override async set(name: SecretName, value: string): Promise<void> {
    if (++this.sets === this.failAtSet) throw new SecretStoreUnavailableError('the keyring went away');
    await super.set(name, value);
  }
}

function books(secrets = new MemorySecretStore('test')): StoreBooks {
  const dir = tempDir('loket-shared-rules-');
  const store = openStoreBooks({ dataDir: dir.path, env: {}, secrets });
  cleanup.push(
    () => dir.remove(),
    () => store.close(),
  );
  return store;
}

const gatewayChange = (store: StoreBooks) => {
  const result = changeSection(store.settings.load(), 'gateway', {
    baseUrl: 'https://pay.example',
    appId: 'toko-1',
    signing: { key: 'secret', encoding: 'hex' },
  });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result;
};
const actions = (store: StoreBooks) => store.audit.list({}).map((e) => e.action);

describe('saving the gateway with its secrets', () => {
  it('writes the secrets, then the settings and their audit in one go', async () => {
    const keychain = new MemorySecretStore('test');
    const store = books(keychain);
    await saveWithSecrets(store, keychain, cliActor('sri'), gatewayChange(store), [
      ['appkey', 'appkey-new-12345678'],
      ['signing-secret', 'signing-new-12345678'],
    ]);
    expect(store.settings.load().gateway?.baseUrl).toBe('https://pay.example');
    expect(await keychain.get('signing-secret')).toBe('signing-new-12345678');
    expect(actions(store).filter((a) => a === 'secret.set')).toHaveLength(2);
  });

  it('a keychain that fails at the second secret: the first is put back, and no setting or audit is written', async () => {
    const keychain = new FailingKeychain({ appkey: 'appkey-old-12345678' }, 2);
    const store = books(keychain);
    const before = actions(store);
    await expect(
      saveWithSecrets(store, keychain, cliActor('sri'), gatewayChange(store), [
        ['appkey', 'appkey-new-12345678'],
        ['signing-secret', 'signing-new-12345678'],
      ]),
    ).rejects.toThrow(SecretStoreUnavailableError);
    expect(await keychain.get('appkey')).toBe('appkey-old-12345678');
    expect(await keychain.get('signing-secret')).toBeUndefined();
    expect(store.settings.load().gateway).toBeNull();
    expect(actions(store)).toEqual(before);
  });

  it('a database that refuses the settings: the secrets written are put back', async () => {
    const keychain = new MemorySecretStore('test', { appkey: 'appkey-old-12345678' });
    const store = books(keychain);
    store.db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON audit_events BEGIN SELECT RAISE(ABORT, 'the disk is full'); END",
    );
    await expect(
      saveWithSecrets(store, keychain, cliActor('sri'), gatewayChange(store), [['appkey', 'appkey-new-12345678']]),
    ).rejects.toThrow(/the disk is full/);
    expect(await keychain.get('appkey')).toBe('appkey-old-12345678');
    expect(store.settings.load().gateway).toBeNull();
  });
});

describe('the open-orders refusal', () => {
  it('only while live, only with open orders, naming the count and what was refused', () => {
    let counted = 0;
    const count = () => (++counted, 2);
    expect(openOrdersRefusal({ mode: 'training' }, count, 'change_gateway')).toBeUndefined();
    expect(counted).toBe(0);
    expect(openOrdersRefusal({ mode: 'live' }, () => 0, 'change_gateway')).toBeUndefined();
    expect(openOrdersRefusal({ mode: 'live' }, count, 'remove_credential')).toMatchObject({
      field: 'openOrders',
      message: expect.stringMatching(/^2 order\(s\) .* before you remove a live credential\.$/),
      reason: { key: 'settings.open_orders', params: { count: 2, what: 'remove_credential' } },
    });
  });
});

describe("the keychain's state", () => {
  it('a store that is not a keychain is available; an overridden secret comes from the environment', async () => {
    const keychain = new MemorySecretStore('the keychain', { appkey: 'appkey-kept-abcd1234' });
    const layers = secretLayersOf(new OverrideSecretStore(keychain, { LOKET_APP_KEY: 'appkey-env-zzzz9999' }));
    expect(await keychainStatus(layers)).toEqual({ available: true });
    expect(await secretReport(layers, 'appkey')).toEqual({
      set: true,
      last4: '9999',
      from: 'environment',
      keychain: { set: true, last4: '1234' },
    });
    expect(await secretReport(layers, 'signing-secret')).toEqual({
      set: false,
      from: 'none',
      keychain: { set: false },
    });
  });
});

describe("the connection test's audit record", () => {
  it('records the verdict, the method and the retcode, never a message', () => {
    const store = books();
    recordConnectionTest(store, cliActor('sri'), {
      method: 'inquiry',
      probeId: 'p',
      reachable: true,
      appIdKnown: true,
      signatureAccepted: false,
      verdict: 'bad_signature',
      retcode: '1004',
      message: 'secret words',
    } as Parameters<typeof recordConnectionTest>[2]);
    const entry = store.audit.list({}).find((e) => e.action === 'connection.tested');
    expect(entry?.detail).toEqual({ verdict: 'bad_signature', method: 'inquiry', retcode: '1004' });
  });
});
