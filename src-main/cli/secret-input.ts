import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { UsageError } from './exit-codes';

/**
 * How the CLI takes a secret (an appkey, a signing secret, a PIN): from standard input, or typed at a hidden
 * prompt on a terminal. Never from the command line, which `ps` and the shell's history show. Nothing here
 * ever puts a value it read into a message.
 */

/** Standard input is a terminal: a person can be asked. */
export function onTerminal(): boolean {
  return process.stdin.isTTY === true;
}

const STDIN_LIMIT = 64 * 1024;

/** All of standard input (a secret is short: more than 64 KiB is a mistake, refused without reading on). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > STDIN_LIMIT) throw new UsageError('standard input: more than 64 KiB; a secret is one short line');
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The lines of standard input, one secret each, `names` in order: one trailing line end is dropped, and
 * each value must be there and be one line (a line end inside would break the header it travels in).
 */
export async function secretsFromStdin(names: readonly string[]): Promise<string[]> {
  const text = (await readStdin()).replace(/\r?\n$/, '');
  const lines = names.length === 1 ? [text] : text.split(/\r?\n/);
  const what = names.length === 1 ? `the ${names[0]}` : names.map((n) => `the ${n}`).join(', then ');
  if (lines.length !== names.length || /[\r\n]/.test(lines.join('')))
    throw new UsageError(
      `standard input: expected ${what}, ${names.length === 1 ? 'on one line' : 'one a line'} ` +
        `(got ${lines.length === 1 ? '1 line' : `${lines.length} lines`}; nothing was changed)`,
    );
  lines.forEach((line, i) => {
    if (line === '') throw new UsageError(`standard input: the ${names[i]} is empty (nothing was changed)`);
  });
  return lines;
}

class PromptCancelled extends UsageError {
  constructor() {
    super('cancelled at the prompt: nothing was changed');
  }
}

/**
 * Asks on the terminal (the question on stderr, so stdout stays the command's output). `hidden`: nothing
 * typed is echoed — readline puts the terminal in raw mode (so the terminal does not echo) and its own echo
 * goes to a muted stream. Ctrl-C or Ctrl-D cancel: a UsageError, nothing changed.
 */
export async function ask(question: string, { hidden = false }: { hidden?: boolean } = {}): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true, historySize: 0 });
  try {
    return await new Promise<string>((resolve, reject) => {
      let answered = false;
      rl.on('SIGINT', () => reject(new PromptCancelled()));
      rl.on('close', () => {
        if (!answered) reject(new PromptCancelled());
      });
      rl.question(question, (answer) => {
        answered = true;
        resolve(answer);
      });
      // After the question is written: what is typed from here on is not shown.
      muted = hidden;
    });
  } finally {
    muted = false;
    rl.close();
    if (hidden) process.stderr.write('\n');
  }
}

/**
 * One secret: from standard input with `fromStdin` (unless standard input is a terminal: then it is asked
 * for, hidden, as it would be echoed otherwise), else at a hidden prompt on a terminal; without either, a
 * UsageError naming `flag`.
 */
export async function readSecret(name: string, fromStdin: boolean, flag: string): Promise<string> {
  if (fromStdin && !onTerminal()) return (await secretsFromStdin([name]))[0]!;
  if (!onTerminal())
    throw new UsageError(
      `the ${name} is read from standard input with ${flag}, or typed at a hidden prompt on a terminal; ` +
        'never from the command line (nothing was changed)',
    );
  const value = await ask(`${capitalised(name)} (typing is not shown): `, { hidden: true });
  if (value === '') throw new UsageError(`no ${name} was typed: nothing was changed`);
  return value;
}

/** A new PIN: one line of standard input with `--pin-stdin`, else typed twice at a hidden prompt. */
export async function readNewPin(whose: string, fromStdin: boolean): Promise<string> {
  if (fromStdin && !onTerminal()) return (await secretsFromStdin(['PIN']))[0]!;
  if (!onTerminal())
    throw new UsageError(
      'the PIN is read from standard input with --pin-stdin, or typed twice at a hidden prompt on a terminal; ' +
        'never from the command line (nothing was changed)',
    );
  const first = await ask(`New PIN for ${whose} (typing is not shown): `, { hidden: true });
  const again = await ask('The same PIN again: ', { hidden: true });
  if (first !== again) throw new UsageError('the two PINs typed differ: nothing was changed');
  return first;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
