import type { StoreLink } from './local-book';
import { parseStoreUrl, StoreUrlError, type StoreUrl } from './pg-url';

/**
 * Where a terminal's store-book password lives (docs/store-book.md, "Enrolment"): the OS keychain, one entry per
 * store and terminal, named by `credentialAccount` — so two data folders on one machine (two stores, or a
 * training copy) never share an entry. `LOKET_STORE_URL` (the whole URL, password included) stands in for
 * headless machines and CI, as LOKET_APP_KEY does for the gateway's appkey; it wins when set.
 *
 * The port a keychain adapter implements (src-main/adapters/store-book-keychain.ts); the sync and the commands take
 * it, so tests pass a real keyring or an in-memory one.
 */
export interface StoreSecrets {
  readonly description: string;
  /** Whether the keychain can be used now, and why not (checked before a password is made that it must keep). */
  probe?(): Promise<{ available: true } | { available: false; message: string }>;
  get(account: string): Promise<string | undefined>;
  set(account: string, value: string): Promise<void>;
  delete(account: string): Promise<void>;
}

export const STORE_URL_VARIABLE = 'LOKET_STORE_URL';

/** The keychain account of a terminal's password: the store (code and id) and the terminal. */
export function credentialAccount(storeCode: string, storeId: string, terminalId: string): string {
  return `store-book:${storeCode}:${terminalId}:${storeId.slice(0, 8)}`;
}

export interface StoreConnection {
  url: StoreUrl;
  /** Where the password came from, in words (never the password). */
  source: string;
}

/** The terminal cannot connect to a store book: not enrolled, or its password cannot be found. */
export class NotEnrolledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotEnrolledError';
  }
}

/**
 * The connection of this data folder's terminal: LOKET_STORE_URL when set; else the enrolment's URL with the
 * password from the keychain. A keychain that cannot be used throws its own error (KeychainUnavailableError).
 */
export async function storeConnection(
  env: NodeJS.ProcessEnv,
  link: StoreLink | undefined,
  secrets: StoreSecrets | undefined,
): Promise<StoreConnection> {
  const fromEnv = env[STORE_URL_VARIABLE];
  if (fromEnv)
    return { url: parseStoreUrl(fromEnv, STORE_URL_VARIABLE), source: `the environment (${STORE_URL_VARIABLE})` };
  if (!link)
    throw new NotEnrolledError(
      'this terminal is not enrolled in a store book: npm run cli -- store enrol --url ADMIN_URL --terminal ID ' +
        `(docs/store-book.md), or set ${STORE_URL_VARIABLE}`,
    );
  let url: StoreUrl;
  try {
    url = parseStoreUrl(link.url, 'the enrolment');
  } catch (err) {
    if (err instanceof StoreUrlError) throw new NotEnrolledError(`${err.message}: enrol this terminal again`);
    throw err;
  }
  if (!secrets)
    throw new NotEnrolledError(`no keychain to read the store book's password from: set ${STORE_URL_VARIABLE}`);
  const password = await secrets.get(link.credential);
  if (!password)
    throw new NotEnrolledError(
      `no store-book password is stored in ${secrets.description} for ${link.credential}: enrol this terminal ` +
        `again (npm run cli -- store enrol), or set ${STORE_URL_VARIABLE}`,
    );
  return { url: { ...url, password }, source: secrets.description };
}
