// Runs in a sandboxed preload: only 'electron' (a restricted subset) can be required at runtime, so everything else
// of ours is bundled in: the table of API methods (src-main/common/api-table/) names what the bridge exposes.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { apiMethodNames, bridgeMethods, type LiveEvent, type LoketBridge } from '../src-main/common/api';
import { ipcChannel, ipcEventChannel, ipcSaveDownloadChannel } from '../src-main/common/ipc-channels';
import type { SaveResult } from '../src-main/common/reports';

// One function per method of the table, each bound to its own channel (no generic proxy): the renderer can reach
// exactly these channels and no others.
const api = {
  ...bridgeMethods(apiMethodNames, (method, args) => ipcRenderer.invoke(ipcChannel(method), ...args)),
  onEvent: (listener: (event: LiveEvent) => void) => {
    // The IPC event object stays here: the page gets plain data only.
    const forward = (_event: IpcRendererEvent, payload: LiveEvent) => listener(payload);
    ipcRenderer.on(ipcEventChannel, forward);
    return () => ipcRenderer.off(ipcEventChannel, forward);
  },
  saveDownload: (downloadId: string) => ipcRenderer.invoke(ipcSaveDownloadChannel, downloadId) as Promise<SaveResult>,
} satisfies LoketBridge;

contextBridge.exposeInMainWorld('loket', api);
