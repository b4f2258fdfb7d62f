import type { LoketSettings, SettingsIssue } from '../../common/settings';
import { reason, type OpenOrdersWhat } from '../../common/reasons';

const WORDS: Record<OpenOrdersWhat, string> = {
  change_gateway: 'change the gateway while live',
  change_credential: 'change a live credential',
  remove_credential: 'remove a live credential',
};

/**
 * The open-orders rule: while live, the gateway and its credentials stay as they are while any order is creating,
 * awaiting payment or unknown (a changed gateway could not settle them). `openOrders` is read only when live. The one
 * rule of the CLI's config commands and the manager service; each counts the orders of the log it has.
 */
export function openOrdersRefusal(
  settings: Pick<LoketSettings, 'mode'>,
  openOrders: () => number,
  what: OpenOrdersWhat,
): SettingsIssue | undefined {
  if (settings.mode !== 'live') return undefined;
  const open = openOrders();
  if (open === 0) return undefined;
  return {
    field: 'openOrders',
    message:
      `${open} order(s) are still creating, awaiting payment or unknown: settle or cancel them ` +
      `before you ${WORDS[what]}.`,
    reason: reason('settings.open_orders', { count: open, what }),
  };
}
