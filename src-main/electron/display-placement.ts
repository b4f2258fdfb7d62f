/**
 * Where the customer display window goes: a pure rule over the screens the OS reports, so it is unit-tested
 * without Electron. The shell calls it at start and again whenever a screen is plugged in, unplugged or changed.
 *
 * The rule, in order:
 *  1. the screen chosen in settings (for now `LOKET_DISPLAY_SCREEN`, a display id), when it is connected and is
 *     not the cashier's screen: a kiosk window filling it;
 *  2. else the first screen (in the OS's order) that is not the cashier's: a kiosk window filling it;
 *  3. else (one screen only) a normal window on the cashier's screen that the cashier can drag and resize.
 * The display never goes fullscreen over the cashier's own screen: a kiosk window cannot be closed, so it would
 * lock the till.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the shell needs of an Electron `Display`. */
export interface ScreenInfo {
  id: number;
  bounds: Rect;
  workArea: Rect;
}

export type DisplayPlacement =
  | {
      kind: 'kiosk';
      displayId: number;
      /** The whole screen (the window is kiosk and fullscreen on it). */
      bounds: Rect;
      reason: 'chosen' | 'other-screen';
    }
  | {
      kind: 'window';
      /** Where the window opens; the cashier may move it afterwards. */
      bounds: Rect;
      reason: 'one-screen';
    };

export interface PlacementOptions {
  /** The screen the cashier window is on (Electron: `screen.getDisplayMatching(cashier.getBounds()).id`). */
  cashierScreenId: number;
  /** The screen chosen in settings, or null for "any screen that is not the cashier's". */
  chosenScreenId: number | null;
}

/** The size of the windowed display when there is only one screen. */
export const WINDOWED_SIZE = { width: 1024, height: 768 } as const;

export function placeCustomerDisplay(screens: readonly ScreenInfo[], options: PlacementOptions): DisplayPlacement {
  const chosen =
    options.chosenScreenId === null
      ? undefined
      : screens.find((s) => s.id === options.chosenScreenId && s.id !== options.cashierScreenId);
  if (chosen) return { kind: 'kiosk', displayId: chosen.id, bounds: { ...chosen.bounds }, reason: 'chosen' };

  const other = screens.find((s) => s.id !== options.cashierScreenId);
  if (other) return { kind: 'kiosk', displayId: other.id, bounds: { ...other.bounds }, reason: 'other-screen' };

  const home = screens.find((s) => s.id === options.cashierScreenId) ?? screens[0];
  const area = home?.workArea ?? { x: 0, y: 0, ...WINDOWED_SIZE };
  const width = Math.min(WINDOWED_SIZE.width, area.width);
  const height = Math.min(WINDOWED_SIZE.height, area.height);
  return {
    kind: 'window',
    bounds: {
      x: area.x + Math.floor((area.width - width) / 2),
      y: area.y + Math.floor((area.height - height) / 2),
      width,
      height,
    },
    reason: 'one-screen',
  };
}

/**
 * Whether a new placement means moving the window. A windowed display stays where the cashier dragged it as long
 * as it stays windowed; a kiosk display moves when its screen or that screen's size changes.
 */
export function placementChanged(before: DisplayPlacement | null, after: DisplayPlacement): boolean {
  if (!before || before.kind !== after.kind) return true;
  if (before.kind === 'window') return false;
  const b = before.bounds;
  const a = after.bounds;
  return (
    after.kind !== 'kiosk' ||
    before.displayId !== after.displayId ||
    b.x !== a.x ||
    b.y !== a.y ||
    b.width !== a.width ||
    b.height !== a.height
  );
}

/**
 * Reads the chosen screen (`LOKET_DISPLAY_SCREEN`, an Electron display id as `screen.getAllDisplays()` reports it).
 * Unset or empty: no choice. Anything that is not a whole number: `invalid`, which the shell logs and ignores.
 */
export function parseScreenChoice(value: string | undefined): number | null | 'invalid' {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (!/^\d{1,16}$/.test(text)) return 'invalid';
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : 'invalid';
}
