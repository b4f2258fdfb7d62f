// The customer display window's preload: it reads what the display shows and nothing else. The main process
// refuses every other method from this window anyway (src-main/electron/ipc-api.ts); this bridge does not even
// name them: its methods are the table's with access `display`. Sandboxed like the cashier's preload: only
// 'electron' is required at runtime.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { bridgeMethods, DISPLAY_METHODS, type DisplayBridge, type LiveEvent } from '../src-main/common/api';
import { ipcChannel, ipcEventChannel } from '../src-main/common/ipc-channels';

const api = {
  ...bridgeMethods(DISPLAY_METHODS, (method, args) => ipcRenderer.invoke(ipcChannel(method), ...args)),
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
