// The embedded sandbox of browser mode on the LAN (`serve --lan`) serves payment pages to phones but keeps its
// control endpoints (/sandbox/*: faults, the orders with customers' details, paying) to this machine. Tests talk
// only to 127.0.0.1, so the refusal of another machine is checked on the address rule itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLoopback, startSandbox, type SandboxHandle } from '../../src-main/sandbox/server';

describe('who may control the sandbox', () => {
  it('only loopback addresses count as this machine', () => {
    for (const a of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['192.168.1.20', '10.0.0.5', '::ffff:192.168.1.20', 'fe80::1', '', undefined])
      expect(isLoopback(a), String(a)).toBe(false);
  });

  describe('kept to this machine', () => {
    let sandbox: SandboxHandle;
    beforeAll(async () => {
      sandbox = await startSandbox({ host: '127.0.0.1', port: 0, controlFrom: 'loopback', log: () => undefined });
    });
    afterAll(async () => sandbox.close());

    it('still answers this machine on its control endpoints and its public ones', async () => {
      expect((await fetch(`${sandbox.url}/sandbox/faults`)).status).toBe(200);
      expect((await fetch(`${sandbox.url}/sandbox/orders`)).status).toBe(200);
      expect((await fetch(`${sandbox.url}/health`)).status).toBe(200);
    });
  });
});
