import type { CustomScheme } from 'electron';
import { readStatic } from '../web/static-files';
import { PAGE_CSP, SECURITY_HEADERS } from '../web/security';

/**
 * The desktop app's screens are served from `app://loket/` (as VS Code serves its own from `vscode-file://`), not
 * from file:// URLs: a page there is one origin of its own, with no reach into the file system, and it gets its
 * Content-Security-Policy as a header like browser mode's pages (frame-ancestors included, which a <meta> cannot
 * set). So the packaged app can turn the GrantFileProtocolExtraPrivileges fuse off (scripts/electron-fuses.mjs).
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'loket';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * Registered before the app is ready (Electron's rule). `standard`: relative URLs, an origin of its own and web
 * storage; `secure`: a secure context like https. Nothing more: no fetch() from pages, no service workers, no
 * CORS (with `corsEnabled`, any other origin could read these files), no bypassing the CSP.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, codeCache: true },
};

/** The URL of a screen: `view` picks it by the hash route (src-renderer/src/route.ts). */
export function appPageUrl(view?: 'display'): string {
  return `${APP_ORIGIN}/index.html${view ? `#/${view}` : ''}`;
}

/** True for a URL of the app's own origin, `app://loket/…` (one with a user name or password is not ours). */
export function isAppProtocolUrl(url: string): boolean {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  return (
    parsed !== null &&
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.host === APP_HOST &&
    parsed.username === '' &&
    parsed.password === ''
  );
}

/**
 * The handler of `app://` (protocol.handle): the files of the built renderer in `dir` and nothing else. Another
 * host, a path that leaves `dir` (`..`, encoded or not), a folder or a missing file is 404; anything but GET or HEAD
 * is 405. Every answer carries browser mode's security headers, and pages its Content-Security-Policy.
 */
export function appProtocolHandler(dir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = URL.canParse(request.url) ? new URL(request.url) : null;
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return new Response(null, { status: 405, headers: { ...SECURITY_HEADERS, allow: 'GET, HEAD' } });
    if (!url || !isAppProtocolUrl(url.href)) return notFound();
    const file = await readStatic(dir, url.pathname);
    if (!file) return notFound();
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      'content-type': file.type,
      'content-length': String(file.body.length),
      ...(file.type.startsWith('text/html') ? { 'content-security-policy': PAGE_CSP } : {}),
    };
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(file.body), { status: 200, headers });
  };
}

function notFound(): Response {
  return new Response(null, { status: 404, headers: { ...SECURITY_HEADERS } });
}
