import { userInfo } from 'node:os';
import type { SettingsIssue } from '../common/settings';
import { KeychainSecretStore } from '../adapters/keychain-secret-store';
import { OverrideSecretStore } from '../adapters/override-secret-store';
import { cliActor, type AuditActor } from '../core/audit/audit-log';
import type { SecretStore } from '../core/ports';
import { openStoreBooks, type StoreBooks } from '../runtime';

/** Where a command writes; tests may pass their own. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

export const defaultIo: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

/** What the config, staff and pin commands open: the store's books (the data folder's loket.db). */
export interface StoreOptions {
  env?: NodeJS.ProcessEnv;
  dataDir?: string;
  /** The SecretStore of a configured gateway; LOKET_APP_KEY, else the OS keychain, by default. */
  secrets?: SecretStore;
}

/** The keychains this process opened: one whose calls are stuck keeps the process from ending (below). */
const keychains = new Set<KeychainSecretStore>();

/**
 * The store's books for one command that changes them: the data folder's lock is taken, so it is refused
 * (FolderBusyError, exit 7) while the app, serve or another command holds it. readStore opens them read-only,
 * beside a running Loket (docs/cli.md, "Who writes the data folder").
 */
export function withStore<T>(options: StoreOptions, fn: (store: StoreBooks) => Promise<T>): Promise<T> {
  return openStore(options, fn, false);
}

export function readStore<T>(options: StoreOptions, fn: (store: StoreBooks) => Promise<T>): Promise<T> {
  return openStore(options, fn, true);
}

async function openStore<T>(
  options: StoreOptions,
  fn: (store: StoreBooks) => Promise<T>,
  readOnly: boolean,
): Promise<T> {
  const store = openStoreBooks({
    readOnly,
    ...(options.env ? { env: options.env } : {}),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  const keychain = store.secrets instanceof OverrideSecretStore ? store.secrets.keychainStore : store.secrets;
  if (keychain instanceof KeychainSecretStore) keychains.add(keychain);
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

/**
 * Keychain calls that missed their deadline and still wait inside keytar. Node's exit waits for them (it joins
 * libuv's worker threads), until libsecret gives up: about 50 s after the call began. The exit code is kept
 * (scripts rely on it), so the command says why it has not ended yet.
 */
export function stuckKeychainCalls(): number {
  let stuck = 0;
  for (const keychain of keychains) stuck += keychain.stuckCalls;
  return stuck;
}

/**
 * Who the audit log names for a change made here: `cli:<the machine's account>`. Whoever can run the CLI on
 * this account can read and change the data folder anyway: that access is what the CLI's changes rest on.
 */
export function cliUser(env: NodeJS.ProcessEnv = process.env): AuditActor {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    // An account without a passwd entry (some containers): the environment's word for it.
    name = env.USER ?? env.USERNAME;
  }
  return cliActor(name ?? '');
}

/** Each problem on its own line, with the flag that sets the field where there is one. */
export function printIssues(
  io: Io,
  issues: readonly SettingsIssue[],
  flags: Readonly<Record<string, string>> = {},
): void {
  for (const issue of issues) {
    const flag = flags[issue.field];
    io.err(`${issue.message}${flag ? ` (${flag})` : ''}\n`);
  }
}
