// One process writes a data folder (docs/cli.md, "Who writes the data folder"; docs/when-things-break.md): a Loket
// running in a child process with a charge in flight, and the command line beside it. Readers read without
// writing; every other writer — a second app, reconcile, order create, restore — is refused, naming the process
// that holds the folder; the lock dies with its process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChargeResult } from '../../src-main/common/api';
import type { Order, OrderEvent } from '../../src-main/common/order';
import { dayIn } from '../../src-main/common/gateway-time';
import { FolderBusyError, LOCK_OWNER_FILE, lockDataFolder, readOwner } from '../../src-main/db/folder-lock';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { runCli } from './helpers/cli-child';
import { EXIT } from '../../src-main/cli/exit-codes';
import { runOrderCommand } from '../../src-main/cli/order-commands';
import { runAttentionCommand, runCloseDayCommand, runReportCommand } from '../../src-main/cli/report-commands';
import { runAuditCommand, runStaffCommand } from '../../src-main/cli/staff-commands';
import { runConfigCommand } from '../../src-main/cli/config-commands';
import { holdingGateway, type HoldingGateway } from './helpers/holding-gateway';
import { gatewayEnv, tempDir } from './helpers/loket';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let sandbox: SandboxHandle;
let door: HoldingGateway;
const dir = tempDir('loket-lock-');

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0 });
  door = await holdingGateway(sandbox.url);
});
afterAll(async () => {
  await door?.close();
  await sandbox?.close();
  dir.remove();
});

/** The environment of a CLI run or a holder on the data folder `name`, against the gateway behind the door. */
function envFor(name: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dir.path,
    LOKET_DATA_DIR: join(dir.path, name),
    // The charge waits at the door for as long as the test holds it: no timeout of the client's ends it first.
    ...gatewayEnv(sandbox, { LOKET_GATEWAY_URL: door.url, LOKET_TIMEOUT_MS: '600000' }),
  };
}

interface Holder {
  pid: number;
  ready: Promise<void>;
  /** The charge's answer, once `charge` was sent and it came. */
  result: Promise<ChargeResult>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>;
  send(line: 'charge' | 'stop'): void;
  kill(): void;
}

/** The app host in a child process holding the data folder (test/node/fixtures/holder-child.ts). */
function startHolder(env: NodeJS.ProcessEnv): Holder {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/node/fixtures/holder-child.ts'], {
    cwd: ROOT,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let onReady: () => void = () => undefined;
  let onResult: (r: ChargeResult) => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const result = new Promise<ChargeResult>((resolve) => (onResult = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (/^READY$/m.test(stdout)) onReady();
    const m = /^RESULT (.*)$/m.exec(stdout);
    if (m) onResult(JSON.parse(m[1]!) as ChargeResult);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout: stdout + stderr })),
  );
  const started = Promise.race([
    ready,
    exit.then(({ stdout: out }) => {
      throw new Error(`the holder ended before it was ready: ${out}`);
    }),
  ]);
  started.catch(() => undefined); // a holder expected to be refused is never awaited as ready
  return {
    pid: child.pid!,
    ready: started,
    result,
    exit,
    send: (line) => child.stdin.write(`${line}\n`),
    kill: () => child.kill('SIGKILL'),
  };
}

const showJson = async (env: NodeJS.ProcessEnv, id: string) => {
  const shown = await runCli(['order', 'show', id, '--json'], { env });
  expect(shown.code, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout) as Order & { events: OrderEvent[] };
};

describe('one process writes a data folder', () => {
  it(
    'with a charge in flight in the app: readers see it creating and change nothing, every other writer is ' +
      "refused naming the app, and the gateway's answer still reaches the cashier",
    async () => {
      const env = envFor('in-flight');
      const holder = startHolder(env);
      let id = '';
      try {
        await holder.ready;
        holder.send('charge');
        const held = await door.arrived();
        id = (JSON.parse(held.body) as { merchant_transaction_id: string }).merchant_transaction_id;
        const day = dayIn(new Date(), 'Asia/Jakarta');
        const exported = join(dir.path, 'in-flight.csv');

        // Readers beside the app, as separate processes: each works, and none touches the order in flight.
        const [list, show] = await Promise.all([
          runCli(['orders', 'list', '--date', day, '--json'], { env }),
          runCli(['order', 'show', id, '--json'], { env }),
        ]);
        const [exportRun, backup] = await Promise.all([
          runCli(['export', '--date', day, '--out', exported], { env }),
          runCli(['backup', '--json'], { env }),
        ]);
        for (const [name, r] of Object.entries({ list, show, exportRun, backup }))
          expect(r.code, `${name}: ${r.stderr}`).toBe(0);
        expect((JSON.parse(list.stdout) as Order[]).find((o) => o.id === id)?.state).toBe('creating');
        expect((JSON.parse(show.stdout) as Order).state).toBe('creating');
        expect(list.stderr).not.toMatch(/interrupted/);
        expect(readFileSync(exported, 'utf8')).toMatch(new RegExp(`${id},[^\\r]*,creating,`));
        const backupFile = (JSON.parse(backup.stdout) as { path: string }).path;
        expect(existsSync(backupFile)).toBe(true);
        // The other reading commands, from this (third) process.
        const options = { env };
        const quiet = { out: () => undefined, err: () => undefined };
        expect(await runReportCommand(['--date', day, '--json'], options, quiet)).toBe(EXIT.OK);
        expect(await runAttentionCommand(['--json'], options, quiet)).toBe(EXIT.OK);
        expect(await runAuditCommand(['--json'], options, quiet)).toBe(EXIT.OK);
        expect(await runStaffCommand(['list', '--json'], options, quiet)).toBe(EXIT.OK);

        // Writers: refused at once (the command line exits 7), naming the app's process; nothing reaches the gateway.
        const atGateway = sandbox.orders.all().length;
        const logBefore = statSync(join(env.LOKET_DATA_DIR!, 'loket.db')).ino;
        const naming = `is in use by another Loket process: a Loket process (holder-child.ts) (process ${holder.pid}`;
        const writers = [
          ['reconcile'],
          ['order', 'create', '--method', 'qris_dynamic', '--amount', '5000', '--item', 'Teh'],
          ['restore', backupFile],
        ];
        const refused = await Promise.all(writers.map((args) => runCli(args, { env })));
        refused.forEach((r, i) => {
          const what = writers[i]!.join(' ');
          expect(r.code, `${what}: ${r.stderr}`).toBe(EXIT.FOLDER_IN_USE);
          expect(r.stderr, what).toContain(naming);
        });
        for (const write of [
          () => runOrderCommand(['cancel', id, '--reason', 'test: from another process'], options, quiet),
          () => runCloseDayCommand(['--date', day], options, quiet),
          () =>
            runAttentionCommand(['resolve', id, '--action', 'cancel', '--reason', 'test: elsewhere'], options, quiet),
          () => runConfigCommand(['set-store', '--name', 'Toko Lain'], options, quiet),
        ])
          await expect(write()).rejects.toThrow(naming);
        expect(sandbox.orders.all()).toHaveLength(atGateway);
        expect(statSync(join(env.LOKET_DATA_DIR!, 'loket.db')).ino).toBe(logBefore);

        // A second app (or serve) on the same folder does not start.
        const second = startHolder(env);
        const came = await Promise.race([
          second.exit.then((ended) => ({ ended })),
          second.ready.then(() => ({ started: true })),
        ]);
        if ('started' in came) {
          second.send('stop');
          await second.exit;
        }
        expect(came).toMatchObject({ ended: { code: 7, stdout: expect.stringContaining(naming) } });

        // The answer comes: the cashier gets the order, waiting for payment, with its QR.
        await door.release();
        const result = await holder.result;
        expect(result).toMatchObject({ ok: true, order: { id, state: 'awaiting_payment' } });
        expect(result.ok && result.order.instruction).toBeTruthy();
      } finally {
        // Nothing may wait at the door: the app finishes its charge before it closes.
        await door.release();
        holder.send('stop');
        await holder.exit;
      }

      // Its history is the app's alone: created, then answered; no "Loket stopped" from another process.
      const order = await showJson(env, id);
      expect(order.events.map((e) => [e.source, e.to])).toEqual([
        ['cashier', 'creating'],
        ['gateway', 'awaiting_payment'],
      ]);
      // Once the app has stopped, a writer takes the folder.
      const after = await runCli(['reconcile'], { env });
      expect(after.code, after.stderr).toBe(0);
    },
    180_000,
  );

  it(
    'the lock dies with its process: after a SIGKILL mid-charge, a reader still sees the order creating, and the ' +
      'next writer takes the folder and settles what the killed one left',
    async () => {
      const env = envFor('killed');
      const holder = startHolder(env);
      await holder.ready;
      holder.send('charge');
      const held = await door.arrived();
      const id = (JSON.parse(held.body) as { merchant_transaction_id: string }).merchant_transaction_id;
      holder.kill();
      expect((await holder.exit).signal).toBe('SIGKILL');
      // The request had reached the gateway; its answer goes nowhere.
      await door.release();

      expect((await showJson(env, id)).state).toBe('creating');
      const reconciled = await runCli(['reconcile', '--json'], { env });
      expect(reconciled.code, reconciled.stderr).toBe(0);
      expect(reconciled.stderr).toContain(`interrupted by a stop are now unknown: ${id}`);
      const order = await showJson(env, id);
      expect(order.state).toBe('awaiting_payment');
      expect(order.events.map((e) => [e.source, e.to])).toEqual([
        ['cashier', 'creating'],
        ['startup', 'unknown'],
        ['reconcile', 'awaiting_payment'],
      ]);
    },
    120_000,
  );
});

describe('the data folder lock', () => {
  it('is taken once: a second take in the same process is refused too, and release lets the next one in', () => {
    const folder = join(dir.path, 'unit-once');
    mkdirSync(folder, { recursive: true });
    const since = '2026-11-23T01:00:00.000Z';
    const first = lockDataFolder(folder, { command: 'npm run cli -- serve', since });
    try {
      expect(readOwner(folder)).toMatchObject({ pid: process.pid, command: 'npm run cli -- serve', since });
      expect(statSync(join(folder, LOCK_OWNER_FILE)).mode & 0o777).toBe(0o600);
      expect(() => lockDataFolder(folder, { command: 'npm run cli -- reconcile', since })).toThrow(FolderBusyError);
      expect(() => lockDataFolder(folder, { command: 'npm run cli -- reconcile', since })).toThrow(
        `in use by another Loket process: npm run cli -- serve (process ${process.pid}, since ${since})`,
      );
    } finally {
      first.release();
    }
    expect(existsSync(join(folder, LOCK_OWNER_FILE))).toBe(false);
    lockDataFolder(folder, { command: 'npm run cli -- reconcile', since }).release();
  });

  it('a holder whose words name a process that no longer runs is still refused, in words that do not name it', () => {
    const folder = join(dir.path, 'unit-stale');
    mkdirSync(folder, { recursive: true });
    const held = lockDataFolder(folder, { command: 'npm run cli -- serve', since: '2026-11-23T01:00:00.000Z' });
    try {
      // The words a killed holder left behind, still there while a new holder is starting.
      const dead = {
        pid: 2 ** 22 + 1, // above Linux's highest pid: never a running process
        host: readOwner(folder)!.host,
        command: 'old',
        since: 'then',
      };
      writeFileSync(join(folder, LOCK_OWNER_FILE), JSON.stringify(dead));
      expect(() => lockDataFolder(folder, { command: 'x', since: 'now' })).toThrow(
        'in use by another Loket process (it is starting, or did not say which it is)',
      );
    } finally {
      held.release();
    }
  });
});
