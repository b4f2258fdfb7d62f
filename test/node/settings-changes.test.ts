import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  isHostOrIp,
  isTimeZone,
  settingsIssues,
  settingsSchema,
  type LoketSettings,
} from '../../src-main/common/settings';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import {
  changeAccess,
  changeDisplay,
  changeGateway,
  changeLanguage,
  changePrinter,
  changeSection,
  changeStore,
  modeSwitch,
  replaceMethods,
  resetMethods,
  toggleMethod,
  type ChangeResult,
} from '../../src-main/core/settings/settings-changes';

const GATEWAY = {
  baseUrl: 'https://gateway.example',
  appId: 'toko-123',
  signing: { key: 'appkey', encoding: 'hex' },
  timeoutMs: 15_000,
  inquiryPath: '/api/status',
  timeZone: 'Asia/Jakarta',
} as const;
const WITH_GATEWAY: LoketSettings = { ...DEFAULT_SETTINGS, gateway: { ...GATEWAY, signing: { ...GATEWAY.signing } } };
const LIVE: LoketSettings = { ...WITH_GATEWAY, mode: 'live' };

/** The problems of a settings value, as the manager reads them. */
function problems(value: unknown): string[] {
  const parsed = settingsSchema.safeParse(value);
  return parsed.success ? [] : settingsIssues(parsed.error).map((i) => i.message);
}

function ok(result: ChangeResult) {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.issues)}`);
  return result;
}

/** The problems as the command line prints them: the field and the English words (the data a screen words is tested below). */
function issues(result: ChangeResult) {
  if (result.ok) throw new Error(`expected issues, got ${JSON.stringify(result.changed)}`);
  return result.issues.map(({ field, message }) => ({ field, message }));
}

/** The problems as a screen reads them: the field, the rule's numbers, the reason. */
function issueData(result: ChangeResult) {
  if (result.ok) throw new Error(`expected issues, got ${JSON.stringify(result.changed)}`);
  return result.issues.map(({ field, params, reason }) => ({ field, params, reason }));
}

describe('settings schema: the new fields, their defaults and their rules in plain words', () => {
  it('the defaults are complete and valid', () => {
    expect(settingsSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({
      mode: 'training',
      receiptHeader: '',
      receiptFooter: '',
      lang: 'id',
      display: { idleMessage: '', lang: 'id' },
      printer: { kind: 'none', paper: 58 },
      access: { requireCashierPin: false, managerIdleMinutes: 5 },
      paymentMethods: null,
    });
    expect(DEFAULT_SETTINGS.storeAddress).toBeUndefined();
  });

  it('store name, terminal id and time zone', () => {
    expect(problems({ ...DEFAULT_SETTINGS, storeName: '' })).toEqual(['storeName: 1 to 40 characters on one line']);
    expect(problems({ ...DEFAULT_SETTINGS, storeName: 'x'.repeat(41) })).toEqual([
      'storeName: 1 to 40 characters on one line',
    ]);
    expect(problems({ ...DEFAULT_SETTINGS, storeName: 42 })).toEqual(['storeName: 1 to 40 characters on one line']);
    expect(problems({ ...DEFAULT_SETTINGS, storeName: 'Toko\u001b@' })).toEqual([
      'storeName: 1 to 40 characters on one line, without control characters (tabs, escape codes)',
    ]);
    // Characters as people count them: 40 emoji fit.
    expect(problems({ ...DEFAULT_SETTINGS, storeName: '☕'.repeat(40) })).toEqual([]);
    expect(problems({ ...DEFAULT_SETTINGS, terminalId: 't-01' })).toEqual([
      'terminalId: must be 1 to 8 capital letters or digits',
    ]);
    for (const zone of ['Asia/Jakarta', 'Asia/Makassar', 'Asia/Jayapura', 'UTC']) {
      expect(isTimeZone(zone), zone).toBe(true);
      expect(problems({ ...DEFAULT_SETTINGS, timeZone: zone })).toEqual([]);
    }
    for (const zone of ['WIB', 'Asia/Bandung', '', ' Asia/Jakarta', 'GMT+7:00'])
      expect(problems({ ...DEFAULT_SETTINGS, timeZone: zone }), zone).toEqual([
        'timeZone: a time zone name such as Asia/Jakarta, Asia/Makassar or Asia/Jayapura',
      ]);
    expect(problems({ ...WITH_GATEWAY, gateway: { ...GATEWAY, timeZone: 'Mars/Olympus' } })).toEqual([
      'gateway.timeZone: a time zone name such as Asia/Jakarta, Asia/Makassar or Asia/Jayapura',
    ]);
  });

  it('address, receipt header and footer: what fits a 58 mm receipt', () => {
    const address = 'Jl. Merdeka No. 10\nKel. Sukamaju, Kec. Cibeunying\nBandung 40123';
    expect(problems({ ...DEFAULT_SETTINGS, storeAddress: address })).toEqual([]);
    expect(problems({ ...DEFAULT_SETTINGS, storeAddress: 'a\nb\nc\nd' })).toEqual([
      'storeAddress: at most 120 characters on at most 3 lines',
    ]);
    expect(problems({ ...DEFAULT_SETTINGS, storeAddress: 'x'.repeat(121) })).toEqual([
      'storeAddress: at most 120 characters on at most 3 lines',
    ]);
    const rule = 'at most 3 lines of at most 32 characters (what fits a 58 mm receipt)';
    expect(problems({ ...DEFAULT_SETTINGS, receiptHeader: 'x'.repeat(32), receiptFooter: 'a\r\nb\nc' })).toEqual([]);
    expect(problems({ ...DEFAULT_SETTINGS, receiptHeader: 'x'.repeat(33) })).toEqual([`receiptHeader: ${rule}`]);
    expect(problems({ ...DEFAULT_SETTINGS, receiptFooter: 'Terima kasih\n\nSampai jumpa\nlagi' })).toEqual([
      `receiptFooter: ${rule}`,
    ]);
    expect(problems({ ...DEFAULT_SETTINGS, receiptFooter: 'Tab\there' })).toEqual([
      `receiptFooter: ${rule}, without control characters (tabs, escape codes)`,
    ]);
  });

  it('language, display and access', () => {
    expect(problems({ ...DEFAULT_SETTINGS, lang: 'fr' })).toEqual(["lang: 'id' (Bahasa Indonesia) or 'en' (English)"]);
    expect(problems({ ...DEFAULT_SETTINGS, display: { idleMessage: 'x'.repeat(81), lang: 'jv' } })).toEqual([
      'display.idleMessage: at most 80 characters on one line',
      "display.lang: 'id' (Bahasa Indonesia) or 'en' (English)",
    ]);
    expect(problems({ ...DEFAULT_SETTINGS, display: { idleMessage: '', lang: 'en' } })).toEqual([]);
    expect(problems({ ...DEFAULT_SETTINGS, access: { requireCashierPin: 'ya', managerIdleMinutes: 0 } })).toEqual([
      'access.requireCashierPin: true or false',
      'access.managerIdleMinutes: a whole number of minutes from 1 to 60',
    ]);
    expect(problems({ ...DEFAULT_SETTINGS, access: { requireCashierPin: true, managerIdleMinutes: 60.5 } })).toEqual([
      'access.managerIdleMinutes: a whole number of minutes from 1 to 60',
    ]);
  });

  it('printer: a network printer needs a host (hostname or IP) and a port 1–65535', () => {
    expect(problems({ ...DEFAULT_SETTINGS, printer: { kind: 'network', paper: 80 } })).toEqual([
      'printer.host: required for a network printer: a hostname or an IP address (e.g. printer.local or 192.168.1.50)',
      'printer.port: required for a network printer: a port number from 1 to 65535 (usually 9100)',
    ]);
    expect(
      problems({ ...DEFAULT_SETTINGS, printer: { kind: 'network', host: 'printer_1', port: 70000, paper: 57 } }),
    ).toEqual([
      'printer.host: a hostname or an IP address (e.g. printer.local or 192.168.1.50)',
      'printer.port: a port number from 1 to 65535 (ESC/POS printers usually listen on 9100)',
      'printer.paper: 58 or 80 (the paper width in mm)',
    ]);
    for (const host of ['192.168.1.50', 'printer.local', 'kasir-1', 'fe80::1', 'EPSON-TM.lan'])
      expect(isHostOrIp(host), host).toBe(true);
    for (const host of ['999.1.1.1', 'a b', '-x', 'http://printer', '']) expect(isHostOrIp(host), host).toBe(false);
    expect(
      problems({ ...DEFAULT_SETTINGS, printer: { kind: 'network', host: '10.0.0.9', port: 9100, paper: 58 } }),
    ).toEqual([]);
    expect(
      problems({ ...DEFAULT_SETTINGS, printer: { kind: 'system', paper: 80, systemName: 'EPSON TM-T82' } }),
    ).toEqual([]);
    expect(problems({ ...DEFAULT_SETTINGS, printer: { kind: 'usb', paper: 58 } })).toEqual([
      "printer.kind: 'none', 'network' (an ESC/POS printer on the network) or 'system' (a printer of this computer)",
    ]);
  });

  it('mode: live needs a gateway; payment methods: the catalogue rules and at least one enabled', () => {
    expect(problems({ ...DEFAULT_SETTINGS, mode: 'live' })).toEqual([
      'mode: live needs a configured gateway (set the gateway first)',
    ]);
    expect(problems({ ...DEFAULT_SETTINGS, mode: 'production' })).toEqual(["mode: 'training' or 'live'"]);
    expect(problems(LIVE)).toEqual([]);
    const methods = loadPaymentCatalogue();
    expect(problems({ ...DEFAULT_SETTINGS, paymentMethods: methods })).toEqual([]);
    expect(problems({ ...DEFAULT_SETTINGS, paymentMethods: methods.map((m) => ({ ...m, enabled: false })) })).toEqual([
      'paymentMethods: at least one payment method must be enabled (else the till cannot take payment)',
    ]);
  });

  it('URLs never carry credentials, and unknown keys are named', () => {
    expect(
      problems({ ...WITH_GATEWAY, gateway: { ...GATEWAY, baseUrl: 'https://toko:rahasia@gateway.example' } }),
    ).toEqual([
      'gateway.baseUrl: an http(s) address without a query, user name or password, e.g. https://gateway.example',
    ]);
    expect(problems({ ...DEFAULT_SETTINGS, colour: 'red' })).toEqual(['colour: not a setting Loket knows']);
  });
});

describe('section changes: the next settings, the changed fields, the problems by field', () => {
  it('store: changes only what differs, trims names, clears the address with null', () => {
    const first = ok(
      changeStore(DEFAULT_SETTINGS, {
        storeName: '  Warung Bu Sri ',
        storeAddress: 'Jl. Kenanga 5\nYogyakarta',
        terminalId: 'T01',
        receiptFooter: 'Terima kasih!',
      }),
    );
    expect(first.next).toMatchObject({
      storeName: 'Warung Bu Sri',
      storeAddress: 'Jl. Kenanga 5\nYogyakarta',
      receiptFooter: 'Terima kasih!',
    });
    expect(first.changed).toEqual([
      { field: 'storeName', from: 'Toko Loket', to: 'Warung Bu Sri' },
      { field: 'storeAddress', from: null, to: 'Jl. Kenanga 5\nYogyakarta' },
      { field: 'receiptFooter', from: '', to: 'Terima kasih!' },
    ]);
    const cleared = ok(changeStore(first.next, { storeAddress: null }));
    expect(cleared.next.storeAddress).toBeUndefined();
    expect('storeAddress' in cleared.next).toBe(false);
    expect(cleared.changed).toEqual([{ field: 'storeAddress', from: 'Jl. Kenanga 5\nYogyakarta', to: null }]);
    expect(ok(changeStore(first.next, { storeName: 'Warung Bu Sri' })).changed).toEqual([]);
  });

  it('store: every problem, each naming its field; the current settings are untouched', () => {
    const before = structuredClone(DEFAULT_SETTINGS);
    expect(
      issues(changeStore(DEFAULT_SETTINGS, { storeName: '', timeZone: 'Jakarta', receiptHeader: 'x'.repeat(40) })),
    ).toEqual([
      { field: 'storeName', message: 'storeName: 1 to 40 characters on one line' },
      {
        field: 'timeZone',
        message: 'timeZone: a time zone name such as Asia/Jakarta, Asia/Makassar or Asia/Jayapura',
      },
      {
        field: 'receiptHeader',
        message: 'receiptHeader: at most 3 lines of at most 32 characters (what fits a 58 mm receipt)',
      },
    ]);
    expect(issues(changeSection(DEFAULT_SETTINGS, 'store', { storeName: 'A', gateway: null }))).toEqual([
      {
        field: 'gateway',
        message:
          'gateway: not a setting Loket knows (this section has: storeName, storeAddress, terminalId, timeZone, receiptHeader, receiptFooter)',
      },
    ]);
    expect(issues(changeSection(DEFAULT_SETTINGS, 'store', 'Warung'))).toEqual([
      { field: 'store', message: 'store: the changes must be an object of fields' },
    ]);
    expect(DEFAULT_SETTINGS).toEqual(before);
  });

  it('gateway: configuring one needs base URL and appid; others default; leaf fields are audited', () => {
    expect(issues(changeGateway(DEFAULT_SETTINGS, { timeoutMs: 5000 })).map((i) => i.field)).toEqual([
      'gateway.baseUrl',
      'gateway.appId',
    ]);
    const configured = ok(changeGateway(DEFAULT_SETTINGS, { baseUrl: 'https://gateway.example/', appId: 'toko-123' }));
    expect(configured.next.gateway).toEqual({
      baseUrl: 'https://gateway.example',
      appId: 'toko-123',
      signing: { key: 'appkey', encoding: 'hex' },
      timeoutMs: 15_000,
      inquiryPath: null,
      timeZone: 'Asia/Jakarta',
    });
    expect(configured.next.mode).toBe('training');
    // A gateway that appears is audited field by field (inquiryPath stays null: no change to record).
    expect(configured.changed).toEqual([
      { field: 'gateway.baseUrl', from: null, to: 'https://gateway.example' },
      { field: 'gateway.appId', from: null, to: 'toko-123' },
      { field: 'gateway.signing.key', from: null, to: 'appkey' },
      { field: 'gateway.signing.encoding', from: null, to: 'hex' },
      { field: 'gateway.timeoutMs', from: null, to: 15_000 },
      { field: 'gateway.timeZone', from: null, to: 'Asia/Jakarta' },
    ]);

    const changed = ok(
      changeGateway(configured.next, {
        signing: { encoding: 'base64' },
        timeoutMs: 20_000,
        inquiryPath: '/api/status',
        callbackListener: { host: '0.0.0.0', port: 8788, publicUrl: 'https://relay.example/cb?token=abc123&shop=7' },
      }),
    );
    expect(changed.next.gateway?.signing).toEqual({ key: 'appkey', encoding: 'base64' });
    expect(changed.next.callbackListener).toEqual({
      host: '0.0.0.0',
      port: 8788,
      path: '/loket/callback',
      publicUrl: 'https://relay.example/cb?token=abc123&shop=7',
    });
    expect(changed.changed).toEqual([
      { field: 'gateway.signing.encoding', from: 'hex', to: 'base64' },
      { field: 'gateway.timeoutMs', from: 15_000, to: 20_000 },
      { field: 'gateway.inquiryPath', from: null, to: '/api/status' },
      { field: 'callbackListener.host', from: null, to: '0.0.0.0' },
      { field: 'callbackListener.port', from: null, to: 8788 },
      { field: 'callbackListener.path', from: null, to: '/loket/callback' },
      // A relay's token is not written to the audit.
      { field: 'callbackListener.publicUrl', from: null, to: 'https://relay.example/cb?token=***&shop=***' },
    ]);
    expect(JSON.stringify(changed.changed)).not.toContain('abc123');

    const cleared = ok(changeGateway(changed.next, { inquiryPath: '', callbackListener: { publicUrl: null } }));
    expect(cleared.next.gateway?.inquiryPath).toBeNull();
    expect(cleared.next.callbackListener).toEqual({ host: '0.0.0.0', port: 8788, path: '/loket/callback' });
  });

  it('gateway: problems name the field; unknown keys too; removal refused in live mode', () => {
    expect(
      issues(
        changeGateway(WITH_GATEWAY, {
          baseUrl: 'ftp://gateway.example',
          timeoutMs: 500,
          signing: { encoding: 'base32' as 'hex' },
          callbackListener: { port: -1, publicUrl: 'relay.example' },
        }),
      ),
    ).toEqual([
      {
        field: 'gateway.baseUrl',
        message:
          'gateway.baseUrl: an http(s) address without a query, user name or password, e.g. https://gateway.example',
      },
      { field: 'gateway.signing.encoding', message: "gateway.signing.encoding: 'hex' or 'base64'" },
      {
        field: 'gateway.timeoutMs',
        message: 'gateway.timeoutMs: a whole number of milliseconds from 1000 (1 s) to 120000 (2 min)',
      },
      {
        field: 'callbackListener.port',
        message: 'callbackListener.port: a port number from 0 to 65535 (0 picks a free one)',
      },
      {
        field: 'callbackListener.publicUrl',
        message:
          'callbackListener.publicUrl: an http(s) address the gateway can reach (a relay or a tunnel), at most 2048 characters',
      },
    ]);
    expect(issues(changeSection(WITH_GATEWAY, 'gateway', { appkey: 'x' }))[0]?.field).toBe('gateway.appkey');
    expect(issues(changeSection(WITH_GATEWAY, 'gateway', { signing: { secret: 's' } }))[0]?.field).toBe(
      'gateway.signing.secret',
    );
    expect(issues(changeGateway(LIVE, null))).toEqual([
      {
        field: 'gateway',
        message: 'gateway: cannot be removed in live mode: switch to training first, then remove the gateway',
      },
    ]);
    const removed = ok(changeGateway(WITH_GATEWAY, null));
    expect(removed.next.gateway).toBeNull();
    expect(removed.changed.map((c) => c.field)).toContain('gateway.baseUrl');
  });

  it('printer: switching to a network printer, and back; null clears a field', () => {
    expect(issues(changePrinter(DEFAULT_SETTINGS, { kind: 'network' })).map((i) => i.field)).toEqual([
      'printer.host',
      'printer.port',
    ]);
    const network = ok(
      changePrinter(DEFAULT_SETTINGS, { kind: 'network', host: ' 192.168.1.50 ', port: 9100, paper: 80 }),
    );
    expect(network.next.printer).toEqual({
      kind: 'network',
      host: '192.168.1.50',
      port: 9100,
      paper: 80,
      autoPrint: false,
    });
    expect(network.changed).toEqual([
      { field: 'printer.kind', from: 'none', to: 'network' },
      { field: 'printer.paper', from: 58, to: 80 },
      { field: 'printer.host', from: null, to: '192.168.1.50' },
      { field: 'printer.port', from: null, to: 9100 },
    ]);
    const system = ok(changePrinter(network.next, { kind: 'system', host: null, port: null, systemName: 'POS-58' }));
    expect(system.next.printer).toEqual({ kind: 'system', paper: 80, systemName: 'POS-58', autoPrint: false });
    expect(issues(changePrinter(network.next, { port: 0 }))).toEqual([
      {
        field: 'printer.port',
        message: 'printer.port: a port number from 1 to 65535 (ESC/POS printers usually listen on 9100)',
      },
    ]);
  });

  it('display, language and access', () => {
    const display = ok(changeDisplay(DEFAULT_SETTINGS, { idleMessage: 'Welcome to Warung Bu Sri', lang: 'en' }));
    expect(display.changed).toEqual([
      { field: 'display.idleMessage', from: '', to: 'Welcome to Warung Bu Sri' },
      { field: 'display.lang', from: 'id', to: 'en' },
    ]);
    expect(issues(changeDisplay(DEFAULT_SETTINGS, { idleMessage: 'Selamat\ndatang' }))[0]?.field).toBe(
      'display.idleMessage',
    );
    expect(ok(changeLanguage(DEFAULT_SETTINGS, { lang: 'en' })).changed).toEqual([
      { field: 'lang', from: 'id', to: 'en' },
    ]);
    expect(issues(changeLanguage(DEFAULT_SETTINGS, { lang: 'su' as 'id' }))).toEqual([
      { field: 'lang', message: "lang: 'id' (Bahasa Indonesia) or 'en' (English)" },
    ]);
    expect(issues(changeSection(DEFAULT_SETTINGS, 'language', {}))[0]?.field).toBe('lang');
    const access = ok(changeAccess(DEFAULT_SETTINGS, { requireCashierPin: true, managerIdleMinutes: 10 }));
    expect(access.next.access).toEqual({ requireCashierPin: true, managerIdleMinutes: 10 });
    expect(access.changed.map((c) => c.field)).toEqual(['access.requireCashierPin', 'access.managerIdleMinutes']);
    expect(issues(changeAccess(DEFAULT_SETTINGS, { managerIdleMinutes: 61 }))).toEqual([
      {
        field: 'access.managerIdleMinutes',
        message: 'access.managerIdleMinutes: a whole number of minutes from 1 to 60',
      },
    ]);
  });

  it('no section writes a secret: a key named like one is refused, and no value of the changed list is one', () => {
    const result = changeSection(WITH_GATEWAY, 'gateway', { appKey: 'sk-live-123', baseUrl: 'https://g.example' });
    expect(issues(result)[0]?.message).toMatch(/^gateway\.appKey: not a setting Loket knows/);
    expect(JSON.stringify(result)).not.toContain('sk-live-123');
  });
});

describe('modeSwitch: training ↔ live', () => {
  it('to live: needs a gateway, the base URL typed as confirmation, and no open order', () => {
    expect(issues(modeSwitch(DEFAULT_SETTINGS, 'live', 0, 'https://gateway.example'))).toEqual([
      {
        field: 'gateway',
        message:
          'gateway: live mode needs a gateway: set its base URL, appid and appkey first, and test the connection',
      },
    ]);
    expect(issues(modeSwitch(WITH_GATEWAY, 'live', 0, 'yes'))).toEqual([
      {
        field: 'confirm',
        message: "confirm: to switch to live, type the gateway's base URL exactly: https://gateway.example",
      },
    ]);
    expect(issues(modeSwitch(WITH_GATEWAY, 'live', 0, 'https://other.example')).map((i) => i.field)).toEqual([
      'confirm',
    ]);
    const live = ok(modeSwitch(WITH_GATEWAY, 'live', 0, ' https://gateway.example/ '));
    expect(live.next.mode).toBe('live');
    expect(live.next.gateway).toEqual(WITH_GATEWAY.gateway);
    expect(live.changed).toEqual([{ field: 'mode', from: 'training', to: 'live' }]);
  });

  it('either way is refused while orders are open, saying how many and what to do, with every other problem', () => {
    const one = issues(modeSwitch(LIVE, 'training', 1, ''));
    expect(one).toEqual([
      {
        field: 'mode',
        message:
          'mode: 1 order is still open (being created, awaiting payment or unknown) in live mode; finish it first: ' +
          'wait for payment or expiry, cancel, or resolve the unknown ones in the order list, then switch to training',
      },
    ]);
    const three = issues(modeSwitch(WITH_GATEWAY, 'live', 3, 'wrong'));
    expect(three.map((i) => i.field)).toEqual(['mode', 'confirm']);
    expect(three[0]?.message).toMatch(/^mode: 3 orders are still open .* in training mode; finish them first/);
    expect(ok(modeSwitch(LIVE, 'training', 0, '')).changed).toEqual([{ field: 'mode', from: 'live', to: 'training' }]);
  });

  it('the mode already set is no change; a mode that does not exist is a problem', () => {
    expect(ok(modeSwitch(LIVE, 'live', 5, '')).changed).toEqual([]);
    expect(issues(modeSwitch(LIVE, 'test' as 'live', 0, ''))).toEqual([
      { field: 'mode', message: "mode: 'training' or 'live' (got \"test\")" },
    ]);
  });
});

describe('payment methods in the settings', () => {
  const bundled = loadPaymentCatalogue();

  it('the first toggle copies the bundled catalogue; the change is one field', () => {
    const off = ok(toggleMethod(DEFAULT_SETTINGS, bundled, 'ewallet_ovo', false));
    expect(off.next.paymentMethods?.find((m) => m.id === 'ewallet_ovo')?.enabled).toBe(false);
    expect(off.next.paymentMethods).toHaveLength(bundled.length);
    expect(off.changed).toEqual([{ field: 'paymentMethods.ewallet_ovo.enabled', from: true, to: false }]);
    expect(ok(toggleMethod(off.next, bundled, 'ewallet_ovo', false)).changed).toEqual([]);
    expect(issues(toggleMethod(off.next, bundled, 'ewallet_nope', true))[0]?.field).toBe('paymentMethods.ewallet_nope');
  });

  it('an import replaces the list (audited as a summary); reset goes back to the bundled catalogue', () => {
    const mine = bundled.slice(0, 2).map((m, i) => ({ ...m, enabled: i === 0 }));
    const imported = ok(replaceMethods(DEFAULT_SETTINGS, mine));
    expect(imported.next.paymentMethods).toEqual(mine);
    expect(imported.changed).toEqual([
      { field: 'paymentMethods', from: null, to: { ids: [mine[0]!.id, mine[1]!.id], enabled: [mine[0]!.id] } },
    ]);
    expect(
      issues(
        replaceMethods(
          DEFAULT_SETTINGS,
          mine.map((m) => ({ ...m, enabled: false })),
        ),
      )[0]?.field,
    ).toBe('paymentMethods');
    const reset = ok(resetMethods(imported.next));
    expect(reset.next.paymentMethods).toBeNull();
    expect(reset.changed[0]?.to).toBeNull();
  });
});

describe("problems carry what a screen words them from: the rule's numbers, the reason", () => {
  it('a rule with numbers gives them; a refusal gives its reason; nothing needs the English', () => {
    expect(issueData(changeStore(DEFAULT_SETTINGS, { storeName: '', receiptHeader: 'x'.repeat(33) }))).toEqual([
      { field: 'storeName', params: { min: 1, max: 40 }, reason: undefined },
      { field: 'receiptHeader', params: { maxLines: 3, lineWidth: 32 }, reason: undefined },
    ]);
    expect(issueData(changeGateway(WITH_GATEWAY, { timeoutMs: 999 }))).toEqual([
      { field: 'gateway.timeoutMs', params: { min: 1000, max: 120_000 }, reason: undefined },
    ]);
    expect(issueData(modeSwitch(WITH_GATEWAY, 'live', 2, 'https://other.example'))).toEqual([
      {
        field: 'mode',
        params: undefined,
        reason: { key: 'mode.open_orders', params: { count: 2, mode: 'training', to: 'live' } },
      },
      {
        field: 'confirm',
        params: undefined,
        reason: { key: 'mode.confirm', params: { baseUrl: 'https://gateway.example' } },
      },
    ]);
    expect(issueData(changeSection(DEFAULT_SETTINGS, 'store', { colour: 'red' }))).toEqual([
      { field: 'colour', params: undefined, reason: { key: 'settings.unknown_field', params: { field: 'colour' } } },
    ]);
  });
});
