// The command line when the order log fails: backup and restore, and every command that reads the log refusing
// a damaged one with the same message (exit 6) instead of reporting all clear (docs/when-things-break.md).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeSync, existsSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';
import { runCli } from './helpers/cli-child';
import { gatewayEnv, tempDir } from './helpers/loket';

// One gateway for the file; each test has a data folder of its own and makes what it needs (a log with an order and
// its backup, a damaged log), so any one runs alone and in any order.
let gateway: SandboxHandle;
let dir: { path: string; remove(): void };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  gateway = await startSandbox({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await gateway?.close();
});
beforeEach(() => {
  dir = tempDir('loket-cli-backup-');
  env = { PATH: process.env.PATH, HOME: dir.path, LOKET_DATA_DIR: join(dir.path, 'data'), ...gatewayEnv(gateway) };
});
afterEach(() => dir.remove());

const create = (n: number) =>
  runCli(
    ['order', 'create', '--method', 'qris_dynamic', '--amount', String(1000 + n), '--item', `Kopi ${n}`, '--json'],
    {
      env,
    },
  );

/** A log with one order, and its backup: the backup's path. */
async function backedUp(): Promise<string> {
  expect((await create(1)).code).toBe(0);
  const made = await runCli(['backup', '--json'], { env });
  expect(made.code, made.stderr).toBe(0);
  return (JSON.parse(made.stdout) as { path: string }).path;
}

/** Every page of the log but the header's overwritten: no reading around the damage. */
function damageLog(): string {
  const file = join(dir.path, 'data', 'loket.db');
  const size = statSync(file).size;
  const fd = openSync(file, 'r+');
  for (let offset = 4096; offset < size; offset += 4096) writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, offset);
  closeSync(fd);
  return file;
}

// Each test runs the CLI a few times, a second or more each (tsx compiles it at every start).
describe('backup and restore from the command line', { timeout: 90_000 }, () => {
  it('backup writes a private file into backups/ and backup list shows it', async () => {
    const backupFile = await backedUp();
    expect(backupFile.startsWith(join(dir.path, 'data', 'backups'))).toBe(true);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    const listed = await runCli(['backup', 'list'], { env });
    expect(listed.stdout).toContain(backupFile);
  });

  it('a damaged log: orders list, reconcile and order create all exit 6 with the message, and nothing is sent', async () => {
    await backedUp();
    const sent = gateway.orders.all().length;
    const file = damageLog();
    for (const args of [
      ['orders', 'list'],
      ['reconcile'],
      ['order', 'create', '--method', 'qris_dynamic', '--amount', '5000', '--item', 'Teh'],
    ]) {
      const result = await runCli(args, { env });
      expect(result.code, args.join(' ')).toBe(6);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toMatch(/damaged/);
      expect(result.stderr).toMatch(/restore/);
      expect(result.stdout).not.toMatch(/0 unknown order/);
    }
    expect(gateway.orders.all()).toHaveLength(sent);
  });

  it('restore puts the backup back, keeps the damaged file aside, and the log works again', async () => {
    const backupFile = await backedUp();
    damageLog();
    const restored = await runCli(['restore', backupFile], { env });
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/\(1 orders\)/);
    const aside = readdirSync(join(dir.path, 'data')).filter((f) => /^loket\.db\.aside-\d{8}-\d{9}$/.test(f));
    expect(aside).toHaveLength(1);
    expect(existsSync(join(dir.path, 'data', aside[0]!))).toBe(true);
    const listed = await runCli(['orders', 'list', '--json'], { env });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
    expect((await create(2)).code).toBe(0);
  });

  it('restore refuses while the current log has an order awaiting payment (exit 2), unless --force', async () => {
    const backupFile = await backedUp();
    expect((await create(2)).code).toBe(0);
    const refused = await runCli(['restore', backupFile], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/open order/);
    const forced = await runCli(['restore', backupFile, '--force'], { env });
    expect(forced.code, forced.stderr).toBe(0);
  });
});
