import { powerSaveBlocker, screen, type BrowserWindow, type Display, type Input } from 'electron';
import { hardenedWindow } from './hardened-window';
import { placeCustomerDisplay, placementChanged, type DisplayPlacement, type ScreenInfo } from './display-placement';
import { loadRenderer, type RendererSource } from './renderer-source';

export interface CustomerDisplayOptions {
  /** The display's own preload (src-preload/display.ts): displayState and display events, nothing else. */
  preloadPath: string;
  source: RendererSource;
  /** The screen chosen in settings (for now LOKET_DISPLAY_SCREEN), or null. */
  chosenScreenId: number | null;
  /** The cashier's window: the display keeps off its screen. */
  cashierWindow(): BrowserWindow | null;
  /** Each new display window (it is made anew when it moves): register it with the IPC gate. */
  onWindow(window: BrowserWindow): void;
  log?(line: string): void;
}

const SCREEN_EVENTS = ['display-added', 'display-removed', 'display-metrics-changed'] as const;

/**
 * The customer display window: kiosk and fullscreen on a screen that is not the cashier's, or a normal window when
 * there is only one screen (display-placement.ts has the rule). The customer cannot close, resize or navigate it,
 * and it keeps the screen awake while it shows. It follows screens being plugged in and out without a restart. The
 * cashier shows or hides it with a shortcut on the cashier's window (bindDisplayToggle), not through the API.
 */
export class CustomerDisplay {
  readonly #options: CustomerDisplayOptions;
  #window: BrowserWindow | null = null;
  #placement: DisplayPlacement | null = null;
  #shown = true;
  #blocker: number | null = null;
  #closing = false;
  #started = false;

  constructor(options: CustomerDisplayOptions) {
    this.#options = options;
  }

  get window(): BrowserWindow | null {
    return this.#window;
  }

  get placement(): DisplayPlacement | null {
    return this.#placement;
  }

  /** Whether the cashier wants it showing (it stays so across screen changes). */
  get shown(): boolean {
    return this.#shown;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    for (const name of SCREEN_EVENTS) screen.on(name as 'display-added', this.#screensChanged);
    this.#place(true);
  }

  toggle(): void {
    if (this.#shown) this.hide();
    else this.show();
  }

  show(): void {
    this.#shown = true;
    const window = this.#live();
    if (!window) {
      this.#place(true);
      return;
    }
    window.showInactive();
    this.#keepAwake(true);
  }

  hide(): void {
    this.#shown = false;
    this.#live()?.hide();
    this.#keepAwake(false);
  }

  /** The app is quitting: the window may close now, and the screen may sleep. */
  close(): void {
    this.#closing = true;
    for (const name of SCREEN_EVENTS) screen.off(name as 'display-added', this.#screensChanged);
    this.#keepAwake(false);
    const window = this.#live();
    this.#window = null;
    window?.destroy();
  }

  readonly #screensChanged = (): void => {
    if (this.#closing) return;
    this.#place(false);
  };

  #live(): BrowserWindow | null {
    return this.#window && !this.#window.isDestroyed() ? this.#window : null;
  }

  #placementNow(): { placement: DisplayPlacement; screens: string } {
    const cashier = this.#options.cashierWindow();
    const cashierScreen =
      cashier && !cashier.isDestroyed() ? screen.getDisplayMatching(cashier.getBounds()) : screen.getPrimaryDisplay();
    const screens = screen.getAllDisplays().map(toScreenInfo);
    const placement = placeCustomerDisplay(screens, {
      cashierScreenId: cashierScreen.id,
      chosenScreenId: this.#options.chosenScreenId,
    });
    // For the log: the ids LOKET_DISPLAY_SCREEN takes, with each screen's size and place.
    const described = screens
      .map(
        ({ id, bounds: b }) =>
          `${id} ${b.width}x${b.height}+${b.x}+${b.y}${id === cashierScreen.id ? ' (cashier)' : ''}`,
      )
      .join(', ');
    return { placement, screens: described };
  }

  /** Puts the window where the rule says; a window already in the right place is left alone unless `force`. */
  #place(force: boolean): void {
    const { placement, screens } = this.#placementNow();
    const current = this.#live();
    if (current && !force && !placementChanged(this.#placement, placement)) return;
    this.#placement = placement;
    this.#options.log?.(
      (placement.kind === 'kiosk'
        ? `customer display: kiosk on screen ${placement.displayId} (${placement.reason})`
        : 'customer display: one screen only, a normal window') + `; screens: ${screens}`,
    );
    // A window cannot turn frameless or kiosk after it is made, so it is made anew in its new place.
    this.#window = null;
    current?.destroy();
    this.#window = this.#create(placement);
  }

  #create(placement: DisplayPlacement): BrowserWindow {
    const kiosk = placement.kind === 'kiosk';
    const { x, y, width, height } = placement.bounds;
    const window = hardenedWindow(
      {
        x,
        y,
        width,
        height,
        title: 'Loket',
        show: false,
        backgroundColor: '#ffffff',
        kiosk,
        fullscreen: kiosk,
        frame: !kiosk,
        resizable: !kiosk,
        movable: !kiosk,
        minimizable: false,
        maximizable: !kiosk,
        closable: !kiosk,
        skipTaskbar: kiosk,
        autoHideMenuBar: true,
      },
      // The display's own preload; it must stay readable when the till is busy in front.
      { preload: this.#options.preloadPath, backgroundThrottling: false },
    );
    // No menu, so no menu accelerators either (reload, zoom, developer tools).
    window.removeMenu();
    this.#options.onWindow(window);

    window.on('close', (event) => {
      if (this.#closing) return;
      // The customer cannot close it; on one screen the cashier's close button hides it.
      event.preventDefault();
      if (!kiosk) this.hide();
    });
    window.on('closed', () => {
      if (this.#window === window) {
        this.#window = null;
        this.#keepAwake(false);
      }
    });
    window.once('ready-to-show', () => {
      if (this.#window !== window || !this.#shown) return;
      // Without taking the focus from the cashier's window.
      window.showInactive();
      this.#keepAwake(true);
    });

    const contents = window.webContents;
    // The display has no controls: no key reaches it (no reload, no zoom, no typing into it). On one screen the
    // cashier may also hide it from here.
    contents.on('before-input-event', (event, input) => {
      event.preventDefault();
      if (!kiosk && isDisplayToggle(input)) this.toggle();
    });
    // No pinch zoom on a touch screen.
    contents.setVisualZoomLevelLimits(1, 1).catch(() => undefined);

    loadRenderer(window, this.#options.source, 'display').catch((error: unknown) => {
      this.#options.log?.(`customer display: could not load the renderer: ${String(error)}`);
    });
    return window;
  }

  #keepAwake(on: boolean): void {
    if (on && this.#blocker === null && this.#live()) {
      this.#blocker = powerSaveBlocker.start('prevent-display-sleep');
    } else if (!on && this.#blocker !== null) {
      if (powerSaveBlocker.isStarted(this.#blocker)) powerSaveBlocker.stop(this.#blocker);
      this.#blocker = null;
    }
  }
}

function toScreenInfo(display: Display): ScreenInfo {
  return { id: display.id, bounds: { ...display.bounds }, workArea: { ...display.workArea } };
}

/** Ctrl+Shift+D (Cmd+Shift+D on macOS): show or hide the customer display. */
export function isDisplayToggle(
  input: Pick<Input, 'type' | 'key' | 'control' | 'meta' | 'shift' | 'alt' | 'isAutoRepeat'>,
  platform: NodeJS.Platform = process.platform,
): boolean {
  const command = platform === 'darwin' ? input.meta : input.control;
  return (
    input.type === 'keyDown' &&
    !input.isAutoRepeat &&
    command &&
    input.shift &&
    !input.alt &&
    input.key.toLowerCase() === 'd'
  );
}

/**
 * The cashier's shortcut for the customer display, caught in the main process before the page sees it
 * (`before-input-event`), so no API method is needed for it.
 */
export function bindDisplayToggle(
  contents: Pick<Electron.WebContents, 'on'>,
  toggle: () => void,
  platform: NodeJS.Platform = process.platform,
): void {
  contents.on('before-input-event', (event, input) => {
    if (!isDisplayToggle(input, platform)) return;
    event.preventDefault();
    toggle();
  });
}
