import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;

function runCli(args: string[]) {
  const child = spawn(tsx, ['src-main/cli.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no "${prefix}" line; stdout: ${stdout} stderr: ${stderr}`)),
        15_000,
      );
      const check = () => {
        const m = stdout.split('\n').find((l) => l.startsWith(prefix));
        if (m) {
          clearTimeout(timer);
          resolve(m.slice(prefix.length).trim());
        }
      };
      child.stdout.on('data', check);
      check();
    });
  return { child, exited, line, out: () => stdout, err: () => stderr };
}

describe('npm run cli -- sandbox', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints its base URL and credentials, serves, and stops cleanly on ${signal}`, async () => {
      const cli = runCli(['sandbox', '--port', '0', '--quiet', '--app-id', 'shop-7', '--app-key', 'k-777']);
      const base = await cli.line('base URL:');
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await cli.line('appid:')).toBe('shop-7');
      expect(await cli.line('appkey:')).toBe('k-777');
      const health = (await (await fetch(`${base}/health`)).json()) as { app_id: string };
      expect(health.app_id).toBe('shop-7');
      cli.child.kill(signal);
      expect(await cli.exited).toBe(0);
      expect(cli.out()).toContain(`${signal}: stopping`);
      await expect(fetch(`${base}/health`)).rejects.toThrow();
    });
  }

  it('refuses bad options with exit code 2 and names the option', async () => {
    const port = runCli(['sandbox', '--port', 'abc']);
    expect(await port.exited).toBe(2);
    expect(port.err()).toContain('--port: must be a whole number');
    const ttl = runCli(['sandbox', '--ttl', 'cash=10']);
    expect(await ttl.exited).toBe(2);
    expect(ttl.err()).toContain('--ttl: kind must be one of');
    const unknown = runCli(['sandbox', '--bogus']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.err()).toMatch(/bogus/);
    const command = runCli(['nonsense']);
    expect(await command.exited).toBe(2);
    expect(command.err()).toContain('unknown command "nonsense"');
  });
});
