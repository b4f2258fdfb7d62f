import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ModeStatus, SecretName } from '../../common/manager';
import type { PaymentMethod } from '../../common/payment-methods';
import type { OpenOrdersWhat } from '../../common/reasons';
import type { LoketMode, LoketSettings, SettingsIssue } from '../../common/settings';
import { SECRET_OVERRIDES } from '../../adapters/override-secret-store';
import { secretLayersOf } from '../../adapters/secret-layers';
import { loadPaymentCatalogue } from '../../core/catalogue';
import { OrderLog } from '../../core/orders/order-log';
import type { SecretStoreUnavailableError } from '../../core/ports';
import type { SecretLayers } from '../../core/settings/keychain-state';
import { openOrdersRefusal } from '../../core/settings/open-orders';
import {
  changeSection,
  type ChangeResult,
  type FieldChange,
  type SettingsSection,
} from '../../core/settings/settings-changes';
import { openDatabase, openDatabaseReadOnly } from '../../db/open';
import { liveCredentialsProblem, type StoreBooks } from '../../runtime';
import type { Io } from '../cli-support';
import { EXIT, UsageError } from '../exit-codes';

/** What the config commands share: the flags' names, the secrets' words, the store's layers, the mode, changes. */

export const SECRET_NAMES: readonly SecretName[] = ['appkey', 'signing-secret'];
export const SECRET_WORDS: Record<SecretName, string> = { appkey: 'appkey', 'signing-secret': 'signing secret' };

/** The flag that sets each settings field, named after the field's rule in a refusal. */
export const FLAGS: Record<string, string> = {
  'gateway.baseUrl': '--url',
  'gateway.appId': '--app-id',
  'gateway.signing.key': '--signing',
  'gateway.signing.encoding': '--encoding',
  'gateway.inquiryPath': '--inquiry-path',
  'gateway.timeoutMs': '--timeout-ms',
  'gateway.timeZone': '--time-zone',
  'gateway.allowHttp': '--allow-http',
  storeName: '--name',
  storeAddress: '--address',
  terminalId: '--terminal-id',
  timeZone: '--time-zone',
  receiptHeader: '--receipt-header',
  receiptFooter: '--receipt-footer',
  lang: '--lang',
  'printer.kind': '--kind',
  'printer.host': '--host',
  'printer.port': '--port',
  'printer.paper': '--paper',
  'printer.systemName': '--system-name',
  'display.idleMessage': '--idle-message',
  'display.lang': '--lang',
  'access.requireCashierPin': '--require-cashier-pin',
  'access.managerIdleMinutes': '--manager-idle-minutes',
  confirm: '--confirm-gateway',
};

// ---------------------------------------------------------------- the keychain and the secrets

/** The store's secrets as layers: the environment over the OS keychain (core/settings/keychain-state.ts). */
export function layersOf(store: StoreBooks): SecretLayers {
  return secretLayersOf(store.secrets);
}

/** Where the appkey is read from now: "the OS keychain (Loket)", or the environment's variable. */
export function appkeyFrom(store: StoreBooks): string {
  const layers = layersOf(store);
  return layers.overridden('appkey') ? `the environment (${SECRET_OVERRIDES.appkey})` : layers.keychain.description;
}

/** "set (…abcd)", "set" (too short to show any of it) or "not set": never more of a secret. */
export function shown(status: { set: boolean; last4?: string }): string {
  return status.set ? (status.last4 ? `set (…${status.last4})` : 'set') : 'not set';
}

export function keychainFailure(io: Io, err: SecretStoreUnavailableError): number {
  io.err(`the OS keychain cannot be used: ${err.message}\nNothing was changed.\n`);
  return EXIT.KEYCHAIN;
}

/** Where a secret written now is read from, and whether the environment overrides it here. */
export function overrideNote(store: StoreBooks, name: SecretName): string {
  return layersOf(store).overridden(name)
    ? `note: ${SECRET_OVERRIDES[name]} is set in this environment and overrides the keychain's ${SECRET_WORDS[name]} here\n`
    : '';
}

// ---------------------------------------------------------------- orders open, the mode

/** Orders creating, awaiting payment or unknown in the order log `mode` uses (live: loket.db; training: training/loket.db). */
export function openOrderCount(store: StoreBooks, mode: LoketMode): number {
  if (mode === 'live') return new OrderLog(store.db).countOpen();
  const path = join(store.dataDir, 'training', 'loket.db');
  if (!existsSync(path)) return 0;
  const db = store.writable ? openDatabase(path) : openDatabaseReadOnly(path);
  try {
    return new OrderLog(db).countOpen();
  } finally {
    db.close();
  }
}

/**
 * The open-orders rule (core/settings/open-orders.ts) against the live order log, as the CLI words it: the message,
 * and that nothing was changed.
 */
export function openOrdersRefused(
  store: StoreBooks,
  settings: LoketSettings,
  what: OpenOrdersWhat,
): string | undefined {
  const issue = openOrdersRefusal(settings, () => openOrderCount(store, 'live'), what);
  return issue ? `${issue.message.replace(/\.$/, '')} (nothing was changed)` : undefined;
}

export async function modeStatus(
  store: StoreBooks,
  settings: LoketSettings,
  env: NodeJS.ProcessEnv,
): Promise<ModeStatus> {
  if (env.LOKET_GATEWAY_URL)
    return {
      setting: settings.mode,
      running: 'live',
      gateway: `${maskedUrl(env.LOKET_GATEWAY_URL)} (from the environment: LOKET_GATEWAY_URL overrides the settings)`,
    };
  const sandbox = 'an embedded sandbox (training mode: every order is marked SANDBOX, kept in training/loket.db)';
  if (settings.mode === 'live' && settings.gateway) {
    const problem = await liveCredentialsProblem(store.secrets, settings.gateway.signing.key);
    if (problem === undefined)
      return { setting: 'live', running: 'live', gateway: `${settings.gateway.baseUrl} (from settings)` };
    return {
      setting: 'live',
      running: 'sandbox',
      gateway: sandbox,
      notice:
        `Live mode is set, but ${problem.message.replace(/\.$/, '')}. Until then the CLI refuses to send orders (exit 5), and the app runs ` +
        'in training mode with this notice.',
    };
  }
  return { setting: settings.mode, running: 'sandbox', gateway: sandbox };
}

/** An address from the environment, shown without a user name, password or query values (a relay may carry a token). */
export function maskedUrl(url: string): string {
  return url.replace(/\/\/[^/?#]*@/, '//***@').replace(/([?&][^=&#]*)=[^&#]*/g, '$1=***');
}

export function bundledMethods(env: NodeJS.ProcessEnv): PaymentMethod[] {
  return loadPaymentCatalogue(env.LOKET_CATALOGUE);
}

// ---------------------------------------------------------------- changes

/** Several sections' changes in a row (set-store's --lang is the language section), as one change. */
export function combine(current: LoketSettings, steps: [SettingsSection, Record<string, unknown>][]): ChangeResult {
  let next = current;
  const changed: FieldChange[] = [];
  const issues: SettingsIssue[] = [];
  for (const [section, patch] of steps) {
    const result = changeSection(next, section, patch);
    if (!result.ok) issues.push(...result.issues);
    else {
      next = result.next;
      changed.push(...result.changed);
    }
  }
  return issues.length ? { ok: false, issues } : { ok: true, next, changed };
}

export function printChanges(io: Io, changed: readonly FieldChange[]): void {
  if (changed.length === 0) {
    io.out('nothing changed: the settings already say so\n');
    return;
  }
  for (const c of changed) io.out(`  ${c.field}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}\n`);
}

/** A whole number as a number; anything else as the text, so that the field's own rule refuses it by name. */
export function numberOrText(text: string): number | string {
  return /^\d{1,15}$/.test(text) ? Number(text) : text;
}

export function onOff(flag: string, text: string): boolean {
  const word = text.toLowerCase();
  if (['on', 'true', 'yes'].includes(word)) return true;
  if (['off', 'false', 'no'].includes(word)) return false;
  throw new UsageError(`${flag}: on or off (got ${JSON.stringify(text)})`);
}
