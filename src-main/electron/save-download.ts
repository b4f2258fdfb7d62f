import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { SaveResult } from '../common/reports';

/** An export prepared by prepareExport (see HostedApi.takeDownload): written once to a stream. */
export interface PreparedDownload {
  filename: string;
  write(out: Writable): Promise<void>;
}

export interface SaveDownloadDeps {
  /** Takes the prepared export (once); undefined when it is gone or too old. */
  take(downloadId: string): PreparedDownload | undefined;
  /** Its file name while it is prepared and not taken: asked before the dialog, which must not take it. */
  nameOf(downloadId: string): string | undefined;
  /** The OS's save dialog, starting at the export's own name; undefined when the manager cancels. */
  choosePath(defaultName: string): Promise<string | undefined>;
  /** A file to write to (a stream; tests may pass their own). */
  openFile?(path: string): Writable;
}

const GONE = 'This export is gone (saved already, or too old): export again.';

/**
 * Saves a prepared export to the file the manager picks. The file is written beside its final name and renamed when
 * complete, so a failure (a full disk, a yanked USB stick) never leaves a half file with the name accounting expects.
 * A cancelled dialog leaves the export ready to save again until it expires.
 */
export async function saveDownload(downloadId: string, deps: SaveDownloadDeps): Promise<SaveResult> {
  const name = typeof downloadId === 'string' ? deps.nameOf(downloadId) : undefined;
  if (name === undefined) return { saved: false, message: GONE };
  const path = await deps.choosePath(name);
  if (!path) return { saved: false, message: 'Not saved: the save dialog was cancelled.' };
  // Taken only now: it may have expired while the dialog was open.
  const download = deps.take(downloadId);
  if (!download) return { saved: false, message: GONE };
  const partial = `${path}.part`;
  try {
    const out = (deps.openFile ?? ((p: string) => createWriteStream(p)))(partial);
    await download.write(out);
    await rename(partial, path);
    return { saved: true, path, message: `Saved ${path}.` };
  } catch (err) {
    await rm(partial, { force: true }).catch(() => undefined);
    return { saved: false, message: `Not saved: ${(err as Error).message}` };
  }
}
