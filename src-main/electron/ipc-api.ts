import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { ApiError, apiMethodNames, parseApiCall, type ApiHandlers } from '../common/api';
import { ipcChannel } from '../common/ipc-channels';

/**
 * Registers one `loket:<method>` IPC handler per API method. A call is answered only when it comes from the
 * top frame of one of the app's own pages (isAppUrl), and its arguments go through the same zod gate as
 * browser mode's (parseApiCall) before the handler runs.
 */
export function registerIpcApi(handlers: ApiHandlers, isAppUrl: (url: string) => boolean): void {
  for (const method of apiMethodNames) {
    ipcMain.handle(ipcChannel(method), (event, ...args: unknown[]) => call(method, handlers, isAppUrl, event, args));
  }
}

async function call(
  method: string,
  handlers: ApiHandlers,
  isAppUrl: (url: string) => boolean,
  event: IpcMainInvokeEvent,
  args: unknown[],
): Promise<unknown> {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || !isAppUrl(frame.url)) {
    console.warn(`[ipc] refused ${method} from ${frame ? frame.url : 'a frame that no longer exists'}`);
    // Deliberately vague: the caller is not ours, so it learns nothing about why.
    throw new Error('Forbidden');
  }
  try {
    const parsed = parseApiCall(method, args);
    const handler = handlers[parsed.method] as (...a: unknown[]) => unknown;
    return await handler.apply(handlers, parsed.args);
  } catch (err) {
    // Only the message crosses to the renderer (Electron drops custom error fields), so the code is its
    // prefix (read by the renderer's toCallError). Anything unexpected stays in the log, as in browser mode.
    if (err instanceof ApiError) throw new Error(`${err.code}: ${err.message}`);
    if ((err as Error)?.name === 'IllegalTransitionError') throw new Error(`conflict: ${(err as Error).message}`);
    console.error(`[ipc] ${method} failed:`, err);
    throw new Error('internal: Internal error in Loket; the log has the details.');
  }
}
