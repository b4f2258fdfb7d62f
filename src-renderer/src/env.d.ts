import type { LoketApi } from '../../src-main/common/api';

declare global {
  interface Window {
    /** Set by the Electron preload; absent when the renderer runs in a plain browser. */
    loket?: LoketApi;
  }
}

export {};
