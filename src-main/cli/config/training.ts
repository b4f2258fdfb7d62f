import { parseArgs } from 'node:util';
import type { LoketMode } from '../../common/settings';
import { saveSettingsChange } from '../../core/settings/save-change';
import { modeSwitch } from '../../core/settings/settings-changes';
import { liveCredentialsProblem } from '../../runtime';
import { cliUser, printIssues, withStore, type Io, type StoreOptions } from '../cli-support';
import { EXIT, UsageError } from '../exit-codes';
import { ask, onTerminal } from '../secret-input';
import { appkeyFrom, FLAGS, openOrderCount } from './shared';

/** config training on | off: training mode (the embedded sandbox) or live, confirmed by the gateway's address. */
export async function training(argv: string[], options: StoreOptions, io: Io, env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { 'confirm-gateway': { type: 'string' } },
  });
  const [word, ...extra] = positionals;
  if ((word !== 'on' && word !== 'off') || extra.length > 0)
    throw new UsageError('config training: on (training mode) or off (live mode)');
  const to: LoketMode = word === 'on' ? 'training' : 'live';
  return withStore(options, async (store) => {
    const current = store.settings.load();
    if (current.mode === to) {
      io.out(`already in ${to} mode: nothing changed\n`);
      return EXIT.OK;
    }
    const open = openOrderCount(store, current.mode);
    // Every refusal but the confirmation's first, so nobody types the URL for a switch that cannot happen.
    const pre = modeSwitch(current, to, open, current.gateway?.baseUrl ?? '');
    if (!pre.ok) {
      printIssues(io, pre.issues);
      return EXIT.INVALID_INPUT;
    }
    const gateway = current.gateway;
    if (to === 'live' && gateway) {
      const problem = await liveCredentialsProblem(store.secrets, gateway.signing.key);
      if (problem) {
        io.err(`cannot switch to live: ${problem.message}\nThe mode is unchanged (${current.mode}).\n`);
        return EXIT.KEYCHAIN;
      }
    }
    let confirm = values['confirm-gateway'] ?? '';
    if (to === 'live' && gateway && values['confirm-gateway'] === undefined && onTerminal())
      confirm = await ask(
        `Live mode sends real orders, for real money, to ${gateway.baseUrl} (appid ${gateway.appId}).\n` +
          "Type the gateway's base URL to confirm: ",
      );
    const result = modeSwitch(current, to, open, confirm);
    if (!result.ok) {
      printIssues(io, result.issues, FLAGS);
      return EXIT.INVALID_INPUT;
    }
    saveSettingsChange(store, cliUser(), result, 'mode.changed');
    io.out(
      to === 'live'
        ? `Live mode: orders go to ${gateway!.baseUrl} (appid ${gateway!.appId}), signed with the appkey from ` +
            `${appkeyFrom(store)}.\n`
        : 'Training mode: orders go to an embedded sandbox, marked SANDBOX, kept apart in training/loket.db.\n',
    );
    io.out('A running Loket app switches at its next start.\n');
    if (env.LOKET_GATEWAY_URL)
      io.err('note: LOKET_GATEWAY_URL is set in this environment: commands run here still use that gateway\n');
    return EXIT.OK;
  });
}
