import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startSandbox, SANDBOX_DEFAULTS, type SandboxHandle } from '../../src-main/sandbox/server';
import { tempDir } from './helpers/loket';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CANARY = 'CANARY-appkey-7f3c9e1d5b';
// One gateway for the file; each test has a data folder, a transcript and a gateway log of its own and makes the
// orders it needs, so any one runs alone and in any order.
let sandboxLog: string[] = [];
let sandbox: SandboxHandle;
let dir: { path: string; remove(): void };
let transcript: string[] = [];

async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const fullEnv = {
    ...process.env,
    LOKET_DATA_DIR: dir.path,
    LOKET_GATEWAY_URL: sandbox.url,
    LOKET_APP_ID: SANDBOX_DEFAULTS.appId,
    LOKET_APP_KEY: CANARY,
    LOKET_INQUIRY_PATH: '/api/status',
    ...env,
  };
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src-main/cli.ts', ...args],
      { cwd: root, env: fullEnv, encoding: 'utf8' },
    );
    transcript.push(stdout, stderr);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    transcript.push(e.stdout, e.stderr);
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, appKey: CANARY, log: (l) => sandboxLog.push(l) });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  dir = tempDir('loket-cli-');
  transcript = [];
  sandboxLog = [];
  sandbox.faults.clear();
});
afterEach(() => dir.remove());

/** An order awaiting payment, created from the command line: its id. */
async function anOrder(amount = 150000): Promise<string> {
  const r = await cli([
    'order',
    'create',
    '--method',
    'qris_dynamic',
    '--amount',
    String(amount),
    '--item',
    'Beras',
    '--json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { id: string }).id;
}

// Each test runs the CLI several times, a second or more each (tsx compiles it at every start).
describe('npm run cli -- order/orders/reconcile', { timeout: 120_000 }, () => {
  it("order create --json prints the stored order with its state and the gateway's payment data; exit 0", async () => {
    const r = await cli([
      'order',
      'create',
      '--method',
      'va_bca',
      '--amount',
      '150000',
      '--item',
      'Beras 10 kg',
      '--customer-name',
      'Siti Rahayu',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const order = JSON.parse(r.stdout);
    const atGateway = sandbox.orders.get(order.id)!;
    expect(order).toMatchObject({ state: 'awaiting_payment', amount: 150000, methodId: 'va_bca', training: false });
    expect(order.instruction).toMatchObject({
      type: 'virtual_account',
      va: atGateway.payment.va,
      customer_name: 'Siti Rahayu',
    });
    expect(order.instruction.expired_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('V1 prints the payment page URL', async () => {
    const r = await cli([
      'order',
      'create',
      '--method',
      'qris_dynamic',
      '--amount',
      '5000',
      '--item',
      'Permen',
      '--api',
      'v1',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`${sandbox.url}/api/order/${SANDBOX_DEFAULTS.appId}/[0-9a-f]{32}`));
  });

  it('invalid input: exit 2 and the field named; nothing sent', async () => {
    const before = sandbox.orders.all().length;
    const missing = await cli(['order', 'create', '--method', 'va_bca', '--amount', '150000', '--item', 'Beras']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('customer_name: is required for va_bca');
    const amount = await cli(['order', 'create', '--method', 'qris_dynamic', '--amount', '1.5', '--item', 'Kopi']);
    expect(amount.code).toBe(2);
    expect(amount.stderr).toContain('--amount: a whole number of rupiah');
    const long = await cli([
      'order',
      'create',
      '--method',
      'qris_dynamic',
      '--amount',
      '1000',
      '--item',
      'x'.repeat(26),
    ]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('item_name: at most 25 characters (got 26)');
    expect(sandbox.orders.all().length).toBe(before);
  });

  it('rejected by the gateway: exit 3 with retcode and message (wrong appkey)', async () => {
    const r = await cli(['order', 'create', '--method', 'qris_dynamic', '--amount', '1000', '--item', 'Kopi'], {
      LOKET_APP_KEY: `${CANARY}-wrong`,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('retcode 1003');
    expect(r.stdout).toContain('rejected');
  });

  it('outcome unknown: exit 4, then reconcile resolves it (exit 0)', async () => {
    // Two requests: the create and the quick inquiry right after it both lose their answer.
    sandbox.faults.set({ latency_ms: 0, http_status: null, drop_after_store: true, malformed_json: false, count: 2 });
    const r = await cli(['order', 'create', '--method', 'qris_dynamic', '--amount', '2000', '--item', 'Teh', '--json']);
    expect(r.code).toBe(4);
    const { order, failure } = JSON.parse(r.stdout);
    expect(failure.class).toBe('unknown');
    expect(order.state).toBe('unknown');
    const rec = await cli(['reconcile']);
    expect(rec.code).toBe(0);
    expect(rec.stdout).toContain(order.id);
    const shown = JSON.parse((await cli(['order', 'show', order.id, '--json'])).stdout);
    expect(shown.state).toBe('awaiting_payment');
    expect(shown.events.map((e: { to?: string }) => e.to)).toEqual(['creating', 'unknown', 'awaiting_payment']);
  });

  it('not sent: exit 4 and says it is safe to try again', async () => {
    const r = await cli(['order', 'create', '--method', 'qris_dynamic', '--amount', '2000', '--item', 'Teh'], {
      LOKET_GATEWAY_URL: 'http://127.0.0.1:9',
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('not sent');
  });

  it('order pay/cancel need a reason, are audited, and refuse illegal changes', async () => {
    const paidId = await anOrder();
    expect((await cli(['order', 'pay', paidId])).code).toBe(2);
    const pay = await cli(['order', 'pay', paidId, '--reason', 'seen in the bank app', '--actor', 'mgr-ani']);
    expect(pay.code).toBe(0);
    const shown = JSON.parse((await cli(['order', 'show', paidId, '--json'])).stdout);
    expect(shown.state).toBe('paid');
    expect(shown.events.at(-1)).toMatchObject({ source: 'manager', actor: 'mgr-ani', reason: 'seen in the bank app' });
    const cancel = await cli(['order', 'cancel', paidId, '--reason', 'changed mind']);
    expect(cancel.code).toBe(2);
    expect(cancel.stderr).toContain('is paid; only an order that is unknown or awaiting_payment can become cancelled');
  });

  it('orders list filters by store day and state', async () => {
    const paidId = await anOrder();
    await anOrder(2000);
    expect((await cli(['order', 'pay', paidId, '--reason', 'seen in the bank app'])).code).toBe(0);
    const all = JSON.parse((await cli(['orders', 'list', '--json'])).stdout) as { state: string }[];
    expect(all).toHaveLength(2);
    const paid = JSON.parse((await cli(['orders', 'list', '--state', 'paid', '--json'])).stdout) as { id: string }[];
    expect(paid.map((o) => o.id)).toEqual([paidId]);
    const otherDay = JSON.parse((await cli(['orders', 'list', '--date', '2020-01-01', '--json'])).stdout);
    expect(otherDay).toEqual([]);
    expect((await cli(['orders', 'list', '--state', 'bogus'])).code).toBe(2);
  });

  it('with no gateway configured it runs the embedded sandbox: a training order', async () => {
    const r = await cli(
      [
        'order',
        'create',
        '--method',
        'airtime_telkomsel',
        '--amount',
        '10000',
        '--item',
        'Pulsa',
        '--phone',
        '081234567890',
      ],
      { LOKET_GATEWAY_URL: '', LOKET_APP_ID: '', LOKET_APP_KEY: '' },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[SANDBOX]');
    expect(r.stdout).toMatch(/Pay: send SMS "BAYAR \d{6}" to 99899 from 081234567890/);
    const id = /^Order (\S+)/m.exec(r.stdout)![1]!;
    // Training never writes into the store's books: its orders have a database of their own.
    const training = JSON.parse(
      (await cli(['orders', 'list', '--json'], { LOKET_GATEWAY_URL: '', LOKET_APP_ID: '', LOKET_APP_KEY: '' })).stdout,
    ) as { id: string; training: boolean }[];
    expect(training.map((o) => o.id)).toEqual([id]);
    expect(training[0]!.training).toBe(true);
    const live = JSON.parse((await cli(['orders', 'list', '--json'])).stdout) as { id: string }[];
    expect(live.map((o) => o.id)).not.toContain(id);
    expect(readdirSync(join(dir.path, 'training'))).toContain('loket.db');
  });

  it('secret canary: the appkey is in no SQLite file, no CLI output and no sandbox log line', async () => {
    // An order, a refusal of bad input, a manager's change and the listings: what writes the log and prints.
    const id = await anOrder();
    expect((await cli(['order', 'create', '--method', 'qris_dynamic', '--amount', '0', '--item', 'X'])).code).toBe(2);
    expect((await cli(['order', 'pay', id, '--reason', 'seen in the bank app'])).code).toBe(0);
    expect((await cli(['order', 'show', id, '--json'])).code).toBe(0);
    expect((await cli(['orders', 'list'])).code).toBe(0);
    const files = readdirSync(dir.path).filter((f) => f.startsWith('loket.db'));
    expect(files).toContain('loket.db');
    for (const f of files) expect(readFileSync(join(dir.path, f)).includes(CANARY), f).toBe(false);
    expect(transcript.length).toBeGreaterThanOrEqual(10);
    expect(transcript.join('\n').includes(CANARY)).toBe(false);
    expect(sandboxLog.length).toBeGreaterThan(0);
    expect(sandboxLog.join('\n').includes(CANARY)).toBe(false);
  });
});
