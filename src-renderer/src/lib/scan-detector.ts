/**
 * Tells a keyboard-wedge barcode scanner from a person typing. A scanner "types" the code's digits far faster than
 * anyone does and ends with Enter; the cashier's screen takes such a burst as a scan whatever has focus, and the
 * digits it typed into a field are taken back out (docs/cashier.md).
 *
 * Thresholds (chosen here):
 * - at least MIN_SCAN_DIGITS (6) digits: the shortest codes a scanner sends (UPC-E is 6, EAN-8 is 8, EAN-13 13);
 * - the burst's mean gap between keys at most MEAN_GAP_MS (45 ms): scanners send a key every 1 to 15 ms, while
 *   the fastest people type digits some 80 to 150 ms apart (a trained ten-key typist: 10 to 12 keys a second). 45
 *   rather than 30 leaves room for a busy till (a loaded machine's browser stamps keys late, some by tens of ms:
 *   measured in the browser tests here, a burst sent 5 ms apart arrives at means of 20 to 35 ms);
 * - no single gap (digit to digit, or the last digit to Enter) over MAX_GAP_MS (200 ms): a late key or two (a
 *   busy machine, a USB hiccup, a page busy painting the previous line) does not split a scan, yet a person stays a
 *   person at any speed because the mean is then far above 45 ms. The price: a digit a person typed less than
 *   200 ms before a scan becomes part of the scanned code (which is then unknown, and says so).
 * Times are the events' own time stamps (KeyboardEvent.timeStamp), so a busy page that handles keys late still
 * sees the gaps as they were typed.
 */
export const MIN_SCAN_DIGITS = 6;
export const MEAN_GAP_MS = 45;
export const MAX_GAP_MS = 200;
/** No code a scanner sends is longer (GS1-128 payloads aside, which a till does not take as a product). */
export const MAX_SCAN_DIGITS = 32;

/** What a key means to the detector. */
export type ScanStep =
  /** A digit that starts a new burst: whatever it types may have to be taken back if the burst turns out a scan. */
  | { kind: 'burst_start' }
  /** A digit that continues the burst. */
  | { kind: 'burst_digit' }
  /** Enter closing a burst that is a scan: the code; the Enter and the burst's digits are not the field's. */
  | { kind: 'scan'; code: string }
  /** Any other key, or Enter after typing: the field's, as usual. */
  | { kind: 'key' };

export class ScanDetector {
  #digits = '';
  #firstAt = 0;
  #lastAt = 0;

  /** Feeds one keydown: its key (KeyboardEvent.key) and its time in ms. */
  feed(key: string, at: number): ScanStep {
    if (key.length === 1 && key >= '0' && key <= '9') {
      if (this.#digits !== '' && at - this.#lastAt <= MAX_GAP_MS && this.#digits.length < MAX_SCAN_DIGITS) {
        this.#digits += key;
        this.#lastAt = at;
        return { kind: 'burst_digit' };
      }
      this.#digits = key;
      this.#firstAt = at;
      this.#lastAt = at;
      return { kind: 'burst_start' };
    }
    const digits = this.#digits;
    const span = at - this.#firstAt;
    const gapToEnter = at - this.#lastAt;
    this.reset();
    // The mean over every gap of the burst, the one to Enter included (n digits + Enter = n gaps).
    if (key === 'Enter' && digits.length >= MIN_SCAN_DIGITS && gapToEnter <= MAX_GAP_MS) {
      if (span / digits.length <= MEAN_GAP_MS) return { kind: 'scan', code: digits };
    }
    return { kind: 'key' };
  }

  /** Forgets the burst (focus moved, a dialog opened). */
  reset(): void {
    this.#digits = '';
    this.#firstAt = 0;
    this.#lastAt = 0;
  }
}
