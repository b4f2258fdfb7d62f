import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { formatRupiah } from '../../common/money';
import { importMethods } from '../../core/settings/method-import';
import { saveSettingsChange, type SettingsChangeAction } from '../../core/settings/save-change';
import { replaceMethods, resetMethods, toggleMethod, type ChangeResult } from '../../core/settings/settings-changes';
import type { StoreBooks } from '../../runtime';
import { cliUser, printIssues, readStore, withStore, type Io, type StoreOptions } from '../cli-support';
import { EXIT, UsageError } from '../exit-codes';
import { bundledMethods } from './shared';

/** config methods list, enable, disable, import, reset: the store's list of payment methods. */
export async function methods(argv: string[], options: StoreOptions, io: Io, env: NodeJS.ProcessEnv): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, format: { type: 'string' } },
  });
  const bundled = bundledMethods(env);
  const arg = (what: string): string => {
    if (positionals.length !== 1) throw new UsageError(`config methods ${sub}: ${what} (one)`);
    return positionals[0]!;
  };
  const save = (store: StoreBooks, result: ChangeResult, action: SettingsChangeAction, done: () => string): number => {
    if (!result.ok) {
      printIssues(io, result.issues);
      io.err('Nothing was changed.\n');
      return EXIT.INVALID_INPUT;
    }
    saveSettingsChange(store, cliUser(), result, action);
    io.out(result.changed.length ? done() : 'nothing changed: the list already says so\n');
    return EXIT.OK;
  };
  switch (sub) {
    case 'list':
      if (positionals.length) throw new UsageError('config methods list: no arguments');
      return readStore(options, async (store) => {
        const settings = store.settings.load();
        const list = settings.paymentMethods ?? bundled;
        if (values.json) {
          io.out(
            JSON.stringify({ source: settings.paymentMethods ? 'store' : 'bundled', methods: list }, null, 2) + '\n',
          );
          return EXIT.OK;
        }
        io.out(
          `${settings.paymentMethods ? "The store's own list" : 'The bundled catalogue'}: ` +
            `${list.filter((m) => m.enabled).length} of ${list.length} enabled\n`,
        );
        for (const m of list)
          io.out(
            `  [${m.enabled ? 'x' : ' '}] ${m.id.padEnd(22)} ${m.kind.padEnd(20)} ${m.label.en} ` +
              `(${formatRupiah(m.minAmount)} – ${formatRupiah(m.maxAmount)})\n`,
          );
        return EXIT.OK;
      });
    case 'enable':
    case 'disable': {
      const id = arg('the payment method id');
      const enabled = sub === 'enable';
      return withStore(options, async (store) =>
        save(
          store,
          toggleMethod(store.settings.load(), bundled, id, enabled),
          enabled ? 'method.enabled' : 'method.disabled',
          () => `${id}: ${enabled ? 'enabled' : 'disabled'}\n`,
        ),
      );
    }
    case 'import': {
      const file = arg('the file to import');
      const format = values.format ?? extname(file).slice(1).toLowerCase();
      if (format !== 'json' && format !== 'csv')
        throw new UsageError(
          `--format: json or csv${values.format === undefined ? ' (the file name does not end in .json or .csv)' : ''}`,
        );
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
      }
      const parsed = importMethods(text, format);
      if (!parsed.ok) {
        io.err(`${file}: ${parsed.problems.length} problem(s); nothing was imported:\n`);
        for (const p of parsed.problems) io.err(`  ${p.message}\n`);
        return EXIT.INVALID_INPUT;
      }
      return withStore(options, async (store) =>
        save(
          store,
          replaceMethods(store.settings.load(), parsed.methods),
          'methods.imported',
          () =>
            `imported ${parsed.methods.length} payment method(s) from ${file}, ` +
            `${parsed.methods.filter((m) => m.enabled).length} enabled\n`,
        ),
      );
    }
    case 'reset':
      if (positionals.length) throw new UsageError('config methods reset: no arguments');
      return withStore(options, async (store) =>
        save(store, resetMethods(store.settings.load()), 'methods.imported', () => 'back to the bundled catalogue\n'),
      );
    default:
      throw new UsageError(
        `config methods: unknown subcommand ${JSON.stringify(sub ?? '')}; use list, enable, disable, import or reset`,
      );
  }
}
