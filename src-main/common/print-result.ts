import type { Reason } from './reasons';

/** What a screen is given to print (a receipt, a slip, a report) and what a print on the till's printer answers. */

export interface ReceiptView {
  html: string;
}

export interface PrintResult {
  ok: boolean;
  /** Plain words (English: the CLI and the log); a failed print never undoes the sale. */
  message: string;
  /** The same, for a screen to word in its language. */
  reason?: Reason;
}
