import type { ReportFigures } from './reports';

/**
 * What the screens know of the store book (docs/store-book.md): the link of this terminal shown in the cashier's
 * header, and the store's day report the manager reads from any enrolled terminal. Plain data, no password ever.
 */

/**
 * The link of this data folder to the store book, as the cashier's header shows it:
 * - `not_enrolled`: no store book is set up here (the header shows nothing);
 * - `synced`: the store book has everything this terminal wrote;
 * - `waiting`: `waiting` events still to send (a pass is under way or due);
 * - `offline`: the store book cannot be reached since `since` (UTC ISO); the till sells on;
 * - `conflict`: the store book holds another event under one of this terminal's numbers: nothing more is sent;
 * - `refused`: the store book refused this terminal (its password, its role) or its password cannot be read from
 *   the keychain: a manager enrols it again.
 */
export const STORE_LINK_STATES = ['not_enrolled', 'synced', 'waiting', 'offline', 'conflict', 'refused'] as const;
export type StoreLinkState = (typeof STORE_LINK_STATES)[number];

export interface StoreLinkView {
  state: StoreLinkState;
  /** Events written here and not yet in the store book. */
  waiting: number;
  /** Since when the store book cannot be reached (state offline), UTC ISO. */
  since?: string;
  /** When the store book last acknowledged this terminal's events, UTC ISO. */
  lastSyncAt?: string;
}

export interface TerminalBacklog {
  /** Events the terminal said it has that the store book does not (at its last report); null: it never reported. */
  waiting: number | null;
  /** The terminal's last event number the store book holds. */
  receivedSeq: number;
  /** The terminal's oldest event not yet received, at its last report (its clock). */
  oldestUnsentAt: string | null;
  /** When the terminal last reported (the server's clock). */
  reportedAt: string | null;
  lastReceivedAt: string | null;
  conflicts: number;
  /** The terminal's clock is more than 2 minutes off the server's (at its last report). */
  skewFlagged: boolean;
  /** This day's figures of the terminal may lack events the store book does not hold yet. */
  mayBeIncomplete: boolean;
}

export interface StoreTerminalPart {
  terminalId: string;
  figures: ReportFigures;
  backlog: TerminalBacklog;
}

export interface StoreDayReport {
  date: string;
  timeZone: string;
  store: { code: string; name: string };
  /** Every terminal's orders together. */
  figures: ReportFigures;
  terminals: StoreTerminalPart[];
  /** No terminal is known to hold events of this day the store book lacks. */
  complete: boolean;
  /** One line per terminal whose part may be incomplete, in plain words (English: the CLI). */
  notes: string[];
  /** The server's time of the report. */
  asOf: string;
}
