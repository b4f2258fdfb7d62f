import { defaultIo, type Io, type StoreOptions } from './cli-support';
import { UsageError } from './exit-codes';
import { methods } from './config/methods';
import { SECTION_OPTIONS, setSection } from './config/sections';
import { clearSecret, setSecret } from './config/secrets';
import { setGateway } from './config/set-gateway';
import { show } from './config/show';
import { test } from './config/test';
import { training } from './config/training';
import { runSetTaxCommand, SET_TAX_USAGE } from './tax-commands';

export const CONFIG_USAGE = `Settings (the store's books: loket.db in the data folder, LOKET_DATA_DIR else the OS's app-data folder).
The appkey and the signing secret live in the OS keychain; LOKET_APP_KEY / LOKET_SIGNING_SECRET, when set,
override it. A secret is never taken from the command line: standard input, or a hidden prompt on a terminal.

  config show [--json]                 every setting, where each secret comes from (never its value), the
                                       mode and what would run, the keychain's state
  config set-gateway [--url URL] [--app-id ID] [--signing appkey|secret] [--encoding hex|base64]
                     [--inquiry-path P|none] [--timeout-ms N] [--time-zone Z] [--allow-http on|off]
                     [--app-key-stdin] [--signing-secret-stdin]
                                       --url and --app-id the first time; with both -stdin flags, the
                                       appkey is line 1 of standard input and the signing secret line 2;
                                       --allow-http on: live mode over a plain http:// address (answers are
                                       unsigned: anyone on the way could change them), off by default
  config set-secret appkey|signing-secret [--stdin]
  config clear-secret appkey|signing-secret
  config test [--json]                 test the configured gateway with the stored credentials
  config set-store [--name N] [--address A] [--terminal-id T] [--time-zone Z]
                   [--receipt-header H] [--receipt-footer F] [--lang id|en]
  config set-printer [--kind none|network|system] [--host H] [--port N] [--paper 58|80] [--system-name N]
  config set-display [--idle-message M] [--lang id|en]
  config set-access [--require-cashier-pin on|off] [--manager-idle-minutes N]
  config set-backup --copy-to FOLDER|none      a second folder every backup is copied to (a USB disk)
${SET_TAX_USAGE}  config methods list [--json]
  config methods enable ID | disable ID
  config methods import FILE [--format json|csv]    (default: from the file's extension)
  config methods reset                 back to the bundled catalogue
  config training on                   training mode: the embedded sandbox, orders marked SANDBOX
  config training off --confirm-gateway URL
                                       live mode: orders go to the configured gateway (on a terminal,
                                       without the flag, type the gateway's base URL when asked)

Exit codes: 0 ok, 1 unexpected error, 2 invalid input or refused (nothing changed), 3 the gateway refused
the credentials (config test), 4 the gateway could not be reached or confirm them (config test),
5 the OS keychain cannot be used, or live mode's secrets are not in it (nothing changed),
7 a change (or config test) while the app or serve runs on the data folder: make it there, or stop it first.
`;

/** The config subcommands, one module each under cli/config/ (their shared parts: config/shared.ts). */
const SUBCOMMANDS: Record<
  string,
  (argv: string[], options: StoreOptions, io: Io, env: NodeJS.ProcessEnv) => Promise<number>
> = {
  show,
  'set-gateway': (argv, options, io) => setGateway(argv, options, io),
  'set-secret': (argv, options, io) => setSecret(argv, options, io),
  'clear-secret': (argv, options, io) => clearSecret(argv, options, io),
  test: (argv, options, io) => test(argv, options, io),
  ...Object.fromEntries(
    (Object.keys(SECTION_OPTIONS) as (keyof typeof SECTION_OPTIONS)[]).map((name) => [
      name,
      (argv: string[], options: StoreOptions, io: Io) => setSection(name, argv, options, io),
    ]),
  ),
  'set-tax': (argv, options, io) => runSetTaxCommand(argv, options, io),
  methods,
  training,
};

export async function runConfigCommand(
  argv: string[],
  options: StoreOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const [sub, ...rest] = argv;
  const run = sub !== undefined && Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
  if (!run)
    throw new UsageError(
      `config: unknown subcommand ${JSON.stringify(sub ?? '')}; use ${Object.keys(SUBCOMMANDS)
        .join(', ')
        .replace(/, ([^,]*)$/, ' or $1')}`,
    );
  return run(rest, options, io, options.env ?? process.env);
}
