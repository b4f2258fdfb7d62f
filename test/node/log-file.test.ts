// Loket's log file (adapters/log-file.ts): appended after the turn, capped and rotated, private, redacted, and
// never in the way when it cannot be written.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogFile, LOG_FILE_NAME } from '../../src-main/adapters/log-file';
import { redactSecrets, rememberSecret } from '../../src-main/adapters/log-redaction';
import { FakeClock, FAKE_CLOCK_START } from './helpers/fake-clock';
import { runCli } from './helpers/cli-child';
import { tempDir } from './helpers/loket';

const ROOT = join(import.meta.dirname, '..', '..');
const CANARY_CHILD = join(import.meta.dirname, 'fixtures', 'log-canary-child.ts');
const dirs: { remove: () => void }[] = [];
const logs: LogFile[] = [];
afterEach(() => {
  for (const log of logs.splice(0)) log.close();
  for (const dir of dirs.splice(0)) dir.remove();
});

function newLog(options: ConstructorParameters<typeof LogFile>[1] = {}) {
  const dir = tempDir('loket-log-');
  dirs.push(dir);
  const log = new LogFile(join(dir.path, 'data'), { clock: new FakeClock(), ...options });
  logs.push(log);
  return { log, dir: join(dir.path, 'data') };
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
/** One turn of the event loop: what write() queued has been appended. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the log file', () => {
  it('is loket.log in the data folder, written after the turn with the time (UTC), private to the user', async () => {
    const { log, dir } = newLog();
    expect(log.path).toBe(join(dir, LOG_FILE_NAME));
    log.write('[loket] first');
    log.write('[loket] second\n  at the next line');
    expect(existsSync(log.path)).toBe(false); // queued, not written in the caller's turn
    await nextTurn();
    expect(read(log.path)).toBe(
      `${FAKE_CLOCK_START} [loket] first\n${FAKE_CLOCK_START} [loket] second\n  at the next line\n`,
    );
    expect(statSync(log.path).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('keeps loket.log and two older generations, each within the cap; the oldest lines are dropped', () => {
    const { log } = newLog({ maxBytes: 1000, generations: 3 });
    const line = (n: number) => `entry ${String(n).padStart(4, '0')} ${'x'.repeat(60)}`;
    for (let n = 0; n < 100; n++) {
      log.write(line(n));
      log.flush();
    }
    const files = [log.path, `${log.path}.1`, `${log.path}.2`];
    for (const file of files) expect(statSync(file).size).toBeLessThanOrEqual(1000);
    expect(existsSync(`${log.path}.3`)).toBe(false);
    const all = files.reverse().map(read).join('');
    // The newest entries, in order, and no gap between the generations.
    const kept = [...all.matchAll(/entry (\d{4})/g)].map((m) => Number(m[1]));
    expect(kept.at(-1)).toBe(99);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 100 - kept.length + i));
    expect(kept.length).toBeGreaterThan(24);
    expect(kept[0]).toBeGreaterThan(0);
  });

  it('follows a rotation made by another process sharing the data folder instead of rotating again', () => {
    const { log } = newLog({ maxBytes: 300, generations: 3 });
    log.write('a'.repeat(200));
    log.flush();
    // The other process rotated: our file is now loket.log.1, and loket.log is new.
    renameSync(log.path, `${log.path}.1`);
    writeFileSync(log.path, 'other process\n');
    log.write('b'.repeat(200));
    log.flush();
    expect(read(log.path)).toMatch(/^other process\n.* b{200}\n$/);
    expect(read(`${log.path}.1`)).toMatch(/ a{200}\n$/);
    expect(existsSync(`${log.path}.2`)).toBe(false);
  });

  it('cuts a runaway entry rather than let it flush out the whole log', () => {
    const { log } = newLog();
    log.write('y'.repeat(100_000));
    log.flush();
    expect(read(log.path).length).toBeLessThan(17_000);
    expect(read(log.path)).toContain('… (cut)');
  });

  it('when it cannot be written, says so once on the console and goes on without it', () => {
    const warnings: string[] = [];
    const parent = tempDir('loket-log-');
    dirs.push(parent);
    writeFileSync(join(parent.path, 'data'), 'a file where the data folder should be');
    const log = new LogFile(join(parent.path, 'data'), { warn: (line) => warnings.push(line) });
    logs.push(log);
    log.write('one');
    expect(() => log.flush()).not.toThrow();
    log.write('two');
    log.flush();
    expect(log.writable).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/the log file .*loket\.log cannot be written \(E[A-Z]+\); going on without it/);
  });

  it('gets what the console gets, while the console still gets it; the undo puts the console back', async () => {
    const { log } = newLog();
    const printed: unknown[][] = [];
    const target = { error: (...args: unknown[]) => printed.push(args) } as unknown as Console;
    const undo = log.captureConsole(['error'], target);
    target.error('[orders] %s failed:', 'LK-1', new Error('disk I/O error'));
    expect(printed).toHaveLength(1);
    undo();
    target.error('not captured');
    await nextTurn();
    const text = read(log.path);
    expect(text).toContain('[orders] LK-1 failed: Error: disk I/O error');
    expect(text).toMatch(/\n\s+at /); // the stack, for the details
    expect(text).not.toContain('not captured');
    expect(printed).toHaveLength(2);
  });
});

describe('no secret in the log', () => {
  it('a remembered secret is cut out wherever it appears', () => {
    rememberSecret('appkey-7f3e9a1c5b2d4e6f');
    expect(redactSecrets('gateway said: bad key appkey-7f3e9a1c5b2d4e6f (again: appkey-7f3e9a1c5b2d4e6f)')).toBe(
      'gateway said: bad key [redacted] (again: [redacted])',
    );
  });

  it('a field named like a secret has its value cut out, whatever it holds', () => {
    const cases: [string, string][] = [
      ['GET /api/events?token=abc123def456', 'GET /api/events?token=[redacted]'],
      [
        'http://127.0.0.1:5173/#/display?key=K3y-v4lue&lang=id',
        'http://127.0.0.1:5173/#/display?key=[redacted]&lang=id',
      ],
      ['appkey=s3cr3t&appid=loket', 'appkey=[redacted]&appid=loket'],
      ['{"name":"Bu Sri","pin":"97531864"}', '{"name":"Bu Sri","pin":"[redacted]"}'],
      ["{ name: 'Bu Sri', pin: '97531864' }", "{ name: 'Bu Sri', pin: '[redacted]' }"],
      ['{"appkey":"a\\"b","signing_secret":"x"}', '{"appkey":"[redacted]","signing_secret":"[redacted]"}'],
      ['authorization: Bearer tok3n-value', 'authorization: Bearer [redacted]'],
    ];
    for (const [text, redacted] of cases) expect(redactSecrets(text)).toBe(redacted);
    // Words that only contain such a name are left alone.
    expect(redactSecrets('monkey=1 tokenizer: ok, "pinned":"yes"')).toBe('monkey=1 tokenizer: ok, "pinned":"yes"');
  });

  it('every line written passes the redaction', async () => {
    const { log } = newLog();
    rememberSecret('display-key-0a1b2c3d4e5f');
    log.write('web: display-key-0a1b2c3d4e5f refused; {"pin":"13572468"}');
    await nextTurn();
    expect(read(log.path)).toContain('web: [redacted] refused; {"pin":"[redacted]"}');
    expect(read(log.path)).not.toMatch(/display-key-0a1b2c3d4e5f|13572468/);
  });

  it('the data folder is created for it when missing', async () => {
    const parent = tempDir('loket-log-');
    dirs.push(parent);
    const log = new LogFile(join(parent.path, 'a', 'b'));
    logs.push(log);
    log.write('hello');
    await nextTurn();
    expect(read(join(parent.path, 'a', 'b', LOG_FILE_NAME))).toMatch(/ hello\n$/);
  });

  it('known secrets pushed through the console, a direct line and a crash never reach the data folder', async () => {
    const parent = tempDir('loket-log-');
    dirs.push(parent);
    const data = join(parent.path, 'data');
    const canaries = ['canary-appkey-5e1f0c2a9b8d', 'canary-signing-3c4d5e6f7a8b', '86420975'];
    const child = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const p = spawn(process.execPath, ['--import', 'tsx', CANARY_CHILD, data, ...canaries], {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      p.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      p.on('exit', (code) => resolve({ code, stderr }));
    });
    // The crash ended it as an uncaught error does (and Node printed it, secret and all, on its own console).
    expect(child.code).toBe(1);
    const text = read(join(data, LOG_FILE_NAME));
    expect(text).toContain('[orders] the gateway refused appkey [redacted]');
    expect(text).toContain("[manager] unlock failed for { name: 'Bu Sri', pin: '[redacted]' }");
    expect(text).toContain('[shell] signing with [redacted]');
    expect(text).toContain('[loket] request body {"appkey":"[redacted]","pin":"[redacted]"}');
    expect(text).toMatch(/\[uncaughtException\] Error: boom while signing with \[redacted\]\n\s+at /);
    for (const file of readdirSync(data)) {
      const bytes = readFileSync(join(data, file));
      for (const canary of canaries) expect(bytes.includes(canary), `${canary} in ${file}`).toBe(false);
    }
  });
});

/** This process's environment without LOKET_*, with `extra`. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('LOKET_')) env[name] = value;
  return { ...env, ...extra };
}

describe('the hosts write it', () => {
  it('the command line: an unexpected error goes to the log whole, and its message says where', async () => {
    const parent = tempDir('loket-log-');
    dirs.push(parent);
    const data = join(parent.path, 'data');
    writeFileSync(join(parent.path, 'catalogue.json'), '{"not":"a list"}');
    const env = cleanEnv({ LOKET_DATA_DIR: data, LOKET_CATALOGUE: join(parent.path, 'catalogue.json') });
    const failed = await runCli(['order', 'create', '--method', 'qris_dynamic', '--amount', '1000', '--item', 'x'], {
      env,
    });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`(the log has the details: ${join(data, LOG_FILE_NAME)})`);
    const text = read(join(data, LOG_FILE_NAME));
    expect(text).toMatch(
      /^\S+Z \[cli\] order failed: Error: .*catalogue\.json is not a valid payment-method catalogue/,
    );
    expect(text).toMatch(/\n\s+at /);
    // A refused input is not unexpected: nothing to look up in the log.
    const refused = await runCli(['order', 'create', '--amount', 'lots'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).not.toContain('the log');
    expect(read(join(data, LOG_FILE_NAME))).toBe(text);
  });

  it('browser mode: its lines go to the log, named at start; the token and the display key never do', async () => {
    // serve needs the built screens (npm run serve builds them first; a clean clone has none yet).
    execFileSync(process.execPath, ['scripts/build-if-changed.mjs', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
    const parent = tempDir('loket-log-');
    dirs.push(parent);
    const data = join(parent.path, 'data');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', 'serve', '--port', '0', '--quiet'], {
      cwd: ROOT,
      env: cleanEnv({ LOKET_DATA_DIR: data }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (c: string) => {
          out += c;
          if (/^log: .*\n/m.test(out)) resolve();
        });
        void exited.then((code) => reject(new Error(`serve ended (${code}) before it was ready: ${out}`)));
      });
      const seen = (name: string) => new RegExp(`^${name}: +(\\S+)$`, 'm').exec(out)![1]!;
      expect(seen('log')).toBe(join(data, LOG_FILE_NAME));
      const cashier = new URL(seen('cashier'));
      const token = new URLSearchParams(cashier.hash.split('?')[1]).get('token')!;
      const displayKey = new URLSearchParams(new URL(seen('display')).hash.split('?')[1]).get('key')!;
      // Use both, right and wrong, as screens and strangers do.
      const call = (auth: string) =>
        fetch(`${cashier.origin}/api/call/appInfo`, {
          method: 'POST',
          headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
          body: '{"args":[]}',
        });
      expect((await call(token)).status).toBe(200);
      expect((await call(`${token}x`)).status).toBe(401);
      expect((await fetch(`${cashier.origin}/display/state?key=${displayKey}`)).status).toBe(200);
      child.kill('SIGTERM');
      await exited;
      const text = read(join(data, LOG_FILE_NAME));
      expect(text).toMatch(/ \[loket\] web: serving /);
      for (const file of listFiles(data)) {
        const bytes = readFileSync(file);
        expect(bytes.includes(token), `the token in ${file}`).toBe(false);
        expect(bytes.includes(displayKey), `the display key in ${file}`).toBe(false);
      }
    } finally {
      child.kill('SIGKILL');
    }
  }, 300_000);
});

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}
