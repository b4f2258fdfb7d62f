import { SecretStoreUnavailableError, type SecretName, type SecretStore } from '../core/ports';
import { rememberSecret } from './log-redaction';

/**
 * The OS keychain behind the SecretStore port, through keytar: the Secret Service on Linux (gnome-keyring,
 * KeePassXC, …), the Credential Manager on Windows, the login Keychain on macOS. One entry per secret: service
 * `Loket`, account `appkey` or `signing-secret`.
 *
 * keytar is loaded on first use, so a machine whose native module is missing (it is an optional dependency, left
 * out where it cannot be built) or broken starts and says so in plain words. Every keytar call runs under a
 * deadline, because a Secret Service that waits for an unlock dialog, or that is stuck, can keep a call waiting:
 * libsecret itself gives up only after two D-Bus timeouts (50 s here).
 *
 * What keytar does on Linux when the keyring cannot serve (seen with gnome-keyring 42 and libsecret 0.20):
 * - no D-Bus session: every call fails at once ("Cannot autolaunch D-Bus without X11 $DISPLAY");
 * - a bus without a Secret Service: every call fails at once ("The name org.freedesktop.secrets was not
 *   provided by any .service files");
 * - a locked keyring, with no unlock prompt possible (no desktop): writes fail at once ("Cannot create an item
 *   in a locked collection", or "Object does not exist at path “/org/freedesktop/secrets/collection/login”"
 *   when there is no keyring yet), but READS ANSWER "NOTHING STORED" and deletes answer "nothing to delete".
 *   A locked keyring therefore looks empty to get(): `probe()` tells the two apart with a write check.
 *   (keytar's findCredentials crashes the process on a locked keyring: this adapter never calls it.)
 * - a stuck Secret Service: calls wait 50 s, then "Timeout was reached".
 * libsecret also keeps its connection to the keyring for the life of the process: if the keyring daemon is
 * restarted, this process gets "The name :1.0 was not provided by any .service files" until Loket restarts.
 */

export type KeychainUnavailableReason =
  'no_dbus' | 'no_secret_service' | 'locked' | 'timeout' | 'module_missing' | 'other';

/** The part of keytar this adapter uses (keytar's own signatures). */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeychainSecretStoreOptions {
  /** The keychain's service name; `Loket` unless a test wants entries of its own. */
  service?: string;
  /** Loads keytar; `import('keytar')` by default. Tests pass a loader that fails, or another module. */
  load?: () => Promise<KeytarApi>;
  /** How long one keychain call may take before it counts as unavailable ('timeout'). */
  timeoutMs?: number;
  /** Whose advice the messages give; the running OS by default. */
  platform?: NodeJS.Platform;
}

export type KeychainProbe =
  { available: true } | { available: false; reason: KeychainUnavailableReason; message: string };

export const DEFAULT_KEYCHAIN_SERVICE = 'Loket';
export const DEFAULT_KEYCHAIN_TIMEOUT_MS = 8_000;
/** The account `probe()` writes to and deletes again on Linux. Its value is not a secret. */
export const PROBE_ACCOUNT = 'probe';

const REDACTED = '[redacted]';
const MAX_DETAIL = 300;

/**
 * The keychain cannot be used right now. `message` says, in plain words, what is wrong and what to do on this
 * OS; `detail` is what the keychain itself said. Neither ever contains a secret value: any value in flight is
 * cut out of the keychain's words, and the keychain's own error object is not kept (not even as `cause`).
 */
export class KeychainUnavailableError extends SecretStoreUnavailableError {
  override readonly name = 'KeychainUnavailableError';
  readonly reason: KeychainUnavailableReason;
  readonly detail: string | undefined;

  constructor(
    reason: KeychainUnavailableReason,
    options: { platform?: NodeJS.Platform; detail?: string; timeoutMs?: number } = {},
  ) {
    const detail = options.detail?.trim() ? clip(options.detail.trim()) : undefined;
    const advice = keychainAdvice(reason, options.platform ?? process.platform, {
      timeoutMs: options.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS,
    });
    super(detail ? `${advice} (The keychain said: ${detail})` : advice);
    this.reason = reason;
    this.detail = detail;
  }
}

/**
 * Which unavailability a keychain error message means. The Linux patterns are the messages keytar gave on a real
 * gnome-keyring (see the comment at the top); the macOS and Windows ones are Security.framework's and Windows'
 * documented texts.
 */
export function classifyKeychainError(message: string): KeychainUnavailableReason {
  for (const [reason, patterns] of CLASSIFICATION) if (patterns.some((p) => p.test(message))) return reason;
  return 'other';
}

/** In order: the first reason with a matching pattern wins ("collection/login" is a locked keyring, not no service). */
const CLASSIFICATION: [KeychainUnavailableReason, RegExp[]][] = [
  ['timeout', [/Timeout was reached/i, /timed out/i]],
  [
    'no_dbus',
    [
      /Cannot autolaunch D-Bus/i, // no DBUS_SESSION_BUS_ADDRESS and no DISPLAY
      /dbus-launch/i, // no DBUS_SESSION_BUS_ADDRESS, a DISPLAY without an X server
      /Could not connect/i, // DBUS_SESSION_BUS_ADDRESS names a bus that is gone
      /DBUS_SESSION_BUS_ADDRESS/,
      /The connection is closed/i,
    ],
  ],
  [
    'locked',
    [
      /locked collection/i, // "Cannot create an item in a locked collection"
      /collection\/login/i, // "Object does not exist at path “/org/freedesktop/secrets/collection/login”"
      /is locked/i,
      /Prompt dismissed/i,
      /User interaction is not allowed/i, // macOS, a locked keychain without a GUI session
      /passphrase you entered is not correct/i, // macOS
      /User canceled/i, // macOS, the unlock dialog was cancelled
    ],
  ],
  [
    'no_secret_service',
    [
      /not provided by any \.service files/i, // nothing owns org.freedesktop.secrets (or the daemon restarted)
      /org\.freedesktop\.secrets/i,
      /ServiceUnknown/i,
      /StartServiceByName/i, // the keyring could not be started ("… exited with status 1")
      /session wrapping the secret does not exist/i, // the daemon restarted under this process
      /Remote peer disconnected/i,
      /keychain could not be found/i, // macOS
      /logon session does not exist/i, // Windows, no user logon session (a service account)
    ],
  ],
];

/** What is wrong and what to do, per reason and OS, in plain words. */
export function keychainAdvice(
  reason: KeychainUnavailableReason,
  platform: NodeJS.Platform,
  options: { timeoutMs?: number } = {},
): string {
  const ms = options.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS;
  const seconds = ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
  const override = 'For CI and scripts, LOKET_APP_KEY (and LOKET_SIGNING_SECRET) in the environment can stand in.';
  if (reason === 'module_missing')
    return (
      'Loket could not load its keychain module (keytar), so it cannot reach the OS keychain: training mode works, ' +
      'going live needs the keychain. Reinstall Loket; when running from source, ' +
      (platform === 'linux'
        ? // keytar is an optional dependency: where it could not be built, npm left it out, and `npm rebuild`
          // alone finds nothing to build. `npm install` puts it back (as package-lock.json names it); `npm rebuild
          // keytar` builds one that is there but broken (built before libsecret was installed, or for another Node).
          'install libsecret (its development files) and build keytar again: ' +
          '`sudo apt install libsecret-1-dev && npm install && npm rebuild keytar`'
        : 'build keytar again: `npm install && npm rebuild keytar`') +
      `. ${override}`
    );
  if (platform === 'win32') {
    if (reason === 'timeout')
      return (
        `The Windows Credential Manager did not answer within ${seconds}. Try again; if it keeps happening, ` +
        'restart Windows.'
      );
    return (
      'Loket cannot use the Windows Credential Manager. Run Loket as a normal signed-in user (not as a service or ' +
      `with "Run as" another account) and check that Credential Manager opens in the Control Panel. ${override}`
    );
  }
  if (platform === 'darwin') {
    if (reason === 'timeout')
      return (
        `The macOS Keychain did not answer within ${seconds}: it may be waiting for you to unlock it or to allow ` +
        'Loket access in a dialog. Answer the dialog, then try again.'
      );
    if (reason === 'locked')
      return (
        'Your login Keychain is locked. Unlock it in Keychain Access (or with ' +
        '`security unlock-keychain ~/Library/Keychains/login.keychain-db`), and allow Loket when macOS asks.'
      );
    return (
      'Loket cannot use your login Keychain. Open Keychain Access and check that the login keychain exists and is ' +
      `unlocked. ${override}`
    );
  }
  // Linux and the other freedesktop systems: the Secret Service over the D-Bus session bus.
  const headless =
    'On a machine without a desktop, start Loket inside a session bus with an unlocked keyring: ' +
    "dbus-run-session -- sh -c 'echo <keyring password> | gnome-keyring-daemon --unlock --components=secrets; " +
    "<the Loket command>'.";
  switch (reason) {
    case 'no_dbus':
      return (
        'Loket cannot reach the OS keychain: there is no D-Bus session bus to talk to (DBUS_SESSION_BUS_ADDRESS is ' +
        'unset, or names a bus that is gone), and on Linux the keyring is reached through it. Start Loket from a ' +
        `desktop session. ${headless} ${override}`
      );
    case 'no_secret_service':
      return (
        'No keyring (Secret Service) answers on this D-Bus session. Install gnome-keyring (`sudo apt install ' +
        'gnome-keyring`) or another Secret Service such as KeePassXC with its Secret Service integration turned on, ' +
        'then log in again or start it. If the keyring was restarted while Loket was running, restart Loket. ' +
        `${headless} ${override}`
      );
    case 'locked':
      return (
        'The keyring is locked (or there is no default keyring yet), and no unlock dialog could be shown. Unlock the ' +
        'keyring (for example in "Passwords and Keys"), or without a desktop: echo <keyring password> | ' +
        'gnome-keyring-daemon --unlock --components=secrets (in the same D-Bus session as Loket). ' +
        override
      );
    case 'timeout':
      return (
        `The keyring did not answer within ${seconds}: it may be waiting for you to unlock it in a dialog, or the ` +
        'keyring service is stuck. Unlock the keyring if asked; otherwise restart gnome-keyring-daemon (log out and ' +
        'in again) and restart Loket.'
      );
    default:
      return `The OS keychain refused the request. Check that the keyring is installed and unlocked. ${override}`;
  }
}

/**
 * keytar is an optional dependency (package.json): a machine where it cannot be built (no libsecret) still installs
 * and runs Loket in training mode. Its name is held in a variable so that type-checking does not need it installed
 * either; the Electron build keeps it external (electron.vite.config.ts), so this stays a run-time import.
 */
const KEYTAR_MODULE: string = 'keytar';

async function loadKeytar(): Promise<KeytarApi> {
  const mod = (await import(/* @vite-ignore */ KEYTAR_MODULE)) as KeytarApi & { default?: KeytarApi };
  // keytar is CommonJS: Node's ESM wrapper exposes all of it only as `default`.
  return mod.default ?? mod;
}

export class KeychainSecretStore implements SecretStore {
  readonly service: string;
  readonly description: string;
  private readonly load: () => Promise<KeytarApi>;
  private readonly timeoutMs: number;
  private readonly platform: NodeJS.Platform;
  private loading: Promise<KeytarApi> | undefined;
  /** Calls that missed their deadline and are still waiting in keytar's thread. */
  private stuck = 0;

  constructor(options: KeychainSecretStoreOptions = {}) {
    this.service = options.service ?? DEFAULT_KEYCHAIN_SERVICE;
    this.description = `the OS keychain (${this.service})`;
    this.load = options.load ?? loadKeytar;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS;
    this.platform = options.platform ?? process.platform;
  }

  /**
   * Keychain calls that missed their deadline and still wait inside keytar. Nothing can cancel them, and Node's
   * exit waits for them (it joins libuv's worker threads): a process that must end now while this is above 0 can
   * only end by a signal. New calls fail at once with 'timeout' until these end.
   */
  get stuckCalls(): number {
    return this.stuck;
  }

  async get(name: SecretName): Promise<string | undefined> {
    const value = await this.call((k) => k.getPassword(this.service, name));
    rememberSecret(value); // never to be written to the log file
    return value ? value : undefined;
  }

  async set(name: SecretName, value: string): Promise<void> {
    if (!value) throw new Error(`an empty ${name} cannot be stored; delete it instead`);
    rememberSecret(value);
    await this.call((k) => k.setPassword(this.service, name, value), value);
  }

  async delete(name: SecretName): Promise<void> {
    await this.call((k) => k.deletePassword(this.service, name));
  }

  /**
   * Whether the keychain can be used now, and if not why, in plain words. It reads an entry that holds nothing
   * secret; on Linux, where a locked keyring answers reads with "nothing stored", it then also writes that entry
   * (account `probe`, a fixed non-secret value) and deletes it again — the only way through keytar to tell a
   * locked keyring from an empty one. On a desktop, that write is what makes the keyring ask to be unlocked.
   */
  async probe(): Promise<KeychainProbe> {
    try {
      await this.call((k) => k.getPassword(this.service, PROBE_ACCOUNT));
      if (this.platform !== 'win32' && this.platform !== 'darwin') {
        await this.call((k) => k.setPassword(this.service, PROBE_ACCOUNT, 'probe'));
        await this.call((k) => k.deletePassword(this.service, PROBE_ACCOUNT));
      }
      return { available: true };
    } catch (err) {
      if (err instanceof KeychainUnavailableError)
        return { available: false, reason: err.reason, message: err.message };
      throw err;
    }
  }

  private unavailable(reason: KeychainUnavailableReason, detail: string | undefined): KeychainUnavailableError {
    return new KeychainUnavailableError(reason, {
      platform: this.platform,
      timeoutMs: this.timeoutMs,
      ...(detail !== undefined ? { detail } : {}),
    });
  }

  private keytar(): Promise<KeytarApi> {
    this.loading ??= this.load();
    return this.loading;
  }

  /** One keytar call under the deadline; any failure becomes a KeychainUnavailableError without `secret` in it. */
  private async call<T>(run: (keytar: KeytarApi) => Promise<T>, secret?: string): Promise<T> {
    let keytar: KeytarApi;
    try {
      keytar = await this.keytar();
    } catch (err) {
      throw this.unavailable('module_missing', messageOf(err));
    }
    // A call that missed its deadline still holds one of libuv's few worker threads: do not pile up more.
    if (this.stuck > 0) throw this.unavailable('timeout', 'an earlier keychain request is still waiting for an answer');

    const work = Promise.resolve().then(() => run(keytar));
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new Error(`no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([work, deadline]);
    } catch (err) {
      if (timedOut) {
        this.stuck++;
        work.then(
          () => this.stuck--,
          () => this.stuck--,
        );
        throw this.unavailable('timeout', `no answer within ${this.timeoutMs} ms`);
      }
      const detail = redact(messageOf(err), secret);
      throw this.unavailable(classifyKeychainError(detail), detail);
    } finally {
      clearTimeout(timer);
    }
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function redact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join(REDACTED) : text;
}

function clip(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}
