import { EXIT, UsageError } from './cli/exit-codes';
import { ORDER_USAGE, runOrderCommand, runOrdersCommand, runReconcileCommand } from './cli/order-commands';
import { runSandboxCommand, SANDBOX_USAGE } from './sandbox/command';
import { runServeCommand, SERVE_USAGE } from './web/command';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  sandbox    start the sandbox payment gateway (docs/sandbox.md)
  serve      browser mode: the cashier screen and the customer display (npm run serve)
  order      create, show, pay or cancel one order
  orders     list a day's orders
  reconcile  resolve orders whose outcome is unknown
  help       show this text

${ORDER_USAGE}`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  switch (command) {
    case 'sandbox':
      if (wantsHelp) {
        process.stdout.write(SANDBOX_USAGE);
        return EXIT.OK;
      }
      return runSandboxCommand(rest);
    case 'serve':
      if (wantsHelp) {
        process.stdout.write(SERVE_USAGE);
        return EXIT.OK;
      }
      return runServeCommand(rest);
    case 'order':
    case 'orders':
    case 'reconcile':
      if (wantsHelp) {
        process.stdout.write(ORDER_USAGE);
        return EXIT.OK;
      }
      return command === 'order'
        ? runOrderCommand(rest)
        : command === 'orders'
          ? runOrdersCommand(rest)
          : runReconcileCommand(rest);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? EXIT.INVALID_INPUT : EXIT.OK;
    default:
      process.stderr.write(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
      return EXIT.INVALID_INPUT;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof UsageError || (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    // Messages only: a stack trace helps no cashier, and must never carry request data.
    process.stderr.write(`loket: ${(err as Error)?.message ?? String(err)}\n`);
    process.exit(usage ? EXIT.INVALID_INPUT : EXIT.UNEXPECTED);
  },
);
