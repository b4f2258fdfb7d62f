/**
 * `npm run cli -- staff …`, `pin reset|set` and `audit` as child processes, on the default data folder of a
 * private HOME (helpers/private-keyring.ts): PINs from standard input or typed twice at a hidden prompt, never
 * from the command line; the last manager stays; `pin reset` is the recovery for a forgotten PIN, clears the
 * lockout, and is audited as the machine's account. No PIN appears in any output or any file in clear.
 */
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/adapters/env-secret-store';
import { openStoreBooks, type StoreBooks } from '../../src-main/runtime';
import { keyringDataDir, keyringEnv, runCli, runCliOnTerminal } from './helpers/cli-child';
import { startPrivateKeyring, type PrivateKeyring } from './helpers/private-keyring';

const ANI_PIN = '97531864';
const NEW_PIN = '86420975';
const BUDI_PIN = '31462857';
const CICI_PIN = '57319264';
const PINS = [ANI_PIN, NEW_PIN, BUDI_PIN, CICI_PIN];
const ME = `cli:${userInfo().username}`;
const LONG = 60_000;

let keyring: PrivateKeyring;
const transcript: string[] = [];
beforeAll(async () => {
  keyring = await startPrivateKeyring({ mode: 'unlocked' });
});
afterAll(async () => {
  await keyring?.stop();
});

const cli = (args: string[], input?: string) =>
  runCli(args, { env: keyringEnv(keyring), ...(input !== undefined ? { input } : {}), transcript });

interface Staff {
  id: number;
  name: string;
  role: string;
  active: boolean;
}
interface AuditEvent {
  actor: { name: string; source: string; staffId?: number };
  action: string;
  detail?: Record<string, unknown>;
}

async function staffList(all = false): Promise<Staff[]> {
  const r = await cli(['staff', 'list', '--json', ...(all ? ['--all'] : [])]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Staff[];
}

async function auditLog(): Promise<AuditEvent[]> {
  const r = await cli(['audit', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as AuditEvent[];
}

/** The store's books in this process, as the app holds them (no keychain needed here). */
async function withBooks<T>(fn: (store: StoreBooks) => Promise<T>): Promise<T> {
  const store = openStoreBooks({ dataDir: keyringDataDir(keyring), secrets: new MemorySecretStore('test') });
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

describe('staff and PINs from the command line', () => {
  it('no staff at first', async () => {
    const r = await cli(['staff', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no staff yet');
  });

  it(
    'staff add: a manager and a cashier, their PINs from standard input; audited as the machine account',
    async () => {
      const ani = await cli(['staff', 'add', '--name', 'Ani', '--role', 'manager', '--pin-stdin'], `${ANI_PIN}\n`);
      expect(ani.code, ani.stderr).toBe(0);
      expect(ani.stdout).toContain('added #1 Ani (manager)');
      expect(ani.stdout).toContain('Ani is the first manager');
      const budi = await cli(['staff', 'add', '--name', 'Budi', '--role', 'cashier', '--pin-stdin'], BUDI_PIN);
      expect(budi.code, budi.stderr).toBe(0);

      expect(await staffList()).toEqual([
        { id: 1, name: 'Ani', role: 'manager', active: true },
        { id: 2, name: 'Budi', role: 'cashier', active: true },
      ]);
      const text = await cli(['staff', 'list']);
      expect(text.stdout).toMatch(/#1\s+Ani\s+manager\n/);
      const added = (await auditLog()).filter((e) => e.action === 'staff.added');
      expect(added.map((e) => [e.actor, e.detail?.name])).toEqual([
        [{ name: ME, source: 'cli' }, 'Budi'],
        [{ name: ME, source: 'cli' }, 'Ani'],
      ]);
    },
    LONG,
  );

  it(
    'refuses a taken name, a bad role, a bad PIN, and a PIN on the command line; nothing added',
    async () => {
      const taken = await cli(['staff', 'add', '--name', 'ani', '--role', 'cashier', '--pin-stdin'], '2468');
      expect(taken.code).toBe(2);
      expect(taken.stderr).toContain('there is already a member of staff called Ani');
      const role = await cli(['staff', 'add', '--name', 'Dedi', '--role', 'boss', '--pin-stdin'], '2468');
      expect(role.code).toBe(2);
      const pin = await cli(['staff', 'add', '--name', 'Dedi', '--role', 'cashier', '--pin-stdin'], '12ab5\n');
      expect(pin.code).toBe(2);
      expect(pin.stderr).toContain('PIN: 4 to 8 digits');
      expect(pin.stderr).not.toContain('12ab5');
      const noTerminal = await cli(['staff', 'add', '--name', 'Dedi', '--role', 'cashier']);
      expect(noTerminal.code).toBe(2);
      expect(noTerminal.stderr).toContain('never from the command line');
      for (const args of [
        ['staff', 'add', '--name', 'Dedi', '--role', 'cashier', '--pin', ANI_PIN],
        ['staff', 'add', '--name', 'Dedi', '--role', 'cashier', `--pin=${ANI_PIN}`],
        ['pin', 'reset', 'Ani', ANI_PIN],
        ['pin', 'reset', ANI_PIN],
        ['staff', 'remove', ANI_PIN],
      ]) {
        const r = await cli(args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stdout + r.stderr, args.join(' ')).not.toContain(ANI_PIN);
      }
      expect((await staffList(true)).map((s) => s.name)).toEqual(['Ani', 'Budi']);
    },
    LONG,
  );

  it(
    'staff remove: never the last active manager (exit 2, in words); a cashier is deactivated, kept for the records',
    async () => {
      const last = await cli(['staff', 'remove', 'Ani']);
      expect(last.code).toBe(2);
      expect(last.stderr).toContain(
        'Ani is the only active manager and cannot be removed: make another member of staff a manager first',
      );
      expect((await staffList()).map((s) => s.name)).toEqual(['Ani', 'Budi']);

      const budi = await cli(['staff', 'remove', 'Budi']);
      expect(budi.code, budi.stderr).toBe(0);
      expect((await staffList()).map((s) => s.name)).toEqual(['Ani']);
      expect(await staffList(true)).toContainEqual({ id: 2, name: 'Budi', role: 'cashier', active: false });
      expect((await cli(['staff', 'remove', 'Budi'])).stdout).toContain('already removed');
      expect((await cli(['staff', 'remove', 'Nobody'])).code).toBe(2);
      expect((await auditLog()).find((e) => e.action === 'staff.removed')).toMatchObject({
        actor: { name: ME, source: 'cli' },
        detail: { staffId: 2, name: 'Budi' },
      });
    },
    LONG,
  );

  it(
    'pin reset: the recovery for a forgotten manager PIN; it clears the lockout and is audited',
    async () => {
      // Someone tried to guess Ani's PIN at the till (or Ani forgot it): the till is now locked out.
      const failures = await withBooks(async (store) => {
        for (const guess of ['11111111', '22222222', '33333333'])
          expect(await store.access.unlockManager(1, guess)).toMatchObject({ ok: false, reason: 'wrong_pin' });
        return store.access.lockout.failures();
      });
      expect(failures).toBe(3);

      const r = await cli(['pin', 'reset', 'Ani', '--pin-stdin'], `${NEW_PIN}\n`);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('new PIN set for Ani (manager)');
      expect(r.stdout).toContain('the PIN lockout is cleared (3 failed attempt(s) before)');

      await withBooks(async (store) => {
        expect(store.access.lockout.failures()).toBe(0);
        expect(await store.access.unlockManager(1, ANI_PIN)).toMatchObject({ ok: false, reason: 'wrong_pin' });
        expect(await store.access.unlockManager(1, NEW_PIN)).toMatchObject({ ok: true, staff: { name: 'Ani' } });
      });
      const reset = (await auditLog()).find((e) => e.action === 'pin.reset');
      expect(reset).toEqual(
        expect.objectContaining({
          actor: { name: ME, source: 'cli' },
          detail: { staffId: 1, name: 'Ani', lockoutCleared: true },
        }),
      );
      expect((await cli(['audit'])).stdout).toMatch(new RegExp(`${ME}\\s+pin\\.reset\\s+\\{"staffId":1,"name":"Ani"`));
    },
    LONG,
  );

  it(
    'pin set is the same command (an alias); a removed member of staff has no PIN to set',
    async () => {
      const r = await cli(['pin', 'set', 'Ani', '--pin-stdin'], ANI_PIN);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('the PIN lockout was clear');
      expect((await auditLog()).filter((e) => e.action === 'pin.reset')).toHaveLength(2);
      const removed = await cli(['pin', 'reset', 'Budi', '--pin-stdin'], BUDI_PIN);
      expect(removed.code).toBe(2);
      expect(removed.stderr).toContain('Budi is a former member of staff');
    },
    LONG,
  );

  it(
    'on a terminal: the PIN is asked twice, hidden; two different PINs change nothing',
    async () => {
      const env = keyringEnv(keyring);
      const ok = await runCliOnTerminal(['staff', 'add', '--name', 'Cici', '--role', 'manager'], {
        env,
        answers: [
          { prompt: /New PIN for Cici \(typing is not shown\): /, type: CICI_PIN },
          { prompt: /The same PIN again: /, type: CICI_PIN },
        ],
        transcript,
      });
      expect(ok.code, ok.output).toBe(0);
      expect(ok.output).toContain('added #3 Cici (manager)');
      expect(ok.output).not.toContain(CICI_PIN);

      const differ = await runCliOnTerminal(['staff', 'add', '--name', 'Dedi', '--role', 'cashier'], {
        env,
        answers: [
          { prompt: /New PIN for Dedi/, type: CICI_PIN },
          { prompt: /The same PIN again: /, type: BUDI_PIN },
        ],
        transcript,
      });
      expect(differ.code).toBe(2);
      expect(differ.output).toContain('the two PINs typed differ: nothing was changed');
      expect((await staffList()).map((s) => s.name)).toEqual(['Ani', 'Cici']);

      // With a second manager, the first can go.
      expect((await cli(['staff', 'remove', 'Ani'])).code).toBe(0);
      expect((await staffList()).map((s) => s.name)).toEqual(['Cici']);
    },
    LONG,
  );

  it('no PIN in any output, nor in any file in clear', () => {
    expect(transcript.length).toBeGreaterThan(30);
    const all = transcript.join('\n');
    for (const pin of PINS) {
      expect(all).not.toContain(pin);
      expect(keyring.filesContaining(pin)).toEqual([]);
    }
  });
});
