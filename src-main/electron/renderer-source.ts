import { dirname, isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserWindow } from 'electron';

/** Where the renderer comes from: the electron-vite dev server, or the built files in out/renderer. */
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

/** True when `url` is one of the app's own pages, the only content allowed to run in our windows and call the API. */
export function isAppUrl(source: RendererSource, url: string): boolean {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed) return false;
  if (source.kind === 'dev-server') return parsed.origin === source.origin;
  // A file URL with a host names a network share, never our build output.
  if (parsed.protocol !== 'file:' || parsed.host !== '') return false;
  // The URL parser has already collapsed '..' segments and fileURLToPath decodes the rest,
  // so what is left to check is that the decoded path stays inside the renderer folder.
  const path = filePathOf(parsed);
  if (path === null) return false;
  const rel = relative(source.dir, path);
  return rel !== '' && !isAbsolute(rel) && rel.split(sep)[0] !== '..';
}

/** null for file URLs no real file can have (an encoded '/' or NUL): they are not ours, and must not throw in a guard. */
function filePathOf(url: URL): string | null {
  try {
    const path = fileURLToPath(url);
    return path.includes('\0') ? null : path;
  } catch {
    return null;
  }
}

/** Loads the renderer; `view` picks the screen by the hash route (src-renderer/src/route.ts): `#/display`. */
export function loadRenderer(window: BrowserWindow, source: RendererSource, view?: 'display'): Promise<void> {
  if (source.kind === 'dev-server') {
    return window.loadURL(view ? `${source.url.replace(/#.*$/, '')}#/${view}` : source.url);
  }
  return view ? window.loadFile(source.indexFile, { hash: `/${view}` }) : window.loadFile(source.indexFile);
}
