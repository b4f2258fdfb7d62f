import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { apiMethodNames, dispatchApiCall, type ApiEnvelope, type ApiHandlers } from '../common/api';
import { ipcChannel } from '../common/ipc-channels';

/**
 * Registers one `loket:<method>` IPC handler per API method. A call is answered only when it comes from the
 * top frame of one of the app's own pages (isAppUrl), and it goes through the same gate as browser mode's
 * (dispatchApiCall). Every call is answered with the envelope, never thrown: Electron keeps only the message
 * of an error thrown across IPC, and a screen must not have to parse words to learn what went wrong.
 */
export function registerIpcApi(handlers: ApiHandlers, isAppUrl: (url: string) => boolean): void {
  for (const method of apiMethodNames) {
    ipcMain.handle(ipcChannel(method), (event, ...args: unknown[]) => call(method, handlers, isAppUrl, event, args));
  }
}

export async function call(
  method: string,
  handlers: ApiHandlers,
  isAppUrl: (url: string) => boolean,
  event: Pick<IpcMainInvokeEvent, 'senderFrame'>,
  args: unknown[],
): Promise<ApiEnvelope<unknown>> {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || !isAppUrl(frame.url)) {
    console.warn(`[ipc] refused ${method} from ${frame ? frame.url : 'a frame that no longer exists'}`);
    // Deliberately vague: the caller is not ours, so it learns nothing about why.
    return { ok: false, error: { code: 'forbidden', message: 'Forbidden' } };
  }
  return dispatchApiCall(handlers, method, args, (name, err) => console.error(`[ipc] ${name} failed:`, err));
}
