import { reason } from '../../common/reasons';
import type { DrawerResult } from '../../common/shifts';
import { printProblemOf } from '../print-problem';

/**
 * The cash drawer (docs/tenders.md, "The drawer"): it hangs on the receipt printer's drawer port and opens on the
 * ESC/POS pulse ESC p m t1 t2 — m = 0 (connector pin 2, where drawers are wired), the pulse on for t1 × 2 ms and off
 * for t2 × 2 ms. 50 ms on and 500 ms off open the drawers we know; the printer passes the pulse to the drawer.
 *
 * Loket opens it on a cash tender, a cash refund and a voided sale's cash given back (after their transaction has
 * committed), on a shift's open and close, on a pay-in and a pay-out, and on a manager's "no sale". A drawer that
 * cannot be reached is a result with a clear message, never a thrown error: the sale, the refund and the shift's
 * event are already written.
 */
export const DRAWER_PULSE = Buffer.from([0x1b, 0x70, 0x00, 25, 250]);

/** Why the drawer opens (for the log; the drawer itself is told nothing). */
export type DrawerCause =
  'cash_tender' | 'cash_refund' | 'cash_void' | 'shift_open' | 'shift_close' | 'pay_in' | 'pay_out' | 'no_sale';

/** Where the pulse goes: the host's receipt printer, or none. */
export interface DrawerPort {
  open(cause: DrawerCause): Promise<DrawerResult>;
}

/** The printer a host has set up, as the drawer needs it. */
export type DrawerPrinter =
  | { kind: 'network'; label: string; send(bytes: Buffer): Promise<void> }
  /** The OS printer: it prints laid-out pages, not raw bytes, so the pulse cannot reach its drawer. */
  | { kind: 'system' }
  | { kind: 'none' };

/** A drawer behind whatever printer `printer()` names now (the settings may change between two sales). */
export function printerDrawer(printer: () => DrawerPrinter): DrawerPort {
  return {
    async open(): Promise<DrawerResult> {
      const p = printer();
      if (p.kind === 'none')
        return {
          ok: false,
          message: 'no receipt printer is set up, so Loket cannot open the cash drawer: open it by hand',
          reason: reason('drawer.no_printer'),
        };
      if (p.kind === 'system')
        return {
          ok: false,
          message:
            "the cash drawer cannot be opened through this computer's printer (it takes pages, not the drawer's " +
            'pulse): open it by hand, or set up the receipt printer as a network printer',
          reason: reason('drawer.system_printer'),
        };
      try {
        await p.send(DRAWER_PULSE);
        return {
          ok: true,
          message: `the cash drawer opened (${p.label})`,
          reason: reason('drawer.opened', { printer: p.label }),
        };
      } catch (err) {
        return {
          ok: false,
          message: `the cash drawer did not open: ${(err as Error).message}; open it by hand`,
          reason: reason('drawer.failed', { printer: p.label, problem: printProblemOf(err) }),
        };
      }
    },
  };
}

/** No drawer (the CLI without a printer, tests): says so, never fails. */
export const NO_DRAWER: DrawerPort = printerDrawer(() => ({ kind: 'none' }));
