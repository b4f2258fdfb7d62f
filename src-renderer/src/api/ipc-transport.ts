import { clientMethods, type LiveEvent, type LoketApi, type LoketBridge } from '../../../src-main/common/api';
import type { CashierClient, DisplayClient } from './client';
import { unwrap } from './errors';
import { ChannelBase } from './live-channel';

/** The desktop app's live events: the preload forwards them; the channel is up as long as the window is. */
class IpcChannel<T> extends ChannelBase<T> {
  private readonly off: () => void;

  constructor(bridge: LoketBridge, pick: (event: LiveEvent) => T | undefined) {
    super();
    this.off = bridge.onEvent((event) => {
      const message = pick(event);
      if (message !== undefined) this.emit(message);
    });
    this.setStatus('open');
  }

  override close(): void {
    this.off();
    super.close();
  }
}

/** The bridge answers envelopes; the screens see results, or a CallError thrown, as over HTTP. */
function unwrapBridge(bridge: LoketBridge): LoketApi {
  return clientMethods(async (method, args) => {
    const call = bridge[method] as (...args: unknown[]) => Promise<Parameters<typeof unwrap>[0]>;
    return unwrap(await call(...args));
  });
}

/** The desktop app: the preload's `window.loket`. */
export function ipcCashierClient(bridge: LoketBridge): CashierClient {
  return {
    transport: 'ipc',
    api: unwrapBridge(bridge),
    live: new IpcChannel(bridge, (event) => event),
    deliverExport: async (ticket) => {
      const result = await bridge.saveDownload(ticket.downloadId);
      return result.saved
        ? { kind: 'saved', path: result.path ?? ticket.filename }
        : { kind: 'not_saved', message: result.message, ...(result.reason ? { reason: result.reason } : {}) };
    },
  };
}

/** A customer display window in the desktop app: the current state, then the display events. */
export function ipcDisplayClient(bridge: LoketBridge): DisplayClient {
  return {
    transport: 'ipc',
    current: async () => unwrap(await bridge.displayState()),
    live: new IpcChannel(bridge, (event) => (event.type === 'display' ? event.state : undefined)),
  };
}
