import { parseArgs } from 'node:util';
import { saveSettingsChange } from '../../core/settings/save-change';
import type { SettingsSection } from '../../core/settings/settings-changes';
import { cliUser, printIssues, withStore, type Io, type StoreOptions } from '../cli-support';
import { EXIT, UsageError } from '../exit-codes';
import { combine, FLAGS, numberOrText, onOff, printChanges } from './shared';

/** config set-store, set-printer, set-display, set-access, set-backup: one section's fields each. */
export const SECTION_OPTIONS = {
  'set-store': {
    name: { type: 'string' },
    address: { type: 'string' },
    'terminal-id': { type: 'string' },
    'time-zone': { type: 'string' },
    'receipt-header': { type: 'string' },
    'receipt-footer': { type: 'string' },
    lang: { type: 'string' },
  },
  'set-printer': {
    kind: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    paper: { type: 'string' },
    'system-name': { type: 'string' },
  },
  'set-display': { 'idle-message': { type: 'string' }, lang: { type: 'string' } },
  'set-access': { 'require-cashier-pin': { type: 'string' }, 'manager-idle-minutes': { type: 'string' } },
  'set-backup': { 'copy-to': { type: 'string' } },
} as const;

export async function setSection(
  command: keyof typeof SECTION_OPTIONS,
  argv: string[],
  options: StoreOptions,
  io: Io,
): Promise<number> {
  const { values } = parseArgs({ args: argv, strict: true, options: SECTION_OPTIONS[command] });
  const v = values as Record<string, string | undefined>;
  const pick = (map: Record<string, string>, convert: (key: string, text: string) => unknown = (_k, t) => t) =>
    Object.fromEntries(
      Object.entries(map)
        .filter(([flag]) => v[flag] !== undefined)
        .map(([flag, field]) => [field, convert(flag, v[flag]!)]),
    );
  let steps: [SettingsSection, Record<string, unknown>][];
  switch (command) {
    case 'set-store':
      steps = [
        [
          'store',
          pick({
            name: 'storeName',
            address: 'storeAddress',
            'terminal-id': 'terminalId',
            'time-zone': 'timeZone',
            'receipt-header': 'receiptHeader',
            'receipt-footer': 'receiptFooter',
          }),
        ],
        ['language', pick({ lang: 'lang' })],
      ];
      break;
    case 'set-printer':
      steps = [
        [
          'printer',
          pick({ kind: 'kind', host: 'host', port: 'port', paper: 'paper', 'system-name': 'systemName' }, (flag, t) =>
            flag === 'port' || flag === 'paper' ? numberOrText(t) : t,
          ),
        ],
      ];
      break;
    case 'set-display':
      steps = [['display', pick({ 'idle-message': 'idleMessage', lang: 'lang' })]];
      break;
    case 'set-backup':
      steps = [['backup', pick({ 'copy-to': 'copyTo' }, (_f, t) => (t === 'none' || t === '' ? null : t))]];
      break;
    case 'set-access':
      steps = [
        [
          'access',
          pick(
            { 'require-cashier-pin': 'requireCashierPin', 'manager-idle-minutes': 'managerIdleMinutes' },
            (flag, t) => (flag === 'require-cashier-pin' ? onOff(`--${flag}`, t) : numberOrText(t)),
          ),
        ],
      ];
      break;
  }
  steps = steps.filter(([, patch]) => Object.keys(patch).length > 0);
  if (steps.length === 0)
    throw new UsageError(
      `config ${command}: nothing to change; give at least one of ${Object.keys(SECTION_OPTIONS[command])
        .map((f) => `--${f}`)
        .join(', ')}`,
    );
  return withStore(options, async (store) => {
    const result = combine(store.settings.load(), steps);
    if (!result.ok) {
      printIssues(io, result.issues, FLAGS);
      io.err('Nothing was changed.\n');
      return EXIT.INVALID_INPUT;
    }
    saveSettingsChange(store, cliUser(), result);
    printChanges(io, result.changed);
    return EXIT.OK;
  });
}
