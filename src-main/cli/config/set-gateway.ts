import { parseArgs } from 'node:util';
import type { SecretName } from '../../common/manager';
import { SecretStoreUnavailableError } from '../../core/ports';
import { saveWithSecrets } from '../../core/settings/gateway-secrets';
import { keychainStatus, secretReport, secretShown } from '../../core/settings/keychain-state';
import { changeSection } from '../../core/settings/settings-changes';
import type { StoreBooks } from '../../runtime';
import { cliUser, printIssues, withStore, type Io, type StoreOptions } from '../cli-support';
import { EXIT, UsageError } from '../exit-codes';
import { ask, onTerminal, secretsFromStdin } from '../secret-input';
import {
  FLAGS,
  keychainFailure,
  layersOf,
  numberOrText,
  onOff,
  openOrdersRefused,
  overrideNote,
  printChanges,
  SECRET_NAMES,
  SECRET_WORDS,
  shown,
} from './shared';

/** config set-gateway: the gateway's settings and, from standard input or a hidden prompt, its secrets. */
export async function setGateway(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      'app-id': { type: 'string' },
      signing: { type: 'string' },
      encoding: { type: 'string' },
      'inquiry-path': { type: 'string' },
      'timeout-ms': { type: 'string' },
      'time-zone': { type: 'string' },
      'allow-http': { type: 'string' },
      'app-key-stdin': { type: 'boolean' },
      'signing-secret-stdin': { type: 'boolean' },
    },
  });
  const patch: Record<string, unknown> = {};
  if (values.url !== undefined) patch.baseUrl = values.url;
  if (values['app-id'] !== undefined) patch.appId = values['app-id'];
  if (values.signing !== undefined || values.encoding !== undefined)
    patch.signing = {
      ...(values.signing !== undefined ? { key: values.signing } : {}),
      ...(values.encoding !== undefined ? { encoding: values.encoding } : {}),
    };
  if (values['inquiry-path'] !== undefined)
    patch.inquiryPath = values['inquiry-path'] === 'none' ? null : values['inquiry-path'];
  if (values['timeout-ms'] !== undefined) patch.timeoutMs = numberOrText(values['timeout-ms']);
  if (values['time-zone'] !== undefined) patch.timeZone = values['time-zone'];
  if (values['allow-http'] !== undefined) patch.allowHttp = onOff('--allow-http', values['allow-http']);
  const stdinNames: SecretName[] = [
    ...(values['app-key-stdin'] ? (['appkey'] as const) : []),
    ...(values['signing-secret-stdin'] ? (['signing-secret'] as const) : []),
  ];
  if (Object.keys(patch).length === 0 && stdinNames.length === 0 && !onTerminal())
    throw new UsageError(
      'config set-gateway: nothing to change; give --url and --app-id (the first time), or the fields to change ' +
        '(a secret alone: config set-secret)',
    );

  return withStore(options, async (store) => {
    const current = store.settings.load();
    const result = changeSection(current, 'gateway', patch);
    if (!result.ok) {
      printIssues(io, result.issues, FLAGS);
      io.err('Nothing was changed.\n');
      return EXIT.INVALID_INPUT;
    }
    const gateway = result.next.gateway!;

    // The secrets: from standard input, or asked for on a terminal (Enter keeps the one stored).
    const given: [SecretName, string][] = [];
    if (!onTerminal()) {
      const values = stdinNames.length ? await secretsFromStdin(stdinNames.map((n) => SECRET_WORDS[n])) : [];
      stdinNames.forEach((name, i) => given.push([name, values[i]!]));
    } else {
      const wanted = SECRET_NAMES.filter(
        (name) => name === 'appkey' || stdinNames.includes(name) || gateway.signing.key === 'secret',
      );
      const keychain = await keychainStatus(layersOf(store));
      if (!keychain.available) {
        io.err(`the OS keychain cannot be used: ${keychain.message}\nNothing was changed.\n`);
        return EXIT.KEYCHAIN;
      }
      for (const name of wanted) {
        const stored = (await secretReport(layersOf(store), name)).keychain?.set ?? false;
        const value = await ask(
          `${name === 'appkey' ? 'Appkey' : 'Signing secret'} (typing is not shown${stored ? '; Enter keeps the stored one' : ''}): `,
          { hidden: true },
        );
        if (value !== '') given.push([name, value]);
      }
    }
    const refused =
      result.changed.length > 0 || given.length > 0 ? openOrdersRefused(store, current, 'change_gateway') : undefined;
    if (refused) {
      io.err(`${refused}\n`);
      return EXIT.INVALID_INPUT;
    }

    // One order of writes (core/settings/gateway-secrets.ts): the secrets first — if the keychain cannot take them,
    // nothing at all is written (not the settings) — then the settings and the audit, the secrets put back if that fails.
    const keychain = layersOf(store).keychain;
    try {
      await saveWithSecrets(store, keychain, cliUser(), result, given);
    } catch (err) {
      if (err instanceof SecretStoreUnavailableError) return keychainFailure(io, err);
      throw err;
    }

    io.out(`Gateway ${gateway.baseUrl} (appid ${gateway.appId}):\n`);
    printChanges(io, result.changed);
    for (const [name, value] of given) {
      io.out(`  ${SECRET_WORDS[name]}: ${shown(secretShown(value))}, in ${keychain.description}\n`);
      io.err(overrideNote(store, name));
    }
    const needed: SecretName[] = gateway.signing.key === 'secret' ? ['appkey', 'signing-secret'] : ['appkey'];
    for (const name of needed.filter((n) => !given.some(([g]) => g === n))) {
      const status = await safeStatus(store, name);
      if (status === undefined) {
        io.err(
          'note: the OS keychain cannot be used now (config show says why): store the secrets before going live\n',
        );
        break;
      }
      if (!status.set)
        io.err(`note: no ${SECRET_WORDS[name]} is stored yet: npm run cli -- config set-secret ${name}\n`);
    }
    io.out(
      result.next.mode === 'live'
        ? 'Live mode: a running Loket app uses this at its next start.\n'
        : 'Next: npm run cli -- config test, then config training off --confirm-gateway ' + `${gateway.baseUrl}\n`,
    );
    return EXIT.OK;
  });
}

async function safeStatus(store: StoreBooks, name: SecretName): Promise<{ set: boolean } | undefined> {
  try {
    return secretShown(await store.secrets.get(name));
  } catch (err) {
    if (err instanceof SecretStoreUnavailableError) return undefined;
    throw err;
  }
}
