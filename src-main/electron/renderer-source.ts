import { dirname } from 'node:path';
import type { BrowserWindow } from 'electron';
import { appPageUrl, isAppProtocolUrl } from './app-protocol';

/**
 * Where the renderer comes from: the electron-vite dev server, or the built files in out/renderer, served as
 * `app://loket/` (app-protocol.ts).
 */
export type RendererSource =
  { kind: 'dev-server'; url: string; origin: string } | { kind: 'files'; indexFile: string; dir: string };

export function resolveRendererSource(options: {
  /** Only pass this in development: in a packaged app an environment variable must not pick the code we trust. */
  devServerUrl: string | undefined;
  indexFile: string;
}): RendererSource {
  if (options.devServerUrl) {
    const url = new URL(options.devServerUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`ELECTRON_RENDERER_URL must be an http(s) URL, got ${options.devServerUrl}`);
    }
    return { kind: 'dev-server', url: url.href, origin: url.origin };
  }
  return { kind: 'files', indexFile: options.indexFile, dir: dirname(options.indexFile) };
}

/**
 * True when `url` is one of the app's own pages, the only content allowed to run in our windows and call the API:
 * the dev server's origin, or `app://loket/`, whose handler serves the renderer folder and nothing else. A file://
 * URL never is, not even of the renderer folder.
 */
export function isAppUrl(source: RendererSource, url: string): boolean {
  if (source.kind === 'dev-server') {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    return parsed !== null && parsed.origin === source.origin;
  }
  return isAppProtocolUrl(url);
}

/** Loads the renderer; `view` picks the screen by the hash route (src-renderer/src/route.ts): `#/display`. */
export function loadRenderer(window: BrowserWindow, source: RendererSource, view?: 'display'): Promise<void> {
  if (source.kind === 'dev-server') {
    return window.loadURL(view ? `${source.url.replace(/#.*$/, '')}#/${view}` : source.url);
  }
  return window.loadURL(appPageUrl(view));
}
