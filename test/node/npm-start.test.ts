import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm start without the Electron binary', () => {
  it('exits 3 and names browser mode', async () => {
    // An override folder without an Electron executable: the same as a blocked download, on any machine.
    const env = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent/loket-electron' };
    const err = await promisify(execFile)(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env,
      encoding: 'utf8',
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(3);
    expect(err?.stderr).toContain('the Electron binary is not installed');
    expect(err?.stderr).toContain('npm run serve');
  });
});
