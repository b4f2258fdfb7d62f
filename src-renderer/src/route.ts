export type View = 'cashier' | 'display';

export interface Route {
  view: View;
  /** The cashier's token or the display's key (browser mode); null when there is none. */
  secret: string | null;
}

const STORAGE_KEY: Record<View, string> = { cashier: 'loket.token', display: 'loket.displayKey' };
const PARAM: Record<View, string> = { cashier: 'token', display: 'key' };

function readStorage(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Storage disabled: the secret lives only as long as this page.
  }
}

/**
 * Reads the view and its secret from the hash (`#/cashier?token=T`, `#/display?key=K`), keeps the secret in
 * sessionStorage, and replaces the hash with the bare view so the secret does not stay in the address bar or
 * the history. Anything else is the cashier.
 */
export function resolveRoute(location: Location = window.location): Route {
  const m = /^#\/(cashier|display)\/?(?:\?(.*))?$/.exec(location.hash);
  const view: View = m?.[1] === 'display' ? 'display' : 'cashier';
  const fromUrl = new URLSearchParams(m?.[2] ?? '').get(PARAM[view]);
  let secret = fromUrl;
  if (fromUrl) writeStorage(STORAGE_KEY[view], fromUrl);
  else secret = readStorage(STORAGE_KEY[view]);
  const clean = `#/${view}`;
  if (location.hash !== clean)
    history.replaceState(history.state, '', `${location.pathname}${location.search}${clean}`);
  return { view, secret };
}
