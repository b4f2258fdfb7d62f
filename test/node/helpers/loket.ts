import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLoket, type Loket } from '../../../src-main/runtime';
import { SANDBOX_DEFAULTS, type SandboxHandle } from '../../../src-main/sandbox/server';

export function tempDir(prefix = 'loket-test-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The environment that points Loket at a given sandbox, as a shell would for the CLI. */
export function gatewayEnv(sandbox: SandboxHandle, extra: Record<string, string> = {}): Record<string, string> {
  return {
    LOKET_GATEWAY_URL: sandbox.url,
    LOKET_APP_ID: SANDBOX_DEFAULTS.appId,
    LOKET_APP_KEY: SANDBOX_DEFAULTS.appKey,
    LOKET_INQUIRY_PATH: '/api/status',
    ...extra,
  };
}

/** Loket on a real SQLite file in a fresh folder, against the given sandbox. */
export async function loketAgainst(
  sandbox: SandboxHandle,
  dataDir: string,
  extra: Record<string, string> = {},
): Promise<Loket> {
  return openLoket({ dataDir, env: gatewayEnv(sandbox, extra) });
}
