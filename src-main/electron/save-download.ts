import type { Writable } from 'node:stream';
import type { Download } from '../app-host';
import { reason } from '../common/reasons';
import type { SaveResult } from '../common/reports';
import { writeFileAtomically } from '../core/export/export-file';

export interface SaveDownloadDeps {
  /** Takes the prepared export (once); undefined when it is gone or too old. */
  take(downloadId: string): Pick<Download, 'filename' | 'write'> | undefined;
  /** Its file name while it is prepared and not taken: asked before the dialog, which must not take it. */
  nameOf(downloadId: string): string | undefined;
  /** The OS's save dialog, starting at the export's own name; undefined when the manager cancels. */
  choosePath(defaultName: string): Promise<string | undefined>;
  /** The file stream to write to (tests: a disk that fails). */
  openFile?(path: string): Writable;
}

const GONE = 'This export is gone (saved already, or too old): export again.';

/**
 * Saves a prepared export to the file the manager picks, through writeFileAtomically: a failure (a full disk, a
 * yanked USB stick) never leaves a half file with the name accounting expects. A cancelled dialog leaves the export
 * ready to save again until it expires.
 */
export async function saveDownload(downloadId: string, deps: SaveDownloadDeps): Promise<SaveResult> {
  const name = typeof downloadId === 'string' ? deps.nameOf(downloadId) : undefined;
  if (name === undefined) return { saved: false, message: GONE, reason: reason('save.gone') };
  const path = await deps.choosePath(name);
  if (!path)
    return { saved: false, message: 'Not saved: the save dialog was cancelled.', reason: reason('save.cancelled') };
  // Taken only now: it may have expired while the dialog was open.
  const download = deps.take(downloadId);
  if (!download) return { saved: false, message: GONE, reason: reason('save.gone') };
  try {
    // Private to this user, flushed, renamed when complete: the command line's export does the same. The save
    // dialog has asked already about replacing a file.
    await writeFileAtomically(path, (out) => download.write(out), {
      force: true,
      ...(deps.openFile ? { open: deps.openFile } : {}),
    });
    return { saved: true, path, message: `Saved ${path}.`, reason: reason('save.done', { path }) };
  } catch (err) {
    return { saved: false, message: `Not saved: ${(err as Error).message}`, reason: reason('save.failed') };
  }
}
