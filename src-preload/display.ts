// The customer display window's preload: it reads what the display shows and nothing else. The main process
// refuses every other method from this window anyway (src-main/electron/ipc-api.ts); this bridge does not even
// name them. Sandboxed like the cashier's preload: only 'electron' is required at runtime.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { ApiEnvelope, ApiResult, DISPLAY_BRIDGE_NAMES, LiveEvent, LoketBridge } from '../src-main/common/api';
import { ipcChannel, ipcEventChannel } from '../src-main/common/ipc-channels';

/** What the display window's `window.loket` holds: the same names as the cashier's bridge, so the renderer's
 * display client (ipcDisplayClient) works on either. */
export type DisplayBridge = Pick<LoketBridge, (typeof DISPLAY_BRIDGE_NAMES)[number]>;

const api = {
  displayState: () => ipcRenderer.invoke(ipcChannel('displayState')) as Promise<ApiEnvelope<ApiResult<'displayState'>>>,
  onEvent: (listener: (event: LiveEvent) => void) => {
    // Only the display's own events, whatever arrives; the IPC event object stays here.
    const forward = (_event: IpcRendererEvent, payload: LiveEvent) => {
      if (payload?.type === 'display') listener(payload);
    };
    ipcRenderer.on(ipcEventChannel, forward);
    return () => ipcRenderer.off(ipcEventChannel, forward);
  },
} satisfies DisplayBridge;

contextBridge.exposeInMainWorld('loket', api);
