import type { WebContents } from 'electron';

/**
 * Keeps every web contents on the app's own pages: no new windows, no navigating or being redirected
 * elsewhere, no <webview>. Anything loaded from outside would run next to the preload's API.
 */
export function guardNavigation(contents: WebContents, isAppUrl: (url: string) => boolean): void {
  contents.setWindowOpenHandler(({ url }) => {
    console.warn(`[security] blocked window.open(${url})`);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url)) return;
    console.warn(`[security] blocked navigation to ${event.url}`);
    event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (isAppUrl(event.url)) return;
    console.warn(`[security] blocked redirect to ${event.url}`);
    event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    console.warn('[security] blocked a <webview>');
    event.preventDefault();
  });
}
