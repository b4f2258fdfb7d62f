import type { LiveEvent, LoketBridge } from '../../../src-main/common/api';
import type { CashierClient, DisplayClient } from './client';
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

/** The desktop app: the preload's `window.loket` already is the API. */
export function ipcCashierClient(bridge: LoketBridge): CashierClient {
  return { transport: 'ipc', api: bridge, live: new IpcChannel(bridge, (event) => event) };
}

/** A customer display window in the desktop app: the current state, then the display events. */
export function ipcDisplayClient(bridge: LoketBridge): DisplayClient {
  return {
    transport: 'ipc',
    current: () => bridge.displayState(),
    live: new IpcChannel(bridge, (event) => (event.type === 'display' ? event.state : undefined)),
  };
}
