import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import {
  apiMethodNames,
  apiMethodSpec,
  dispatchApiCall,
  isApiMethodName,
  type ApiEnvelope,
  type ApiHandlers,
  type LiveEvent,
} from '../common/api';
import { ipcChannel } from '../common/ipc-channels';

/** Which window a call or a live event belongs to. */
export type SenderRole = 'cashier' | 'display';

/**
 * The only methods the customer display window may call, those with access `display` in the table
 * (common/api-table/): it reads what it shows, like browser mode's display key (`/display/state` and
 * `/display/events`), and can neither create nor change anything.
 */
export { DISPLAY_METHODS } from '../common/api';

/** The display's rule: a method of the table whose access includes `display`. */
function displayMayCall(method: string): boolean {
  return isApiMethodName(method) && apiMethodSpec(method).access.includes('display');
}

/** What the gate needs of a web contents to tell windows apart. */
export interface SenderContents {
  readonly id: number;
  once(event: 'destroyed', listener: () => void): unknown;
}

/**
 * The web contents of the app's own windows and what each is. The gate answers only these: a web contents Loket did
 * not register (a print job's hidden window, anything else) is refused whatever page it shows.
 */
export class IpcSenders {
  readonly #roles = new Map<number, SenderRole>();

  register(contents: SenderContents, role: SenderRole): void {
    this.#roles.set(contents.id, role);
    contents.once('destroyed', () => this.#roles.delete(contents.id));
  }

  roleOf(sender: { readonly id: number } | null | undefined): SenderRole | undefined {
    return sender ? this.#roles.get(sender.id) : undefined;
  }
}

/** What the gate reads of an IPC event. */
export type CallEvent = Pick<IpcMainInvokeEvent, 'senderFrame'> & { readonly sender?: { readonly id: number } };

/**
 * Registers one `loket:<method>` IPC handler per API method. A call is answered only when it comes from the top
 * frame of one of the app's own pages (isAppUrl) in one of the app's own windows (senders); the customer display's
 * window may call only DISPLAY_METHODS. Then it goes through the same gate as browser mode's (dispatchApiCall).
 * Every call is answered with the envelope, never thrown: Electron keeps only the message of an error thrown across
 * IPC, and a screen must not have to parse words to learn what went wrong.
 */
export function registerIpcApi(
  handlers: ApiHandlers,
  isAppUrl: (url: string) => boolean,
  senders: IpcSenders,
  options: { logFile?: string } = {},
): void {
  const roleOf = (event: CallEvent) => senders.roleOf(event.sender);
  for (const method of apiMethodNames) {
    ipcMain.handle(ipcChannel(method), (event, ...args: unknown[]) =>
      call(method, handlers, isAppUrl, event, args, roleOf, options),
    );
  }
}

/**
 * One call through the gate. `roleOf` names the sender's window; undefined means the sender is not one of the app's
 * windows (refused). No default: a caller that forgets it must not get the cashier's whole API.
 */
export async function call(
  method: string,
  handlers: ApiHandlers,
  isAppUrl: (url: string) => boolean,
  event: CallEvent,
  args: unknown[],
  roleOf: (event: CallEvent) => SenderRole | undefined,
  /** Where the console's lines are kept (the data folder's loket.log): an unexpected error names it. */
  options: { logFile?: string } = {},
): Promise<ApiEnvelope<unknown>> {
  const why = refusal(method, isAppUrl, event, roleOf);
  if (why !== undefined) {
    // Deliberately vague: the caller is not ours (or not allowed this), so it learns nothing about why.
    return { ok: false, error: { code: 'forbidden', message: 'Forbidden' } } satisfies ApiEnvelope<unknown>;
  }
  return dispatchApiCall(handlers, method, args, (name, err) => console.error(`[ipc] ${name} failed:`, err), options);
}

/**
 * Why a call must be refused (logged), or undefined when it may go on: it must come from the top frame of one of the
 * app's own pages in one of the app's own windows, and the customer display's window may call only DISPLAY_METHODS.
 */
export function refusal(
  method: string,
  isAppUrl: (url: string) => boolean,
  event: CallEvent,
  roleOf: (event: CallEvent) => SenderRole | undefined,
): string | undefined {
  const frame = event.senderFrame;
  const why =
    !frame || frame.parent !== null || !isAppUrl(frame.url)
      ? 'not a top frame of our pages'
      : roleOf(event) === undefined
        ? 'not one of our windows'
        : roleOf(event) === 'display' && !displayMayCall(method)
          ? 'the customer display only reads'
          : undefined;
  if (why) console.warn(`[ipc] refused ${method} from ${frame ? frame.url : 'a frame that no longer exists'}: ${why}`);
  return why;
}

/** The cashier's window gets every live event; the customer display only what it shows. */
export function deliversTo(role: SenderRole, event: LiveEvent): boolean {
  return role === 'cashier' || event.type === 'display';
}
