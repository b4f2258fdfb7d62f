import type { AppInfo } from './app-info';

/**
 * The API contract, one entry per method: its argument tuple and its result.
 * Every transport (IPC through the preload today, HTTP/WebSocket in web mode later) is typed from this map,
 * so adding a method here makes each transport and host fail to compile until it handles it.
 * Arguments and results must survive structured clone and JSON: plain data only.
 */
export interface ApiMethods {
  appInfo: { args: []; result: AppInfo };
}

export type ApiMethodName = keyof ApiMethods;
export type ApiArgs<M extends ApiMethodName> = ApiMethods[M]['args'];
export type ApiResult<M extends ApiMethodName> = ApiMethods[M]['result'];

/** What the renderer calls: every method is asynchronous because every transport crosses a process boundary. */
export type LoketApi = {
  [M in ApiMethodName]: (...args: ApiArgs<M>) => Promise<ApiResult<M>>;
};

// A record rather than an array so that a method added to ApiMethods but missing here is a compile error.
const methodNames: { [M in ApiMethodName]: M } = {
  appInfo: 'appInfo',
};

/** Runtime list of method names, for hosts that register one handler per method. */
export const apiMethodNames: readonly ApiMethodName[] = /* @__PURE__ */ Object.freeze(Object.values(methodNames));

export function isApiMethodName(name: unknown): name is ApiMethodName {
  return typeof name === 'string' && Object.hasOwn(methodNames, name);
}

export const ipcChannelPrefix = 'loket:';

export function ipcChannel<M extends ApiMethodName>(method: M): `loket:${M}` {
  return `${ipcChannelPrefix}${method}`;
}
