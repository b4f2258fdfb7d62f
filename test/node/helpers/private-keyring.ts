/**
 * A private, throwaway keyring for tests: its own D-Bus session bus and gnome-keyring-daemon, with a temporary
 * HOME and XDG folders, so no test ever reaches the developer's session bus or keyring.
 *
 *   const keyring = await startPrivateKeyring();            // unlocked, empty
 *   afterAll(() => keyring.stop());
 *   spawn('node', [...], { env: { ...keyring.env, LOKET_X: '…' } });   // a child process uses it
 *   keyring.useInThisProcess();                             // or this process, before its first keytar call
 *
 * Modes: 'unlocked' (the default); 'locked' (a keyring with a password, its daemon restarted without unlocking
 * it, as after a login without the keyring password); 'not-unlocked' (the daemon started without --unlock in a
 * fresh HOME: there is no keyring yet, and none can be created without a dialog); 'no-secret-service' (a bus on
 * which nothing provides org.freedesktop.secrets, and nothing can be started for it); 'no-bus' (no D-Bus session
 * at all); 'hung' (an unlocked keyring whose daemon is stopped with SIGSTOP, so calls get no answer; `thaw()`
 * continues it).
 *
 * Requires dbus-daemon, dbus-send, gnome-keyring-daemon and secret-tool (scripts/install-system-deps.sh).
 * The private bus activates no services: only what this helper starts runs on it (no prompter, so a locked
 * keyring cannot be unlocked through a dialog, as on a machine without a desktop).
 *
 * libsecret keeps its connection for the life of a process: a process can use one keyring, and cannot follow a
 * daemon that is restarted under it. Each mode other than the one in-process therefore goes to a child process.
 *
 * Everything started here stops with stop(); if the test process dies without calling it, a small watchdog (its
 * own process, reading a pipe from this one) sees the pipe close and kills what is left and removes the folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  closeSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type KeyringMode = 'unlocked' | 'locked' | 'not-unlocked' | 'no-secret-service' | 'no-bus' | 'hung';

export interface PrivateKeyringOptions {
  mode?: KeyringMode;
  /** The keyring's password (a non-empty one: gnome-keyring stores a keyring without one in clear). */
  password?: string;
  /** Entries stored while the keyring is unlocked, before a 'locked' or 'hung' one is locked or stopped. */
  seed?: { service: string; account: string; secret: string }[];
}

export interface KeyringItem {
  path: string;
  label: string;
  /** Absent when secret-tool could not read it (a locked keyring). */
  secret?: string;
  /** On a locked keyring gnome-keyring shows hashed attributes (`gkr:compat:hashed:service`, …). */
  attributes: Record<string, string>;
}

export interface PrivateKeyring {
  readonly mode: KeyringMode;
  /**
   * The complete environment for a child process: this process's, with DBUS_SESSION_BUS_ADDRESS, HOME,
   * XDG_RUNTIME_DIR, XDG_DATA_HOME, XDG_CONFIG_HOME and XDG_CACHE_HOME pointing into the throwaway folder;
   * without DISPLAY, WAYLAND_DISPLAY, GNOME_KEYRING_CONTROL, LOKET_APP_KEY and LOKET_SIGNING_SECRET.
   */
  readonly env: NodeJS.ProcessEnv;
  /** The throwaway folder; HOME is `${dir}/home`. Removed by stop(). */
  readonly dir: string;
  readonly home: string;
  /**
   * Points this process at the private bus (DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR; no DISPLAY), for keytar
   * in-process. Call it before the first keytar call of the process; stop() puts the old values back.
   */
  useInThisProcess(): void;
  /** `secret-tool search --all service <service>` on this keyring, parsed. Throws if secret-tool fails. */
  search(service: string): Promise<KeyringItem[]>;
  /** Files under the throwaway folder whose bytes contain `text` (in clear). */
  filesContaining(text: string): string[];
  /**
   * Restarts the keyring daemon unlocked (with the password), as a user who unlocks the keyring would; a process
   * that used the old daemon cannot follow (see above), a new one can, and so can search().
   */
  unlock(): Promise<void>;
  /** SIGSTOP / SIGCONT the keyring daemon: calls to it wait while it is frozen. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

const READY_LIMIT_MS = 10_000;
const TOOL_LIMIT_MS = 10_000;

/** Kills what the test process started if the test process goes away: reads "+pid"/"-pid" lines until EOF. */
const WATCHDOG = `
declare -A pids
while IFS= read -r line; do
  case "$line" in +*) pids[\${line#+}]=1 ;; -*) unset "pids[\${line#-}]" ;; esac
done
for p in "\${!pids[@]}"; do kill -CONT "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
rm -rf -- "$1"
`;

export async function startPrivateKeyring(options: PrivateKeyringOptions = {}): Promise<PrivateKeyring> {
  const mode = options.mode ?? 'unlocked';
  const password = options.password ?? 'test-keyring-password';
  if (!password) throw new Error('the keyring needs a password: gnome-keyring keeps a keyring without one in clear');

  const dir = mkdtempSync(join(tmpdir(), 'loket-keyring-'));
  const home = join(dir, 'home');
  const run = join(dir, 'run');
  for (const d of [home, run, join(home, '.local', 'share'), join(home, '.config'), join(home, '.cache')])
    mkdirSync(d, { recursive: true, mode: 0o700 });

  const watchdog = spawn('bash', ['-c', WATCHDOG, 'watchdog', dir], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  const watchdogExited = new Promise<void>((resolve) => watchdog.once('exit', () => resolve()));
  const tell = (line: string): void => {
    if (watchdog.stdin?.writable) watchdog.stdin.write(`${line}\n`);
  };

  const started: ChildProcess[] = [];
  const track = (child: ChildProcess): ChildProcess => {
    child.on('error', () => {}); // reported below: a child that did not start has no pid
    if (child.pid === undefined)
      throw new Error(`could not start ${child.spawnfile}: is it installed? (scripts/install-system-deps.sh)`);
    started.push(child);
    tell(`+${child.pid}`);
    child.once('exit', () => tell(`-${child.pid}`));
    return child;
  };

  const busSocket = join(run, 'bus');
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'DISPLAY',
    'WAYLAND_DISPLAY',
    'DBUS_SESSION_BUS_ADDRESS',
    'GNOME_KEYRING_CONTROL',
    'LOKET_APP_KEY',
    'LOKET_SIGNING_SECRET',
  ])
    delete env[name];
  Object.assign(env, {
    HOME: home,
    XDG_RUNTIME_DIR: run,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
  });
  if (mode !== 'no-bus') env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${dbusEscape(busSocket)}`;

  let daemon: ChildProcess | undefined;
  let saved: Record<string, string | undefined> | undefined;
  let stopped: Promise<void> | undefined;

  const log = (name: string): number => openSync(join(dir, `${name}.log`), 'a');
  const logText = (name: string): string => {
    try {
      return readFileSync(join(dir, `${name}.log`), 'utf8').trim();
    } catch {
      return '';
    }
  };

  const startDaemon = async (unlock: boolean): Promise<ChildProcess> => {
    const out = log('gnome-keyring-daemon');
    const child = track(
      spawn('gnome-keyring-daemon', ['--foreground', ...(unlock ? ['--unlock'] : []), '--components=secrets'], {
        env,
        stdio: [unlock ? 'pipe' : 'ignore', out, out],
      }),
    );
    closeSync(out);
    child.stdin?.on('error', () => {}); // a daemon that failed before reading the password: reported below
    if (unlock) child.stdin?.end(password);
    await until(
      () => nameHasOwner(env, 'org.freedesktop.secrets'),
      'gnome-keyring-daemon to own org.freedesktop.secrets',
      () => logText('gnome-keyring-daemon'),
    );
    return child;
  };

  const endProcess = async (child: ChildProcess | undefined): Promise<void> => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    const late = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(late);
  };

  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      if (saved) {
        for (const [name, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
        saved = undefined;
      }
      for (const child of [...started].reverse()) await endProcess(child);
      watchdog.stdin?.end();
      let late: NodeJS.Timeout | undefined;
      await Promise.race([watchdogExited, new Promise((resolve) => (late = setTimeout(resolve, 3_000)))]);
      clearTimeout(late);
      rmSync(dir, { recursive: true, force: true });
    })());

  try {
    if (mode !== 'no-bus') {
      writeFileSync(join(dir, 'bus.conf'), busConfig(busSocket));
      const out = log('dbus-daemon');
      track(
        spawn('dbus-daemon', ['--config-file', join(dir, 'bus.conf'), '--nofork', '--nopidfile'], {
          env,
          stdio: ['ignore', out, out],
        }),
      );
      closeSync(out);
      await until(
        () => existsSync(busSocket),
        'the private dbus-daemon to listen',
        () => logText('dbus-daemon'),
      );
    }
    if (mode === 'unlocked' || mode === 'locked' || mode === 'hung') {
      daemon = await startDaemon(true);
      for (const entry of options.seed ?? [])
        await tool(
          env,
          ['store', '--label', `${entry.service}/${entry.account}`, 'service', entry.service, 'account', entry.account],
          entry.secret,
        );
      if (mode === 'locked') {
        // Restarted without --unlock: the login keyring (created above with the password) stays locked.
        await endProcess(daemon);
        await until(async () => !(await nameHasOwner(env, 'org.freedesktop.secrets')), 'the unlocked daemon to go');
        daemon = await startDaemon(false);
      }
      if (mode === 'hung') daemon.kill('SIGSTOP');
    }
    if (mode === 'not-unlocked') {
      if (options.seed?.length) throw new Error("a 'not-unlocked' keyring has no keyring to seed");
      daemon = await startDaemon(false);
    }
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    mode,
    env,
    dir,
    home,
    useInThisProcess() {
      if (saved) return;
      saved = {};
      for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR', 'DISPLAY', 'WAYLAND_DISPLAY']) {
        saved[name] = process.env[name];
        if (env[name] === undefined) delete process.env[name];
        else process.env[name] = env[name];
      }
    },
    async search(service: string) {
      return parseSearch(await tool(env, ['search', '--all', 'service', service]));
    },
    filesContaining(text: string) {
      const needle = Buffer.from(text);
      return listFiles(dir).filter((file) => {
        try {
          return readFileSync(file).includes(needle);
        } catch {
          return false;
        }
      });
    },
    async unlock() {
      await endProcess(daemon);
      await until(async () => !(await nameHasOwner(env, 'org.freedesktop.secrets')), 'the locked daemon to go');
      daemon = await startDaemon(true);
    },
    freeze() {
      daemon?.kill('SIGSTOP');
    },
    thaw() {
      daemon?.kill('SIGCONT');
    },
    stop,
  };
}

/** A session bus that starts no services: not the system's service files, not gnome-keyring's activation. */
function busConfig(socket: string): string {
  const address = xmlEscape(`unix:path=${dbusEscape(socket)}`);
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>${address}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;
}

/** D-Bus address escaping: bytes outside [-0-9A-Za-z_/.\\*] become %xx. */
function dbusEscape(value: string): string {
  return Array.from(Buffer.from(value))
    .map((b) =>
      /[-0-9A-Za-z_/.\\*]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).padStart(2, '0')}`,
    )
    .join('');
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

async function until(check: () => boolean | Promise<boolean>, what: string, log?: () => string): Promise<void> {
  const end = Date.now() + READY_LIMIT_MS;
  while (!(await check())) {
    if (Date.now() > end) {
      const said = log?.();
      throw new Error(`waited for ${what}, and it never happened${said ? `; it said: ${said}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

interface ToolResult {
  code: number | null;
  output: string;
}

function runTool(command: string, args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      timeout: TOOL_LIMIT_MS,
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    if (child.stdin) {
      child.stdin.on('error', () => {}); // a tool that exits without reading its input
      child.stdin.end(input);
    }
  });
}

async function nameHasOwner(env: NodeJS.ProcessEnv, name: string): Promise<boolean> {
  const { code, output } = await runTool(
    'dbus-send',
    [
      '--session',
      '--dest=org.freedesktop.DBus',
      '--type=method_call',
      '--print-reply',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.NameHasOwner',
      `string:${name}`,
    ],
    env,
  );
  return code === 0 && /boolean true/.test(output);
}

/**
 * secret-tool with its stdout and stderr in one stream, in the order written (it prints an item's attributes on
 * stderr and the rest on stdout): unbuffered through stdbuf, both into one pipe.
 */
async function tool(env: NodeJS.ProcessEnv, args: string[], input?: string): Promise<string> {
  const { code, output } = await runTool(
    'sh',
    ['-c', 'exec stdbuf -o0 -e0 secret-tool "$@" 2>&1', 'secret-tool', ...args],
    env,
    input,
  );
  if (code !== 0) throw new Error(`secret-tool ${args.join(' ')} failed (exit ${code}): ${output.trim()}`);
  return output;
}

function parseSearch(output: string): KeyringItem[] {
  const items: KeyringItem[] = [];
  let item: KeyringItem | undefined;
  for (const line of output.split('\n')) {
    const header = /^\[(.*)\]$/.exec(line);
    if (header) {
      item = { path: header[1] ?? '', label: '', attributes: {} };
      items.push(item);
      continue;
    }
    const field = /^([^=]+?) = (.*)$/.exec(line);
    if (!item || !field) continue;
    const [, key = '', value = ''] = field;
    if (key.startsWith('attribute.')) item.attributes[key.slice('attribute.'.length)] = value;
    else if (key === 'label') item.label = value;
    else if (key === 'secret') item.secret = value;
  }
  return items;
}

function listFiles(root: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) files.push(...listFiles(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}
