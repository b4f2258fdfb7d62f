/**
 * The one way the sandbox tests start a sandbox: on 127.0.0.1, a free port, their own credentials, and
 * closed by the hooks that started it.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../../src-main/sandbox/server';
import { FakeClock } from './fake-clock';
import { SandboxClient, type Credentials } from './sandbox-client';

export interface TestSandboxOptions extends Omit<SandboxOptions, 'host' | 'port' | 'appId' | 'appKey'> {
  /** Runs the sandbox on a new FakeClock (the fixture's `clock`), so a test steps its timers. */
  fakeClock?: boolean;
}

export interface TestSandbox {
  sandbox: SandboxHandle;
  client: SandboxClient;
  /** The FakeClock made with `fakeClock: true`. */
  clock: FakeClock | undefined;
}

/** Starts a sandbox for one test's own use; the caller closes `sandbox`. */
export async function startTestSandbox(
  credentials: Credentials,
  options: TestSandboxOptions = {},
): Promise<TestSandbox> {
  const { fakeClock, ...rest } = options;
  const clock = fakeClock ? new FakeClock() : undefined;
  const sandbox = await startSandbox({
    ...rest,
    host: '127.0.0.1',
    port: 0,
    appId: credentials.appId,
    appKey: credentials.appKey,
    ...(clock ? { clock } : {}),
  });
  return { sandbox, client: new SandboxClient(sandbox.url, credentials), clock };
}

export interface SandboxFixture {
  /** Usable from the first test on (the hooks have started it by then). */
  readonly sandbox: SandboxHandle;
  /** Usable from the first test on. */
  readonly client: SandboxClient;
  /** The sandbox's FakeClock, with `fakeClock: true`. */
  readonly clock: FakeClock;
}

/**
 * Registers the hooks that start a sandbox before the tests of the current file or `describe` and close
 * it after; with `perTest`, a fresh one (and a fresh clock) for every test, so no timer or order of one
 * test can reach into the next.
 */
export function useSandbox(
  credentials: Credentials,
  options: TestSandboxOptions = {},
  { perTest = false }: { perTest?: boolean } = {},
): SandboxFixture {
  let current: TestSandbox | undefined;
  const started = (): TestSandbox => {
    if (!current) throw new Error('test helper: the sandbox is used outside a test (its hooks have not run)');
    return current;
  };
  const start = async () => {
    current = await startTestSandbox(credentials, options);
  };
  const stop = async () => {
    await current?.sandbox.close();
    current = undefined;
  };
  if (perTest) {
    beforeEach(start);
    afterEach(stop);
  } else {
    beforeAll(start);
    afterAll(stop);
  }
  const client = new SandboxClient(() => started().sandbox.url, credentials);
  return {
    get sandbox() {
      return started().sandbox;
    },
    client,
    get clock() {
      const clock = started().clock;
      if (!clock) throw new Error('test helper: this sandbox runs on real time; pass { fakeClock: true }');
      return clock;
    },
  };
}
