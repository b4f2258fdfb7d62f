import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '../../src-main/common/settings';
import { OrderLog } from '../../src-main/core/orders/order-log';
import { SETTINGS_KEY, SettingsStore } from '../../src-main/core/settings/settings-store';
import { openDatabase, type Database } from '../../src-main/db/open';

let dir: string;
let path: string;
let db: Database;
let store: SettingsStore;
let now: Date;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loket-settings-'));
  path = join(dir, 'loket.db');
  db = openDatabase(path);
  now = new Date('2025-03-01T03:00:00.000Z');
  store = new SettingsStore(db, { now: () => now });
});

afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SettingsStore', () => {
  it('round-trips JSON values by key and survives a re-open', () => {
    expect(store.get('terminal')).toBeUndefined();
    store.set('terminal', { id: 'T1', printers: ['lp0'], copies: 2, kiosk: false });
    store.set('language', 'id');
    now = new Date('2025-03-01T04:00:00.000Z');
    store.set('language', 'en');
    store.set('nothing', null);
    expect(() => store.set('bad', undefined)).toThrow(/cannot be stored as JSON/);

    db.close();
    db = openDatabase(path);
    store = new SettingsStore(db);
    expect(store.get<{ id: string }>('terminal')).toEqual({ id: 'T1', printers: ['lp0'], copies: 2, kiosk: false });
    expect(store.get('language')).toBe('en');
    expect(store.get('nothing')).toBeNull();
    expect(store.get('bad')).toBeUndefined();
    // The last write's time, from the store's clock.
    expect(db.prepare("SELECT updated_at FROM settings WHERE key = 'language'").pluck().get()).toBe(
      '2025-03-01T04:00:00.000Z',
    );
  });

  it('refuses a key named like a secret: secrets live in the keychain, never in this file', () => {
    for (const key of ['appkey', 'appKey', 'signing-secret', 'gatewayPassword', 'apiToken'])
      expect(() => store.set(key, 'x'), key).toThrow(/secrets are kept in the keychain/);
    expect(db.prepare('SELECT COUNT(*) FROM settings').pluck().get()).toBe(0);
  });

  it('load() gives the defaults when nothing is stored, and fills in the fields a stored value lacks', () => {
    expect(store.load()).toEqual(DEFAULT_SETTINGS);
    store.set(SETTINGS_KEY, { storeName: 'Warung Bu Sri', terminalId: 'K2' });
    expect(store.load()).toEqual({ ...DEFAULT_SETTINGS, storeName: 'Warung Bu Sri', terminalId: 'K2' });
  });

  it('load() refuses stored settings that are not valid, with the plain message naming each problem', () => {
    store.set(SETTINGS_KEY, { terminalId: 't-01', storeName: '' });
    expect(() => store.load()).toThrow(
      'the stored settings are not valid (storeName: 1 to 40 characters on one line; ' +
        'terminalId: must be 1 to 8 capital letters or digits); fix them with the manager screen or reset them',
    );
    store.set(SETTINGS_KEY, { printer: 'lp0' });
    expect(() => store.load()).toThrow(/^the stored settings are not valid \(.*printer.*\); fix them/);
  });

  it('load(): settings stored before `mode` existed meant live when they had a gateway, training without one', () => {
    const gateway = {
      baseUrl: 'https://gateway.example',
      appId: 'toko-123',
      signing: { key: 'appkey', encoding: 'hex' },
      timeoutMs: 15000,
      inquiryPath: null,
      timeZone: 'Asia/Jakarta',
    };
    // As an older Loket stored them: no mode, and none of the fields added since.
    store.set(SETTINGS_KEY, { storeName: 'Warung Bu Sri', terminalId: 'K2', timeZone: 'Asia/Jakarta', gateway });
    expect(store.load()).toEqual({
      ...DEFAULT_SETTINGS,
      storeName: 'Warung Bu Sri',
      terminalId: 'K2',
      gateway,
      mode: 'live',
    });
    store.set(SETTINGS_KEY, { storeName: 'Warung Bu Sri', gateway: null, callbackListener: null });
    expect(store.load().mode).toBe('training');
    // A stored mode is kept as it is: a configured gateway in training mode stays in training.
    store.set(SETTINGS_KEY, { mode: 'training', gateway });
    expect(store.load().mode).toBe('training');
    // And live without a gateway is not a state settings can be in.
    store.set(SETTINGS_KEY, { mode: 'live' });
    expect(() => store.load()).toThrow(/mode: live needs a configured gateway/);
  });

  it('a write inside a transaction on the same connection joins it and rolls back with it', () => {
    const log = new OrderLog(db);
    expect(() =>
      log.atomically(() => {
        store.set('language', 'id');
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(store.get('language')).toBeUndefined();
    log.atomically(() => store.set('language', 'id'));
    expect(store.get('language')).toBe('id');
  });
});
