import type { Session } from 'electron';
import { PAGE_CSP } from '../web/security';

/**
 * The app's pages get browser mode's Content-Security-Policy as a response header too (script only from the app,
 * no framing, no forms, no <base>). This covers pages served over http (electron-vite's dev server); the built
 * pages (app://loket/) get it from their protocol handler (app-protocol.ts). Both also carry the <meta http-equiv>
 * policy of src-renderer/index.html: the same directives but frame-ancestors, which a <meta> cannot set. A page
 * that is not the app's (the display's hosted payment page) keeps its own.
 */
export function enforceContentSecurityPolicy(session: Session, isAppUrl: (url: string) => boolean): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    const page = details.resourceType === 'mainFrame' || details.resourceType === 'subFrame';
    if (!page || !isAppUrl(details.url)) {
      callback({});
      return;
    }
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [PAGE_CSP];
    callback({ responseHeaders: headers });
  });
}
