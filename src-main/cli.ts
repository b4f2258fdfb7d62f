import { runSandboxCommand, SANDBOX_USAGE, UsageError } from './sandbox/command';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  sandbox    start the sandbox payment gateway (docs/sandbox.md)
  help       show this text

Exit codes: 0 ok, 2 invalid input (usage), 1 unexpected failure.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'sandbox':
      if (rest.includes('--help') || rest.includes('-h')) {
        process.stdout.write(SANDBOX_USAGE);
        return 0;
      }
      return runSandboxCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof UsageError || (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`loket: ${(err as Error)?.message ?? String(err)}\n`);
    process.exit(usage ? 2 : 1);
  },
);
