import { parseArgs } from 'node:util';
import type { ConnectionReport } from '../../common/manager';
import { testConnection } from '../../core/gateway/probe';
import { recordConnectionTest } from '../../core/settings/gateway-secrets';
import { cliUser, withStore, type Io, type StoreOptions } from '../cli-support';
import { EXIT } from '../exit-codes';
import { appkeyFrom } from './shared';

/** config test: the configured gateway, with the stored credentials; audited as the manager's test is. */
const VERDICT_EXIT: Record<ConnectionReport['verdict'], number> = {
  ok: EXIT.OK,
  unknown_appid: EXIT.REJECTED,
  bad_key: EXIT.REJECTED,
  bad_signature: EXIT.REJECTED,
  refused: EXIT.REJECTED,
  unreachable: EXIT.NOT_SENT_OR_UNKNOWN,
  unexpected: EXIT.NOT_SENT_OR_UNKNOWN,
  no_secret: EXIT.KEYCHAIN,
};

export async function test(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { values } = parseArgs({ args: argv, strict: true, options: { json: { type: 'boolean' } } });
  return withStore(options, async (store) => {
    const gateway = store.settings.load().gateway;
    if (!gateway) {
      io.err(
        'no gateway is configured: set one with npm run cli -- config set-gateway --url URL --app-id ID --app-key-stdin\n',
      );
      return EXIT.INVALID_INPUT;
    }
    const from = appkeyFrom(store);
    const report = await testConnection({ ...gateway }, store.secrets);
    recordConnectionTest(store, cliUser(), report);
    if (values.json) io.out(JSON.stringify(report, null, 2) + '\n');
    else {
      io.out(`Testing ${gateway.baseUrl} (appid ${gateway.appId}) with the appkey from ${from}\n`);
      (report.verdict === 'ok' ? io.out : io.err)(`${report.message}\n`);
    }
    return VERDICT_EXIT[report.verdict];
  });
}
