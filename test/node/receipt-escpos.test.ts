import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReceiptPrinterError, sendToNetworkPrinter } from '../../src-main/adapters/tcp-printer';
import type { Order } from '../../src-main/common/order';
import { CHARS_PER_LINE, renderEscPos, toPrinterText, wrapText } from '../../src-main/core/receipts/receipt-escpos';
import { FakeClock } from './helpers/fake-clock';
import { receiptContext, vaOrder } from './helpers/receipt-fixtures';
import { waitFor } from './helpers/wait-for';
import {
  buildReceipt,
  type PaperWidth,
  type Receipt,
  type ReceiptContext,
} from '../../src-main/core/receipts/receipt-model';

// ---------------------------------------------------------------------------------------------------------
// Golden files: test/node/golden/<name>.bin (the exact bytes) and <name>.txt (a readable dump for review).
// `UPDATE_GOLDEN=1 npx vitest run --config test/vitest.config.ts test/node/receipt-escpos` writes them; any
// other run only compares, and fails when a file differs or is missing.
// ---------------------------------------------------------------------------------------------------------

const GOLDEN_DIR = join(import.meta.dirname, 'golden');
const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

const ESC = 0x1b;
const GS = 0x1d;

/** A readable dump of ESC/POS bytes: the commands this renderer uses as <tags>, text as text. */
function describeEscPos(bytes: Buffer): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    const n = bytes[i + 2] ?? 0;
    const cmd = (name: string) => {
      out += `<${name}>`;
      i += 2;
    };
    if (b === ESC && bytes[i + 1] === 0x40) {
      out += '<init>';
      i += 1;
    } else if (b === ESC && bytes[i + 1] === 0x74) cmd(`codepage ${n}`);
    else if (b === ESC && bytes[i + 1] === 0x61) cmd(`align ${['left', 'center', 'right'][n] ?? n}`);
    else if (b === ESC && bytes[i + 1] === 0x21)
      cmd(`size ${{ 0: 'normal', 16: 'tall', 32: 'wide', 48: 'big' }[n] ?? n}`);
    else if (b === ESC && bytes[i + 1] === 0x45) cmd(`bold ${n ? 'on' : 'off'}`);
    else if (b === GS && bytes[i + 1] === 0x42) cmd(`invert ${n ? 'on' : 'off'}`);
    else if (b === ESC && bytes[i + 1] === 0x64) cmd(`feed ${n}`);
    else if (b === GS && bytes[i + 1] === 0x56) cmd(`cut ${n}`);
    else if (b === 0x0a) out += '\n';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `<${b.toString(16).padStart(2, '0')}>`;
  }
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** The printed lines, each with the columns it takes (double-width text takes two per character). */
function printedLines(bytes: Buffer): { text: string; columns: number }[] {
  const lines: { text: string; columns: number }[] = [];
  let text = '';
  let columns = 0;
  let wide = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (b === ESC && bytes[i + 1] === 0x40) {
      wide = false;
      i += 1;
    } else if (b === ESC || b === GS) {
      if (b === ESC && bytes[i + 1] === 0x21) wide = ((bytes[i + 2] ?? 0) & 0x20) !== 0;
      i += 2;
    } else if (b === 0x0a) {
      lines.push({ text, columns });
      text = '';
      columns = 0;
    } else {
      text += String.fromCharCode(b);
      columns += wide ? 2 : 1;
    }
  }
  return lines;
}

function firstDifference(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

/** Compares with (or, when `update`, writes) `<dir>/<name>.bin` and its readable `.txt`. Never creates a file otherwise. */
function checkGolden(dir: string, name: string, actual: Buffer, update: boolean): void {
  const bin = join(dir, `${name}.bin`);
  const txt = join(dir, `${name}.txt`);
  const shown = relative(process.cwd(), bin);
  if (update) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(bin, actual);
    writeFileSync(txt, describeEscPos(actual));
    return;
  }
  if (!existsSync(bin)) {
    throw new Error(`golden file ${shown} is missing: write it with UPDATE_GOLDEN=1 and review it before committing`);
  }
  const expected = readFileSync(bin);
  if (!expected.equals(actual)) {
    const at = firstDifference(expected, actual);
    throw new Error(
      `${shown} differs from the rendered bytes at byte ${at} (golden ${expected.length} bytes, rendered ${actual.length}).\n` +
        `golden:\n${describeEscPos(expected)}\nrendered:\n${describeEscPos(actual)}\n` +
        'If the change is intended, run with UPDATE_GOLDEN=1 and review the diff of the .txt.',
    );
  }
  if (!existsSync(txt) || readFileSync(txt, 'utf8') !== describeEscPos(actual)) {
    throw new Error(`${relative(process.cwd(), txt)} is missing or stale: run with UPDATE_GOLDEN=1`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The fixed receipts.
// ---------------------------------------------------------------------------------------------------------

// The golden files were written from this exact receipt: the instruction without expired_date.
const ORDER: Order = vaOrder({
  instruction: { type: 'virtual_account', va: '8808123456789012', customer_name: 'Budi Santoso' },
});
const CTX: ReceiptContext = receiptContext();

const GOLDEN: { name: string; paper: PaperWidth; receipt: () => Receipt }[] = [
  { name: 'receipt-paid-id-58', paper: 58, receipt: () => buildReceipt(ORDER, CTX) },
  { name: 'receipt-paid-id-80', paper: 80, receipt: () => buildReceipt(ORDER, CTX) },
  {
    name: 'receipt-copy-sandbox-id-58',
    paper: 58,
    receipt: () => buildReceipt(ORDER, { ...CTX, copy: true, training: true }),
  },
  {
    name: 'receipt-cancelled-en-80',
    paper: 80,
    receipt: () =>
      buildReceipt(
        { ...ORDER, state: 'cancelled', paidAt: undefined, latePayment: true },
        { ...CTX, lang: 'en', copy: true, training: true },
      ),
  },
];

const goldenBytes = (name: string) => {
  const file = join(GOLDEN_DIR, `${name}.bin`);
  if (!existsSync(file))
    throw new Error(`golden file ${relative(process.cwd(), file)} is missing: write it with UPDATE_GOLDEN=1`);
  return readFileSync(file);
};

describe('ESC/POS receipt', () => {
  it.each(GOLDEN)('$name equals its golden file byte for byte', ({ name, paper, receipt }) => {
    checkGolden(GOLDEN_DIR, name, renderEscPos(receipt(), { paper }), UPDATE_GOLDEN);
  });

  it.skipIf(UPDATE_GOLDEN)(
    'the golden check fails on any difference and on a missing file, and creates nothing',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'loket-golden-'));
      try {
        const bytes = renderEscPos(buildReceipt(ORDER, CTX), { paper: 58 });
        expect(() => checkGolden(dir, 'absent', bytes, false)).toThrow(/is missing/);
        expect(existsSync(join(dir, 'absent.bin'))).toBe(false);
        checkGolden(dir, 'present', bytes, true);
        expect(() => checkGolden(dir, 'present', bytes, false)).not.toThrow();
        const changed = Buffer.from(bytes);
        changed[100] = (changed[100] ?? 0) ^ 1;
        expect(() => checkGolden(dir, 'present', changed, false)).toThrow(
          /differs from the rendered bytes at byte 100/,
        );
        expect(() => checkGolden(dir, 'present', bytes.subarray(0, -1), false)).toThrow(/differs/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('starts with ESC @, ends with a cut, and is plain ASCII', () => {
    for (const { paper, receipt } of GOLDEN) {
      const bytes = renderEscPos(receipt(), { paper });
      expect([...bytes.subarray(0, 2)]).toEqual([ESC, 0x40]);
      expect(bytes.includes(Buffer.from([GS, 0x56, 0x00]))).toBe(true);
      expect([...bytes.subarray(-5)]).toEqual([GS, 0x56, 0x00, ESC, 0x40]);
      expect(bytes.every((b) => b < 0x80)).toBe(true);
    }
  });

  it('is deterministic: the same receipt gives the same bytes, whatever the clock says', () => {
    const receipt = buildReceipt(ORDER, { ...CTX, copy: true, training: true });
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2020-01-01T00:00:00Z'));
      const a = renderEscPos(receipt, { paper: 58 });
      vi.setSystemTime(new Date('2031-06-15T12:34:56Z'));
      const b = renderEscPos(receipt, { paper: 58 });
      expect(a.equals(b)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps every line within 32 columns on 58 mm and 48 on 80 mm, however long the text', () => {
    const long = buildReceipt(
      {
        ...ORDER,
        itemName: 'Paket nasi goreng spesial dengan telur mata sapi, kerupuk udang dan es teh manis jumbo',
        gatewayTransactionId: 'GW-0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF',
        amount: 123_456_789,
      },
      { ...CTX, storeName: 'Warung Makan Sederhana Ibu Sri Rejeki Cabang Pasar Baru', copy: true, training: true },
    );
    for (const paper of [58, 80] as const) {
      const lines = printedLines(renderEscPos(long, { paper }));
      for (const line of lines)
        expect(line.columns, JSON.stringify(line.text)).toBeLessThanOrEqual(CHARS_PER_LINE[paper]);
      expect(lines.map((l) => l.text).join('\n')).toContain('Rp123.456.789');
    }
    const lines58 = printedLines(renderEscPos(buildReceipt(ORDER, CTX), { paper: 58 })).map((l) => l.text);
    expect(lines58).toContain('-'.repeat(32));
    expect(lines58).toContain('Status                     LUNAS');
    expect(lines58).toContain('Rp25.000');
    expect(printedLines(renderEscPos(buildReceipt(ORDER, CTX), { paper: 80 })).map((l) => l.text)).toContain(
      '-'.repeat(48),
    );
  });

  it('reduces text to ASCII and strips control characters, so order text cannot smuggle printer commands', () => {
    expect(toPrinterText('Kopi\x1b@ café — “spesial” · 2×\u{1F600}\tok\n')).toBe('Kopi @ cafe - "spesial" . 2x? ok');
    expect(toPrinterText('SANDBOX — BUKAN TRANSAKSI NYATA')).toBe('SANDBOX - BUKAN TRANSAKSI NYATA');
    const bytes = renderEscPos(buildReceipt({ ...ORDER, itemName: 'Es teh\x1b@\x1dV\x00 manis' }, CTX), { paper: 58 });
    // Only the renderer's own ESC @ (at the start and after the cut) and its own cut.
    expect(describeEscPos(bytes).match(/<init>/g)).toHaveLength(2);
    expect(describeEscPos(bytes).match(/<cut/g)).toHaveLength(1);
    expect(describeEscPos(bytes)).toContain('Es teh @ V manis');
  });

  it('wraps at spaces and cuts words longer than a line', () => {
    expect(wrapText('satu dua tiga', 8)).toEqual(['satu dua', 'tiga']);
    expect(wrapText('ABCDEFGHIJ', 4)).toEqual(['ABCD', 'EFGH', 'IJ']);
    expect(wrapText('', 4)).toEqual([]);
  });

  it('rejects a paper width it does not know', () => {
    expect(() => renderEscPos(buildReceipt(ORDER, CTX), { paper: 76 as 80 })).toThrow(/58 or 80/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// A network printer: real TCP on 127.0.0.1.
// ---------------------------------------------------------------------------------------------------------

describe('sendToNetworkPrinter', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];

  afterEach(async () => {
    vi.restoreAllMocks();
    for (const s of sockets.splice(0)) s.destroy();
    await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  });

  async function listen(server: Server): Promise<number> {
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  it.skipIf(UPDATE_GOLDEN)('a printer listening on TCP receives exactly the golden bytes', async () => {
    for (const { name, paper, receipt } of GOLDEN) {
      const server = createServer();
      const received = new Promise<Buffer>((resolve, reject) => {
        server.once('connection', (socket) => {
          sockets.push(socket);
          const chunks: Buffer[] = [];
          socket.on('data', (c: Buffer) => chunks.push(c));
          socket.on('error', reject);
          // Like a printer: take everything, then close (allowHalfOpen is off, so Node ends our side too).
          socket.on('end', () => resolve(Buffer.concat(chunks)));
        });
      });
      const port = await listen(server);
      await sendToNetworkPrinter(renderEscPos(receipt(), { paper }), { host: '127.0.0.1', port });
      const bytes = await received;
      expect(bytes.equals(goldenBytes(name)), name).toBe(true);
    }
  });

  it('rejects in plain words, without waiting out its time limit, when the printer is down (nothing listening)', async () => {
    const port = await listen(createServer());
    await new Promise<void>((resolve) => servers.pop()?.close(() => resolve()));
    const timers = new FakeClock();
    const error = await sendToNetworkPrinter(Buffer.from('x'), {
      host: '127.0.0.1',
      port,
      timeoutMs: 3000,
      timers,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    // The clock never moved, so the time limit cannot have run out; the refusal ended the job and the
    // limit's timer with it.
    expect(timers.pending()).toEqual([]);
    expect(error).toBeInstanceOf(ReceiptPrinterError);
    expect((error as ReceiptPrinterError).message).toBe(
      `the receipt printer at 127.0.0.1:${port} refused the connection (is it switched on, and is ${port} its port?)`,
    );
    expect((error as ReceiptPrinterError).reason).toBe('refused');
  });

  it('gives up after timeoutMs and destroys the socket when the printer accepts but never reads or closes', async () => {
    const connectSpy = vi.spyOn(Socket.prototype, 'connect');
    // pauseOnConnect: the listener never reads; allowHalfOpen: it never closes its side either.
    const server = createServer({ pauseOnConnect: true, allowHalfOpen: true }, (socket) => sockets.push(socket));
    const port = await listen(server);
    const timers = new FakeClock();
    const bytes = renderEscPos(buildReceipt(ORDER, CTX), { paper: 58 });
    let settled = false;
    const outcome = sendToNetworkPrinter(bytes, { host: '127.0.0.1', port, timeoutMs: 300, timers }).then(
      () => ((settled = true), undefined),
      (e: unknown) => ((settled = true), e),
    );
    const clientSockets = connectSpy.mock.contexts as Socket[];
    expect(clientSockets).toHaveLength(1);
    const client = clientSockets[0]!;
    // Connected, the receipt handed over and Loket's side ended; the printer neither reads nor closes.
    await waitFor(() => client.writableEnded && sockets.length === 1, 'the printer to take the connection');
    expect(timers.pending()).toEqual([300]);
    expect(timers.advance(299), 'no giving up before the limit').toBe(0);
    expect(settled).toBe(false);
    expect(client.destroyed).toBe(false);

    expect(timers.advance(1)).toBe(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ReceiptPrinterError);
    expect((error as ReceiptPrinterError).message).toBe(
      `the receipt printer at 127.0.0.1:${port} took the connection but did not finish within 0.3 s; the receipt may or may not have printed`,
    );
    expect((error as ReceiptPrinterError).reason).toBe('unfinished');
    expect(client.destroyed).toBe(true);
    expect(sockets).toHaveLength(1);
  });

  it('gives up with "did not answer" when the time limit runs out before the printer even connects', async () => {
    const connectSpy = vi.spyOn(Socket.prototype, 'connect');
    const port = await listen(createServer((socket) => sockets.push(socket)));
    const timers = new FakeClock();
    const sending = sendToNetworkPrinter(Buffer.from('x'), { host: '127.0.0.1', port, timeoutMs: 250, timers });
    // Synchronously, before the connection can complete: the limit runs out while still connecting.
    expect(timers.advance(250)).toBe(1);
    await expect(sending).rejects.toThrow(`the receipt printer at 127.0.0.1:${port} did not answer within 0.25 s`);
    await expect(sending).rejects.toMatchObject({ reason: 'timeout', host: '127.0.0.1', port });
    const clientSockets = connectSpy.mock.contexts as Socket[];
    expect(clientSockets).toHaveLength(1);
    expect(clientSockets[0]?.destroyed).toBe(true);
  });

  it('never throws synchronously: bad settings are a rejection in plain words', async () => {
    const bad = [
      { host: '', port: 9100 },
      { host: '127.0.0.1', port: 0 },
      { host: '127.0.0.1', port: 70000 },
      { host: '127.0.0.1', port: 9100.5 },
      { host: 'printer 1', port: 9100 },
      { host: '127.0.0.1', timeoutMs: 0 },
      { host: '127.0.0.1', timeoutMs: Number.NaN },
      undefined,
    ] as unknown as Parameters<typeof sendToNetworkPrinter>[1][];
    for (const opts of bad) {
      let pending: Promise<void> | undefined;
      expect(() => {
        pending = sendToNetworkPrinter(Buffer.from('x'), opts);
      }).not.toThrow();
      await expect(pending, JSON.stringify(opts)).rejects.toThrow(/^the receipt printer settings are wrong: /);
    }
    await expect(sendToNetworkPrinter(undefined as unknown as Buffer, { host: '127.0.0.1' })).rejects.toThrow(
      /no receipt bytes/,
    );
  });
});
