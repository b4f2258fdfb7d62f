import { parseArgs } from 'node:util';
import type { SecretName } from '../../common/manager';
import { SecretStoreUnavailableError } from '../../core/ports';
import { saveWithSecrets } from '../../core/settings/gateway-secrets';
import { keychainStatus, secretShown } from '../../core/settings/keychain-state';
import { cliUser, withStore, type Io, type StoreOptions } from '../cli-support';
import { EXIT, UsageError } from '../exit-codes';
import { onTerminal, readSecret } from '../secret-input';
import { keychainFailure, layersOf, openOrdersRefused, overrideNote, SECRET_WORDS, shown } from './shared';

/** config set-secret and clear-secret: one secret in the OS keychain, never from the command line. */
function secretName(positionals: string[], command: string): SecretName {
  const [name, ...extra] = positionals;
  if (extra.length > 0)
    throw new UsageError(
      `config ${command}: one secret name and nothing more (the rest is not repeated here, in case it is a ` +
        'secret: a secret is read from standard input or a hidden prompt, never from the command line)',
    );
  if (name !== 'appkey' && name !== 'signing-secret')
    throw new UsageError(`config ${command}: which secret, appkey or signing-secret`);
  return name;
}

export async function setSecret(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { stdin: { type: 'boolean' } },
  });
  const name = secretName(positionals, 'set-secret');
  return withStore(options, async (store) => {
    const current = store.settings.load();
    const refused = openOrdersRefused(store, current, 'change_credential');
    if (refused) {
      io.err(`${refused}\n`);
      return EXIT.INVALID_INPUT;
    }
    if (onTerminal()) {
      // Before anyone types a secret: can it be kept?
      const keychain = await keychainStatus(layersOf(store));
      if (!keychain.available) {
        io.err(`the OS keychain cannot be used: ${keychain.message}\nNothing was changed.\n`);
        return EXIT.KEYCHAIN;
      }
    }
    const value = await readSecret(SECRET_WORDS[name], values.stdin === true, '--stdin');
    try {
      await saveWithSecrets(store, layersOf(store).keychain, cliUser(), null, [[name, value]]);
    } catch (err) {
      if (err instanceof SecretStoreUnavailableError) return keychainFailure(io, err);
      throw err;
    }
    io.out(`${SECRET_WORDS[name]}: ${shown(secretShown(value))}, in ${layersOf(store).keychain.description}\n`);
    io.err(overrideNote(store, name));
    if (current.mode === 'live') io.out('Live mode: a running Loket app uses it at its next start.\n');
    return EXIT.OK;
  });
}

export async function clearSecret(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: {} });
  const name = secretName(positionals, 'clear-secret');
  return withStore(options, async (store) => {
    const current = store.settings.load();
    const refused = openOrdersRefused(store, current, 'remove_credential');
    if (refused) {
      io.err(`${refused}\n`);
      return EXIT.INVALID_INPUT;
    }
    // A locked keyring answers a delete with "nothing to delete": ask it first whether it can be used.
    const keychain = await keychainStatus(layersOf(store));
    if (!keychain.available) {
      io.err(`the OS keychain cannot be used: ${keychain.message}\nNothing was changed.\n`);
      return EXIT.KEYCHAIN;
    }
    try {
      await layersOf(store).keychain.delete(name);
    } catch (err) {
      if (err instanceof SecretStoreUnavailableError) return keychainFailure(io, err);
      throw err;
    }
    store.audit.record({ actor: cliUser(), action: 'secret.cleared', field: name });
    io.out(`${SECRET_WORDS[name]}: not set in ${layersOf(store).keychain.description}\n`);
    if (current.mode === 'live' && (name === 'appkey' || current.gateway?.signing.key === 'secret'))
      io.err('note: live mode is set: no order can be sent until it is stored again (config set-secret)\n');
    return EXIT.OK;
  });
}
