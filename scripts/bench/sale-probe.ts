/**
 * What benchmark (i) puts in the pages (Playwright's addInitScript, before the app's own scripts, so its keydown
 * listener runs before the scanner's, which stops a scan's Enter): the time of every key, and "the frame that paints
 * it". Armed with what the DOM must show (a result list, or a cart's lines), it watches the DOM (MutationObserver);
 * the first time the DOM shows it, it asks for an animation frame and, from that frame's callback, posts a message to
 * itself: the message runs once the frame's rendering (style, layout, paint) is done on the main thread. Three times
 * come back: `seen` (the DOM shows it), `frame` (the callback of the frame that paints it) and `painted` (that frame
 * done). Nothing in the app is changed for it.
 */

/** What the DOM must show. */
export type ProbeSpec =
  /** The search's result list showing exactly these SKUs in this order ([]: its "no product" line). */
  | { kind: 'results'; skus: string[] }
  /** `count` elements matching `selector`, the last one's `nameSelector` reading `name`. */
  | { kind: 'lines'; selector: string; nameSelector: string; count: number; name: string };

export interface ProbeResult {
  seen: number;
  frame: number;
  painted: number;
  /** The page's timeOrigin: times of two pages compare as origin + time. */
  origin: number;
  /** Keys pressed since the probe was armed (KeyboardEvent.key and timeStamp, in the page's time). */
  keys: { key: string; t: number }[];
  /** The last searchProducts call's fetch (resource timing: request start to response end), if one was made. */
  searchFetchMs: number | null;
  timedOut: boolean;
}

/**
 * The script given to addInitScript, as text: a function compiled by tsx would carry its helpers (`__name`) into the
 * page, where they do not exist.
 */
export const PROBE_SCRIPT = `(() => {
  if (window.__loketProbe) return;
  let observer = null;
  const matches = (spec) => {
    if (spec.kind === 'results') {
      const list = document.querySelector('[data-testid="cart-results"]');
      if (!list) return false;
      const skus = [...list.querySelectorAll('.r-sku')].map((e) => e.textContent || '');
      if (spec.skus.length === 0) return skus.length === 0 && list.querySelector('.none') !== null;
      return skus.length === spec.skus.length && skus.every((s, i) => s === spec.skus[i]);
    }
    const lines = document.querySelectorAll(spec.selector);
    if (lines.length !== spec.count) return false;
    const name = lines[lines.length - 1]?.querySelector(spec.nameSelector)?.textContent;
    return name !== undefined && name !== null && name.trim() === spec.name;
  };
  const state = { spec: null, keys: [], done: null };
  state.arm = (spec, timeoutMs) => {
    if (observer) observer.disconnect();
    state.spec = spec;
    state.keys = [];
    performance.clearResourceTimings();
    let finished = false;
    state.done = new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (finished) return;
        finished = true;
        observer.disconnect();
        resolve({ timedOut: true, keys: state.keys, seen: 0, frame: 0, painted: 0, origin: performance.timeOrigin, searchFetchMs: null });
      }, timeoutMs);
      const check = () => {
        if (finished || !matches(spec)) return;
        finished = true;
        observer.disconnect();
        const seen = performance.now();
        requestAnimationFrame(() => {
          const frame = performance.now();
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            const painted = performance.now();
            clearTimeout(timer);
            const fetched = performance
              .getEntriesByType('resource')
              .filter((e) => e.name.endsWith('/api/call/searchProducts'))
              .at(-1);
            resolve({
              seen, frame, painted, origin: performance.timeOrigin, keys: state.keys,
              searchFetchMs: fetched ? fetched.responseEnd - fetched.startTime : null, timedOut: false,
            });
          };
          channel.port2.postMessage(0);
        });
      };
      observer = new MutationObserver(check);
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      check();
    });
  };
  addEventListener('keydown', (e) => { if (state.spec) state.keys.push({ key: e.key, t: e.timeStamp }); }, true);
  window.__loketProbe = state;
})();`;
