import { parseArgs } from 'node:util';
import { PAYMENT_KINDS, type PaymentKind } from '../common/payment-methods';
import type { SigningProfile } from '../core/bodysign';
import { SANDBOX_DEFAULTS, startSandbox, type SandboxOptions } from './server';

export const SANDBOX_USAGE = `Usage: npm run cli -- sandbox [options]

Starts the sandbox payment gateway (docs/sandbox.md) and serves until Ctrl-C.

  --host H                  address to bind (default ${SANDBOX_DEFAULTS.host})
  --port N                  port (default ${SANDBOX_DEFAULTS.port}; 0 picks a free one)
  --app-id ID               application id it accepts (default ${SANDBOX_DEFAULTS.appId})
  --app-key KEY             application key it accepts (default ${SANDBOX_DEFAULTS.appKey})
  --sign-with appkey|secret bodysign key: the appkey (default) or a separate secret
  --sign-secret S           the separate signing secret (with --sign-with secret)
  --sign-encoding hex|base64  bodysign encoding (default hex)
  --ttl KIND=SECONDS        order lifetime for a kind, repeatable (e.g. --ttl qris=60)
  --callback-attempts N     callback attempts in all (default 6)
  --callback-delay-ms N     delay before the first retry, doubling after (default 1000)
  --callbacks-any-host      allow callbacks to non-loopback hosts (off: loopback only)
  --quiet                   do not log each request's outcome
`;

/** A mistake in how a command was called: the CLI exits 2 with the message and no stack trace. */
export class UsageError extends Error {}

export function sandboxOptionsFromArgs(argv: string[]): SandboxOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'app-id': { type: 'string' },
      'app-key': { type: 'string' },
      'sign-with': { type: 'string' },
      'sign-secret': { type: 'string' },
      'sign-encoding': { type: 'string' },
      ttl: { type: 'string', multiple: true },
      'callback-attempts': { type: 'string' },
      'callback-delay-ms': { type: 'string' },
      'callbacks-any-host': { type: 'boolean' },
      quiet: { type: 'boolean' },
    },
  });
  const int = (name: string, text: string | undefined, min: number, max: number): number | undefined => {
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new UsageError(`--${name}: must be a whole number from ${min} to ${max} (got ${JSON.stringify(text)})`);
    return n;
  };
  const signWith = values['sign-with'] ?? 'appkey';
  if (signWith !== 'appkey' && signWith !== 'secret')
    throw new UsageError(`--sign-with: must be appkey or secret (got ${JSON.stringify(signWith)})`);
  const encoding = values['sign-encoding'] ?? 'hex';
  if (encoding !== 'hex' && encoding !== 'base64')
    throw new UsageError(`--sign-encoding: must be hex or base64 (got ${JSON.stringify(encoding)})`);
  if (signWith === 'secret' && !values['sign-secret'])
    throw new UsageError('--sign-secret: is required with --sign-with secret');
  const signing: SigningProfile = {
    key: signWith,
    encoding,
    ...(values['sign-secret'] ? { secret: values['sign-secret'] } : {}),
  };

  const ttlSeconds: Partial<Record<PaymentKind, number>> = {};
  for (const entry of values.ttl ?? []) {
    const [kind, seconds] = entry.split('=');
    if (!PAYMENT_KINDS.includes(kind as PaymentKind))
      throw new UsageError(`--ttl: kind must be one of ${PAYMENT_KINDS.join(', ')} (got ${JSON.stringify(kind)})`);
    ttlSeconds[kind as PaymentKind] = int('ttl', seconds, 1, 30 * 24 * 3600)!;
  }
  const attempts = int('callback-attempts', values['callback-attempts'], 1, 20);
  const delay = int('callback-delay-ms', values['callback-delay-ms'], 10, 600_000);

  return {
    host: values.host ?? SANDBOX_DEFAULTS.host,
    port: int('port', values.port, 0, 65535) ?? SANDBOX_DEFAULTS.port,
    appId: values['app-id'] ?? SANDBOX_DEFAULTS.appId,
    appKey: values['app-key'] ?? SANDBOX_DEFAULTS.appKey,
    signing,
    ttlSeconds,
    callbacks: {
      ...(attempts === undefined ? {} : { maxAttempts: attempts }),
      ...(delay === undefined ? {} : { baseDelayMs: delay }),
      allowAnyHost: values['callbacks-any-host'] ?? false,
    },
    log: values.quiet ? () => undefined : (line) => console.log(`[sandbox] ${line}`),
  };
}

/** Runs until SIGINT/SIGTERM, then closes the server and resolves with exit code 0. */
export async function runSandboxCommand(argv: string[]): Promise<number> {
  const options = sandboxOptionsFromArgs(argv);
  const sandbox = await startSandbox(options);
  const signing = options.signing!;
  console.log(`Loket sandbox gateway listening on ${sandbox.url}`);
  console.log(`base URL: ${sandbox.url}`);
  console.log(`appid:    ${sandbox.appId}`);
  console.log(`appkey:   ${options.appKey}`);
  console.log(
    `bodysign: HMAC-SHA256 over the exact body bytes, ${signing.encoding}, keyed with the ${signing.key === 'appkey' ? 'appkey' : 'signing secret'}`,
  );
  console.log('Press Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal}: stopping the sandbox gateway`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await sandbox.close();
  return 0;
}
