// A gateway that echoes Loket's secrets back (docs/orders.md, "The order log": secrets are never kept): the appkey
// and the signing secret, sent in headers, come back in a refusal's message, in an extra field of an answer (also
// written with JSON escapes), and in a status inquiry. None of it may reach the order log, its events, the CLI's
// output (`order create`, `order show`), the CSV export or a backup. Real parts: a misbehaving gateway of this
// test's own on 127.0.0.1:0, the real CLI in a child process, a real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { tempDir } from './helpers/loket';

const root = fileURLToPath(new URL('../..', import.meta.url));
const APPKEY = 'ECHO-appkey-5e1f0c3a9b27';
const SECRET = 'ECHO-signing-secret-8d4b6a';
/** Every character as a JSON \u escape: the same text after JSON.parse, other bytes on the wire. */
const escaped = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

let server: Server;
let url = '';
const dir = tempDir('loket-echo-');
const transcript: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = String(req.headers.appkey ?? '');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const send = (status: number, text: string) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(text);
      if (req.url === '/api/status') {
        return send(
          200,
          JSON.stringify({
            success: true,
            retcode: '0000',
            message: `ok for ${key} signed with ${SECRET}`,
            data: {
              merchant_transaction_id: body.merchant_transaction_id,
              status: 'PENDING',
              amount: body.amount ?? 0,
              echo: key,
            },
          }),
        );
      }
      if (body.item_name === 'Refuse me') {
        return send(400, JSON.stringify({ success: false, retcode: '1003', message: `appkey ${key} is not valid` }));
      }
      // Accepted, with the keys in extra fields: once plainly, once as JSON escapes.
      return send(
        200,
        `{"success":true,"retcode":"0000","message":"ok","qrString":"00020101021226","qrisUrl":"http://127.0.0.1/q.png",` +
          `"back_url":"http://127.0.0.1/b","debug":"key=${key}","trace":"${escaped(SECRET)}"}`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  dir.remove();
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    LOKET_DATA_DIR: dir.path,
    LOKET_GATEWAY_URL: url,
    LOKET_APP_ID: 'echo-app',
    LOKET_APP_KEY: APPKEY,
    LOKET_SIGN_WITH: 'secret',
    LOKET_SIGNING_SECRET: SECRET,
    LOKET_INQUIRY_PATH: '/api/status',
  };
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src-main/cli.ts', ...args],
      {
        cwd: root,
        env,
        encoding: 'utf8',
      },
    );
    transcript.push(stdout, stderr);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    transcript.push(e.stdout, e.stderr);
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function expectNoSecret(text: string, where: string): void {
  for (const secret of [APPKEY, SECRET]) expect(text.includes(secret), `${where} holds ${secret}`).toBe(false);
}

describe('a gateway that echoes the appkey and the signing secret', () => {
  it('stores, shows and exports none of them: refusal message, rejection column, answer, inquiry, order show, CSV, backup', async () => {
    const refused = await cli([
      'order',
      'create',
      '--method',
      'qris_dynamic',
      '--amount',
      '5000',
      '--item',
      'Refuse me',
      '--json',
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stdout + refused.stderr).toContain('[redacted]');
    const refusedId = /T\w*-\d{8}-\d{9}-\w{4}/.exec(refused.stdout + refused.stderr)?.[0];
    expect(refusedId).toBeDefined();

    const accepted = await cli([
      'order',
      'create',
      '--method',
      'qris_dynamic',
      '--amount',
      '6000',
      '--item',
      'Kopi',
      '--json',
    ]);
    expect(accepted.code).toBe(0);
    const acceptedId = (JSON.parse(accepted.stdout) as { id: string }).id;

    // The inquiry's answer is kept in the order's events (reconcile asks about unknown orders; a check asks too).
    const shown = await cli(['order', 'show', refusedId!, '--json']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('[redacted]');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const csv = await cli([
      'export',
      '--date',
      day(-1),
      '--to',
      day(1),
      '--format',
      'csv',
      '--out',
      join(dir.path, 'x.csv'),
    ]);
    expect(csv.code, csv.stderr).toBe(0);
    expect((await cli(['backup'])).code).toBe(0);

    for (const text of transcript) expectNoSecret(text, 'the CLI output');
    expectNoSecret(readFileSync(join(dir.path, 'x.csv'), 'utf8'), 'the CSV export');
    const db = new Database(join(dir.path, 'loket.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT * FROM orders').all();
      const events = db.prepare('SELECT * FROM order_events').all();
      expect(rows.length).toBe(2);
      const rejected = db.prepare('SELECT rejection_message AS m FROM orders WHERE id = ?').get(refusedId) as {
        m: string;
      };
      expect(rejected.m).toContain('[redacted]');
      const answer = db.prepare('SELECT response_body AS b FROM orders WHERE id = ?').get(acceptedId) as { b: string };
      expect(answer.b).toContain('[redacted]');
      expectNoSecret(JSON.stringify(rows), 'the orders table');
      expectNoSecret(JSON.stringify(events), 'the order events');
    } finally {
      db.close();
    }
    const backups = readdirSync(join(dir.path, 'backups')).filter((f) => f.endsWith('.db'));
    expect(backups.length).toBeGreaterThan(0);
    for (const file of backups) expectNoSecret(readFileSync(join(dir.path, 'backups', file)).toString('latin1'), file);
  }, 120_000);

  it("the status inquiry's answer reaches Loket without them (what reconcile, polling and checks store)", async () => {
    const { openLoket } = await import('../../src-main/runtime');
    const loket = await openLoket({
      dataDir: dir.path,
      env: {
        LOKET_GATEWAY_URL: url,
        LOKET_APP_ID: 'echo-app',
        LOKET_APP_KEY: APPKEY,
        LOKET_SIGN_WITH: 'secret',
        LOKET_SIGNING_SECRET: SECRET,
        LOKET_INQUIRY_PATH: '/api/status',
      },
    });
    try {
      const answer = await loket.client.inquire('T1-20250101-000000000-ABCD');
      expect(answer.ok).toBe(true);
      if (answer.ok) {
        expectNoSecret(answer.raw, 'the inquiry answer');
        expect(answer.raw).toContain('[redacted]');
      }
    } finally {
      await loket.close();
    }
  });
});
