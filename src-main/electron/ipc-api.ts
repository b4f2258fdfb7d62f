import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import {
  apiMethodNames,
  ipcChannel,
  type ApiArgs,
  type ApiMethodName,
  type ApiResult,
} from '../common/api';

export type ApiHandlers = {
  [M in ApiMethodName]: (...args: ApiArgs<M>) => ApiResult<M> | Promise<ApiResult<M>>;
};

/** Renderer input is untrusted: each method says which argument lists it accepts before its handler runs. */
type ArgsCheck<M extends ApiMethodName> = (args: unknown[]) => args is ApiArgs<M>;

const noArgs = (args: unknown[]): args is [] => args.length === 0;

const argsChecks: { [M in ApiMethodName]: ArgsCheck<M> } = {
  appInfo: noArgs,
};

/**
 * Registers one `loket:<method>` IPC handler per API method. A call is answered only when it comes from the
 * top frame of one of the app's own pages (isAppUrl) and its arguments pass the method's check.
 */
export function registerIpcApi(handlers: ApiHandlers, isAppUrl: (url: string) => boolean): void {
  for (const method of apiMethodNames) {
    ipcMain.handle(ipcChannel(method), (event, ...args: unknown[]) => call(method, handlers, isAppUrl, event, args));
  }
}

async function call<M extends ApiMethodName>(
  method: M,
  handlers: ApiHandlers,
  isAppUrl: (url: string) => boolean,
  event: IpcMainInvokeEvent,
  args: unknown[],
): Promise<ApiResult<M>> {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || !isAppUrl(frame.url)) {
    console.warn(`[ipc] refused ${method} from ${frame ? frame.url : 'a frame that no longer exists'}`);
    // Deliberately vague: the caller is not ours, so it learns nothing about why.
    throw new Error('Forbidden');
  }
  const check: ArgsCheck<M> = argsChecks[method];
  if (!check(args)) throw new Error(`Invalid arguments for ${method}`);
  const handler: (...a: ApiArgs<M>) => ApiResult<M> | Promise<ApiResult<M>> = handlers[method];
  return handler(...args);
}
