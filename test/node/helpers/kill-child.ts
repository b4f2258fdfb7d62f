import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Runs `fixture` (a path under the repository, run as TypeScript) in a child process, lets it work for `killAfterMs`
 * once it has printed READY, then SIGKILLs it; resolves with what it printed. A child that ends by itself is a failure
 * (its stderr in the error); one that never gets ready is killed after `limitMs`.
 */
export function runAndKill(
  fixture: string,
  env: NodeJS.ProcessEnv,
  killAfterMs: number,
  limitMs = 30_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    // `node --import tsx`, not the tsx CLI: the CLI runs the script in a grandchild that SIGKILL would miss.
    const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!timer && out.includes('READY')) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const guard = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('exit', (_code, signal) => {
      clearTimeout(guard);
      clearTimeout(timer);
      if (signal !== 'SIGKILL') return reject(new Error(`child ended by itself: ${err}`));
      resolve(out);
    });
  });
}
