// Runs in a sandboxed preload: only 'electron' (a restricted subset) can be required at runtime,
// so everything else of ours is bundled in, and only type information comes from src-main/common.
import { contextBridge, ipcRenderer } from 'electron';
import { ipcChannel, type ApiArgs, type ApiMethodName, type ApiResult, type LoketApi } from '../src-main/common/api';

function invoke<M extends ApiMethodName>(method: M, ...args: ApiArgs<M>): Promise<ApiResult<M>> {
  return ipcRenderer.invoke(ipcChannel(method), ...args) as Promise<ApiResult<M>>;
}

// Each method is spelled out (no generic proxy) so the renderer can reach exactly these channels and no others.
const api = {
  appInfo: (...args) => invoke('appInfo', ...args),
} satisfies LoketApi;

contextBridge.exposeInMainWorld('loket', api);
