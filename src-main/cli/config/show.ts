import { parseArgs } from 'node:util';
import type { SecretName } from '../../common/manager';
import { SECRET_OVERRIDES } from '../../adapters/override-secret-store';
import { keychainStatus, secretReport, type SecretReport } from '../../core/settings/keychain-state';
import { readStore, type Io, type StoreOptions } from '../cli-support';
import { EXIT } from '../exit-codes';
import {
  bundledMethods,
  layersOf,
  maskedUrl,
  modeStatus,
  openOrderCount,
  SECRET_NAMES,
  SECRET_WORDS,
  shown,
} from './shared';

/** config show: every setting, where each secret comes from (never its value), the mode, the keychain's state. */
export async function show(argv: string[], options: StoreOptions, io: Io, env: NodeJS.ProcessEnv): Promise<number> {
  const { values } = parseArgs({ args: argv, strict: true, options: { json: { type: 'boolean' } } });
  return readStore(options, async (store) => {
    const settings = store.settings.load();
    const keychain = await keychainStatus(layersOf(store));
    const secrets = {} as Record<SecretName, SecretReport>;
    for (const name of SECRET_NAMES) secrets[name] = await secretReport(layersOf(store), name, keychain.available);
    const mode = await modeStatus(store, settings, env);
    const openOrders = openOrderCount(store, settings.mode);
    const methods = settings.paymentMethods ?? bundledMethods(env);
    const methodsSource = settings.paymentMethods ? 'store' : 'bundled';
    const staff = store.access.staff.list();
    const overrides = Object.fromEntries(
      ['LOKET_GATEWAY_URL', 'LOKET_APP_ID', 'LOKET_TERMINAL_ID', 'LOKET_CATALOGUE']
        .filter((name) => env[name])
        .map((name) => [name, name === 'LOKET_GATEWAY_URL' ? maskedUrl(env[name]!) : env[name]]),
    );
    if (values.json) {
      io.out(
        JSON.stringify(
          {
            dataDir: store.dataDir,
            settings,
            mode,
            openOrders,
            secrets,
            keychain,
            methodsSource,
            staff: { active: staff.length, managers: staff.filter((s) => s.role === 'manager').length },
            environment: overrides,
          },
          null,
          2,
        ) + '\n',
      );
      return EXIT.OK;
    }
    const lines: string[] = [];
    const row = (label: string, value: string) => lines.push(`  ${`${label}:`.padEnd(20)}${value}`);
    const text = (value: string | undefined) => (value ? JSON.stringify(value) : '(none)');

    lines.push(`Loket settings (data folder ${store.dataDir})`, '', 'Mode');
    row('setting', settings.mode);
    row('orders go to', mode.gateway);
    if (mode.notice) row('notice', mode.notice);
    row('open orders', `${openOrders} (creating, awaiting payment or unknown, in ${settings.mode} mode)`);

    lines.push('', 'Store');
    row('name', text(settings.storeName));
    row('address', text(settings.storeAddress));
    row(
      'terminal id',
      settings.terminalId +
        (env.LOKET_TERMINAL_ID ? `  (LOKET_TERMINAL_ID=${env.LOKET_TERMINAL_ID} overrides it)` : ''),
    );
    row('time zone', settings.timeZone);
    row('receipt header', text(settings.receiptHeader));
    row('receipt footer', text(settings.receiptFooter));
    row('language', settings.lang);

    lines.push('', 'Gateway');
    const g = settings.gateway;
    if (!g) {
      lines.push('  none configured: npm run cli -- config set-gateway --url URL --app-id ID --app-key-stdin');
    } else {
      row('base URL', g.baseUrl);
      row('appid', g.appId);
      row(
        'signing',
        `with ${g.signing.key === 'appkey' ? 'the appkey' : 'a separate signing secret'}, ${g.signing.encoding}`,
      );
      row('status inquiry', g.inquiryPath ?? 'none');
      row('timeout', `${g.timeoutMs} ms`);
      row('time zone', g.timeZone);
      if (/^http:/i.test(g.baseUrl))
        row('plain http in live', g.allowHttp ? 'allowed on purpose (answers are unsigned)' : 'refused (https needed)');
      const l = settings.callbackListener;
      row(
        'callback listener',
        l ? `${l.host}:${l.port}${l.path}${l.publicUrl ? ` (the gateway calls ${l.publicUrl})` : ''}` : 'none',
      );
    }

    lines.push('', 'Secrets (LOKET_APP_KEY and LOKET_SIGNING_SECRET, when set, override the keychain)');
    for (const name of SECRET_NAMES) {
      const s = secrets[name];
      const inKeychain = s.keychain === null ? 'cannot be read (see Keychain)' : shown(s.keychain);
      row(
        SECRET_WORDS[name],
        s.from === 'environment'
          ? `${shown(s)}, from ${SECRET_OVERRIDES[name]} (overrides the keychain, which holds: ${inKeychain})`
          : s.keychain === null
            ? `unknown: the keychain cannot be read (see Keychain)`
            : s.set
              ? `${shown(s)}, in ${layersOf(store).keychain.description}`
              : 'not set',
      );
    }

    lines.push('', 'Keychain');
    lines.push(
      keychain.available
        ? `  available: ${layersOf(store).keychain.description}`
        : `  cannot be used: ${keychain.message}`,
    );

    lines.push('', 'Printer');
    const p = settings.printer;
    row(
      'kind',
      p.kind === 'network'
        ? `network, ${p.host}:${p.port}`
        : p.kind === 'system'
          ? `system (${p.systemName ?? 'the default printer'})`
          : 'none (receipts print from the screen)',
    );
    row('paper', `${p.paper} mm`);

    lines.push('', 'Customer display');
    row('idle message', text(settings.display.idleMessage));
    row('language', settings.display.lang);

    lines.push('', 'Access');
    row('cashier PIN', settings.access.requireCashierPin ? 'required to sign in' : 'not required');
    row('manager idle lock', `${settings.access.managerIdleMinutes} min`);
    row(
      'staff',
      `${staff.length} active, ${staff.filter((s) => s.role === 'manager').length} manager(s) (npm run cli -- staff list)`,
    );

    lines.push('', 'Payment methods');
    row(
      'list',
      `${methodsSource === 'store' ? "the store's own" : 'the bundled catalogue'}: ` +
        `${methods.filter((m) => m.enabled).length} of ${methods.length} enabled (npm run cli -- config methods list)`,
    );
    if (Object.keys(overrides).length) {
      lines.push('', 'From the environment (they override the settings for this command)');
      for (const [name, value] of Object.entries(overrides)) row(name, String(value));
    }
    io.out(lines.join('\n') + '\n');
    return EXIT.OK;
  });
}
