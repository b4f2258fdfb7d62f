import type { LoketBridge } from '../../src-main/common/api';

declare global {
  interface Window {
    /** Set by the Electron preload; absent when the renderer runs in a plain browser (browser mode). */
    loket?: LoketBridge;
  }
}

export {};
