import type { WebContents } from 'electron';

export interface NavigationRules {
  /** The app's own pages: the only content allowed in any frame of any window. */
  isAppUrl(url: string): boolean;
  /**
   * Further places this web contents' top frame may go, asked at the moment it tries (its role and the settings
   * may change after it was created): the customer display's hosted payment page. Absent: nowhere else.
   */
  allowElsewhere?(url: string): boolean;
}

/**
 * Keeps every web contents on the app's own pages: no new windows, no navigating or being redirected
 * elsewhere (top frame or sub-frame), no <webview>. Anything loaded from outside would run next to the
 * preload's API. The one exception is `allowElsewhere`, for the top frame only.
 */
export function guardNavigation(contents: WebContents, rules: NavigationRules): void {
  const allowed = (url: string, isMainFrame: boolean): boolean =>
    rules.isAppUrl(url) || (isMainFrame && (rules.allowElsewhere?.(url) ?? false));

  contents.setWindowOpenHandler(({ url }) => {
    console.warn(`[security] blocked window.open(${url})`);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => {
    if (allowed(event.url, event.isMainFrame)) return;
    console.warn(`[security] blocked navigation to ${event.url}`);
    event.preventDefault();
  });
  // Sub-frames too (will-navigate is the top frame's only).
  contents.on('will-frame-navigate', (event) => {
    if (allowed(event.url, event.isMainFrame)) return;
    console.warn(`[security] blocked frame navigation to ${event.url}`);
    event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (allowed(event.url, event.isMainFrame)) return;
    console.warn(`[security] blocked redirect to ${event.url}`);
    event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    console.warn('[security] blocked a <webview>');
    event.preventDefault();
  });
}

export interface PaymentPagePolicy {
  /** The setting (for now `LOKET_DISPLAY_PAYMENT_PAGE=1`) that lets the display show the V1 hosted payment page. */
  allowPaymentPage: boolean;
  /** The configured gateway's origin (or base URL); null when there is none. */
  gatewayOrigin: string | null;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * May the customer display's top frame go to `url`? Only when the setting allows the hosted payment page, and only
 * to the configured gateway's own origin: over https, or over http on this machine (the embedded sandbox). A URL
 * carrying a user name or password is refused (it can disguise where it goes).
 */
export function allowDisplayNavigation(url: string, policy: PaymentPagePolicy): boolean {
  if (!policy.allowPaymentPage || !policy.gatewayOrigin) return false;
  const target = URL.canParse(url) ? new URL(url) : null;
  const gateway = URL.canParse(policy.gatewayOrigin) ? new URL(policy.gatewayOrigin) : null;
  if (!target || !gateway) return false;
  if (target.username !== '' || target.password !== '') return false;
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && LOOPBACK_HOSTS.has(target.hostname))) {
    return false;
  }
  return target.origin === gateway.origin;
}
