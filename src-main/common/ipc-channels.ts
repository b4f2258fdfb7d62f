/**
 * IPC channel names, apart from api.ts so the sandboxed preload bundles these few strings and not the
 * argument schemas (the main process validates; the preload only forwards).
 */
export const ipcChannelPrefix = 'loket:';
export const ipcEventChannel = 'loket:event';
/** The desktop app's "save the export to a file" (not an API method: browser mode downloads instead). */
export const ipcSaveDownloadChannel = 'loket:save-download';

export function ipcChannel<M extends string>(method: M): `loket:${M}` {
  return `${ipcChannelPrefix}${method}`;
}
