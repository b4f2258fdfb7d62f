/**
 * (f) Start time: `npm run serve` from the command to the cashier URL printed (ready to open), once right after
 * the build's stamp is removed (it builds) and then with nothing changed (it skips the build); next to the floor
 * any start pays, `tsx` running an empty module, measured in the same run.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { distribution, type Distribution } from './stats';
import { makeTempDir } from './temp';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface StartResult {
  /** With a build: the first start after a change. */
  builtMs: number;
  /** Nothing changed since the last build. */
  unchanged: Distribution;
  /** `tsx` running an empty module: no start can be faster. */
  floor: Distribution;
}

/** The target of issue 22: ready in at most this when nothing changed, or at most START_TARGET_RATIO x the floor. */
export const START_TARGET_MS = 1000;
export const START_TARGET_RATIO = 3;
const RUNS = 5;

/** Runs a command in its own process group until `ready` matches its output; returns the milliseconds it took. */
function timeUntil(command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${command} ${args.join(' ')} was not ready in 5 minutes: ${out}`));
    }, 300_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        const ms = performance.now() - started;
        clearTimeout(timer);
        child.once('exit', () => resolve(ms));
        stop();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!ready.test(out)) reject(new Error(`${command} exited with ${code} before it was ready: ${out}`));
    });
  });
}

export async function benchStart(say: (line: string) => void): Promise<StartResult> {
  const env = { ...process.env, LOKET_DATA_DIR: makeTempDir('start'), LOKET_GATEWAY_URL: '', LOKET_APP_ID: '' };
  const serve = () => timeUntil('npm', ['run', 'serve', '--', '--port', '0'], env, /cashier: http/);
  rmSync(`${root}out/.build-inputs`, { force: true });
  say('    npm run serve after a change (it builds)…');
  const builtMs = await serve();
  const unchanged: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    unchanged.push(await serve());
    floor.push(
      await timeUntil(process.execPath, ['--import', 'tsx', '-e', 'console.log("ready")'], process.env, /ready/),
    );
  }
  return { builtMs, unchanged: distribution(unchanged), floor: distribution(floor) };
}

export function renderStart(r: StartResult): string {
  const f = (n: number) => n.toFixed(0).padStart(8);
  const ratio = r.unchanged.p50 / r.floor.p50;
  const met = r.unchanged.p50 <= START_TARGET_MS || ratio <= START_TARGET_RATIO ? 'MET' : 'NOT MET';
  return [
    `(f) Start: \`npm run serve\` to the cashier URL printed, ${r.unchanged.n} runs with nothing changed`,
    '                                          p50 ms   max ms  ratio p50',
    `after a change (builds)                ${f(r.builtMs)} ${f(r.builtMs)}  ${(r.builtMs / r.floor.p50).toFixed(1).padStart(8)}x`,
    `nothing changed (skips the build)      ${f(r.unchanged.p50)} ${f(r.unchanged.max)}  ${(r.unchanged.p50 / r.floor.p50).toFixed(1).padStart(8)}x`,
    `floor: tsx running an empty module     ${f(r.floor.p50)} ${f(r.floor.max)}      1.0x`,
    `target: ready in at most ${START_TARGET_MS} ms, or ${START_TARGET_RATIO}x the floor, with nothing changed: ${met}`,
  ].join('\n');
}
