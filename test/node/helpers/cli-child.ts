/**
 * The real CLI (`src-main/cli.ts` under tsx) in a child process, as a person or a script runs it: with piped
 * standard input, or on a terminal (a pseudo-terminal from util-linux's `script`) that answers prompts as
 * they appear. Everything each run printed is kept in `transcript`, for "no secret in any output" checks.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { PrivateKeyring } from './private-keyring';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const LIMIT_MS = 30_000;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a CLI run on a private keyring: its bus, HOME and XDG folders (so the default data
 * folder is `${keyring.home}/.config/Loket`), and no LOKET_* variable of this process; then `extra`.
 */
export function keyringEnv(keyring: PrivateKeyring, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(keyring.env)) if (!name.startsWith('LOKET_')) env[name] = value;
  return { ...env, ...extra };
}

/** The default data folder of a CLI run with keyringEnv(keyring). */
export function keyringDataDir(keyring: PrivateKeyring): string {
  return join(keyring.home, '.config', 'Loket');
}

export function runCli(
  args: string[],
  options: { env: NodeJS.ProcessEnv; input?: string; transcript?: string[] },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/cli.ts', ...args], {
      cwd: ROOT,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: LIMIT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.stdin.on('error', () => {}); // a command that ends without reading its input
    child.stdin.end(options.input ?? '');
    child.on('error', reject);
    child.on('close', (code, signal) => {
      options.transcript?.push(stdout, stderr);
      if (code === null) reject(new Error(`the CLI was ended by ${signal}: ${stderr}`));
      else resolve({ code, stdout, stderr });
    });
  });
}

/** A prompt to wait for, and what to type when it shows (Enter is added). */
export interface Answer {
  prompt: RegExp;
  type: string;
}

/**
 * The CLI on a terminal: `script` gives it a pseudo-terminal for standard input and output, and each answer
 * is typed once its prompt has appeared (after it, never before: a terminal echoes what is typed until the
 * program turns echo off). `output` is everything the terminal showed, stdout and stderr together.
 */
export function runCliOnTerminal(
  args: string[],
  options: { env: NodeJS.ProcessEnv; answers: Answer[]; transcript?: string[] },
): Promise<{ code: number; output: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, '--import', 'tsx', 'src-main/cli.ts', ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['--quiet', '--return', '--command', `exec ${command}`, '/dev/null'], {
      cwd: ROOT,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: LIMIT_MS,
    });
    let output = '';
    let seen = 0;
    const pending = [...options.answers];
    const answerIfAsked = () => {
      const next = pending[0];
      if (!next) return;
      const fresh = output.slice(seen);
      const match = next.prompt.exec(fresh);
      if (!match) return;
      seen += match.index + match[0].length;
      pending.shift();
      child.stdin.write(`${next.type}\r`);
      answerIfAsked();
    };
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString('utf8');
      answerIfAsked();
    });
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('close', (code, signal) => {
      options.transcript?.push(output);
      if (code === null) reject(new Error(`the CLI on a terminal was ended by ${signal}: ${output}`));
      else if (pending.length) reject(new Error(`the CLI never asked ${pending[0]!.prompt}: ${output}`));
      else resolve({ code, output });
    });
  });
}
