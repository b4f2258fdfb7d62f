// A fake of the parts of the 'electron' module the shell uses, for `vi.mock('electron', ...)` in
// test/node/electron-*.test.ts: windows, web contents, screens, the power-save blocker, IPC, sessions, custom
// protocols and the app.
// It records what the shell asks for and lets a test play the OS's part (plug a screen in, press a key, navigate).
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
import { vi } from 'vitest';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface FakeDisplay {
  id: number;
  bounds: Rect;
  workArea: Rect;
}

/** An Electron event: preventDefault, plus whatever the event carries (url, isMainFrame, ...). */
export class FakeEvent {
  defaultPrevented = false;
  [key: string]: unknown;

  constructor(props: Record<string, unknown> = {}) {
    Object.assign(this, props);
  }

  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

/** A key press as `before-input-event` reports it. */
export function keyInput(
  key: string,
  modifiers: { control?: boolean; shift?: boolean; alt?: boolean; meta?: boolean },
) {
  return {
    type: 'keyDown',
    key,
    code: '',
    isAutoRepeat: false,
    isComposing: false,
    control: false,
    shift: false,
    alt: false,
    meta: false,
    location: 0,
    modifiers: [],
    ...modifiers,
  };
}

export function display(id: number, x: number, width = 1920, height = 1080): FakeDisplay {
  return {
    id,
    bounds: { x, y: 0, width, height },
    workArea: { x, y: 0, width, height: height - 40 },
  };
}

export function createFakeElectron() {
  let nextContentsId = 1;
  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    singleInstanceLock: true,
    userData: '/tmp/loket-fake-user-data',
    enableSandbox: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => app.singleInstanceLock),
    quit: vi.fn(),
    exit: vi.fn(),
    whenReady: vi.fn(() => Promise.resolve()),
    getVersion: vi.fn(() => '0.0.0-test'),
    getPath: vi.fn(() => app.userData),
    setLoginItemSettings: vi.fn(),
  });

  class FakeWebContents extends EventEmitter {
    readonly id = nextContentsId++;
    url = '';
    destroyed = false;
    readonly sent: [string, unknown][] = [];
    windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
    zoomLimits: [number, number] | undefined;
    printers = [{ name: 'Thermal-58', displayName: 'Thermal 58', description: '', options: {} }];
    printOutcome = { success: true, failureReason: '' };
    readonly printCalls: Record<string, unknown>[] = [];
    readonly pdfCalls: Record<string, unknown>[] = [];

    send(channel: string, payload: unknown): void {
      this.sent.push([channel, payload]);
    }
    getURL(): string {
      return this.url;
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
      this.windowOpenHandler = handler;
    }
    setVisualZoomLevelLimits(min: number, max: number): Promise<void> {
      this.zoomLimits = [min, max];
      return Promise.resolve();
    }
    getPrintersAsync() {
      return Promise.resolve(this.printers);
    }
    print(options: Record<string, unknown>, callback: (success: boolean, failureReason: string) => void): void {
      this.printCalls.push(options);
      const { success, failureReason } = this.printOutcome;
      queueMicrotask(() => callback(success, failureReason));
    }
    printToPDF(options: Record<string, unknown>): Promise<Buffer> {
      this.pdfCalls.push(options);
      return Promise.resolve(Buffer.from('%PDF-1.4 fake'));
    }
    /** Plays a navigation event; true when the shell let it through. */
    navigate(
      event: 'will-navigate' | 'will-frame-navigate' | 'will-redirect',
      url: string,
      isMainFrame = true,
    ): boolean {
      const e = new FakeEvent({ url, isMainFrame });
      this.emit(event, e);
      return !e.defaultPrevented;
    }
    /** Plays a key press; true when the shell kept it from the page. */
    press(input: ReturnType<typeof keyInput>): boolean {
      const e = new FakeEvent();
      this.emit('before-input-event', e, input);
      return e.defaultPrevented;
    }
    destroy(): void {
      if (this.destroyed) return;
      this.destroyed = true;
      this.emit('destroyed');
    }
  }

  class FakeBrowserWindow extends EventEmitter {
    static readonly created: FakeBrowserWindow[] = [];
    static getAllWindows(): FakeBrowserWindow[] {
      return FakeBrowserWindow.created.filter((w) => !w.destroyed);
    }

    readonly options: Record<string, unknown> & { webPreferences?: Record<string, unknown> };
    readonly webContents = new FakeWebContents();
    bounds: Rect;
    visible = false;
    shownInactive = false;
    focused = false;
    minimized = false;
    destroyed = false;
    menuRemoved = false;
    loaded: { file?: string; hash?: string; url?: string } | undefined;

    constructor(options: Record<string, unknown> = {}) {
      super();
      this.options = options;
      this.bounds = {
        x: (options.x as number) ?? 0,
        y: (options.y as number) ?? 0,
        width: (options.width as number) ?? 800,
        height: (options.height as number) ?? 600,
      };
      FakeBrowserWindow.created.push(this);
      app.emit('web-contents-created', new FakeEvent(), this.webContents);
    }

    loadFile(file: string, options?: { hash?: string }): Promise<void> {
      this.loaded = { file, ...(options?.hash ? { hash: options.hash } : {}) };
      this.webContents.url = pathToFileURL(file).href + (options?.hash ? `#${options.hash}` : '');
      queueMicrotask(() => this.emit('ready-to-show'));
      return Promise.resolve();
    }
    loadURL(url: string): Promise<void> {
      this.loaded = { url };
      this.webContents.url = url;
      queueMicrotask(() => this.emit('ready-to-show'));
      return Promise.resolve();
    }
    show(): void {
      this.visible = true;
    }
    showInactive(): void {
      this.visible = true;
      this.shownInactive = true;
    }
    hide(): void {
      this.visible = false;
    }
    isVisible(): boolean {
      return this.visible;
    }
    focus(): void {
      this.focused = true;
    }
    isMinimized(): boolean {
      return this.minimized;
    }
    restore(): void {
      this.minimized = false;
    }
    removeMenu(): void {
      this.menuRemoved = true;
    }
    getBounds(): Rect {
      return { ...this.bounds };
    }
    setBounds(bounds: Rect): void {
      this.bounds = { ...bounds };
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    /** As a person or the OS closing it: 'close' first, which may be refused. */
    close(): void {
      if (this.destroyed) return;
      const e = new FakeEvent();
      this.emit('close', e);
      if (!e.defaultPrevented) this.destroy();
    }
    destroy(): void {
      if (this.destroyed) return;
      this.destroyed = true;
      this.visible = false;
      this.webContents.destroy();
      this.emit('closed');
    }
  }

  const screen = Object.assign(new EventEmitter(), {
    displays: [display(1, 0)] as FakeDisplay[],
    getAllDisplays: () => screen.displays.map((d) => structuredClone(d)),
    getPrimaryDisplay: () => structuredClone(screen.displays[0]!),
    getDisplayMatching(rect: Rect) {
      const cx = rect.x + rect.width / 2;
      const cy = rect.y + rect.height / 2;
      const hit = screen.displays.find(
        (d) =>
          cx >= d.bounds.x && cx < d.bounds.x + d.bounds.width && cy >= d.bounds.y && cy < d.bounds.y + d.bounds.height,
      );
      return structuredClone(hit ?? screen.displays[0]!);
    },
    plug(added: FakeDisplay): void {
      screen.displays.push(added);
      screen.emit('display-added', new FakeEvent(), added);
    },
    unplug(id: number): void {
      const gone = screen.displays.find((d) => d.id === id);
      screen.displays = screen.displays.filter((d) => d.id !== id);
      screen.emit('display-removed', new FakeEvent(), gone);
    },
  });

  let nextBlocker = 100;
  const powerSaveBlocker = {
    active: new Map<number, string>(),
    start: vi.fn((type: string) => {
      const id = nextBlocker++;
      powerSaveBlocker.active.set(id, type);
      return id;
    }),
    stop: vi.fn((id: number) => powerSaveBlocker.active.delete(id)),
    isStarted: (id: number) => powerSaveBlocker.active.has(id),
  };

  const ipcMain = {
    handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
    handle: vi.fn((channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => {
      ipcMain.handlers.set(channel, handler);
    }),
    /** A call as it arrives from a web contents' frame. */
    invoke(
      channel: string,
      from: { contents: FakeWebContents; frameUrl?: string; subFrame?: boolean },
      ...args: unknown[]
    ) {
      const handler = ipcMain.handlers.get(channel);
      if (!handler) throw new Error(`no handler for ${channel}`);
      const senderFrame = { url: from.frameUrl ?? from.contents.url, parent: from.subFrame ? {} : null };
      return handler({ sender: from.contents, senderFrame }, ...args);
    },
  };

  function fakeSession() {
    const s = {
      permissionRequest: undefined as
        ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined,
      permissionCheck: undefined as ((...args: unknown[]) => boolean) | undefined,
      devicePermission: undefined as ((...args: unknown[]) => boolean) | undefined,
      headersListener: undefined as
        ((details: Record<string, unknown>, callback: (response: Record<string, unknown>) => void) => void) | undefined,
      setPermissionRequestHandler: vi.fn((h: typeof s.permissionRequest) => (s.permissionRequest = h)),
      setPermissionCheckHandler: vi.fn((h: typeof s.permissionCheck) => (s.permissionCheck = h)),
      setDevicePermissionHandler: vi.fn((h: typeof s.devicePermission) => (s.devicePermission = h)),
      webRequest: {
        onHeadersReceived: vi.fn((h: typeof s.headersListener) => (s.headersListener = h)),
      },
    };
    return s;
  }
  const session = { defaultSession: fakeSession(), fake: fakeSession };

  /** The OS dialogs: the save dialog answers with `savePath` (undefined: the manager cancels). */
  const dialog = {
    savePath: undefined as string | undefined,
    showErrorBox: vi.fn(),
    showSaveDialog: vi.fn(async (..._args: unknown[]) =>
      dialog.savePath === undefined ? { canceled: true, filePath: '' } : { canceled: false, filePath: dialog.savePath },
    ),
  };
  /** Custom schemes: what was registered as privileged (and whether the app was ready then), and each handler. */
  const protocol = {
    privileged: [] as { scheme: string; privileges?: Record<string, boolean> }[],
    registeredBeforeReady: undefined as boolean | undefined,
    handlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
    registerSchemesAsPrivileged: vi.fn((schemes: { scheme: string; privileges?: Record<string, boolean> }[]) => {
      protocol.privileged.push(...schemes);
      protocol.registeredBeforeReady = app.whenReady.mock.calls.length === 0;
    }),
    handle: vi.fn((scheme: string, handler: (request: Request) => Response | Promise<Response>) => {
      protocol.handlers.set(scheme, handler);
    }),
    /** A request as a window's page makes it. */
    fetch(url: string, init?: RequestInit): Promise<Response> {
      const handler = protocol.handlers.get(new URL(url).protocol.slice(0, -1));
      if (!handler) throw new Error(`no handler for ${url}`);
      return Promise.resolve(handler(new Request(url, init)));
    },
  };
  return { app, BrowserWindow: FakeBrowserWindow, screen, powerSaveBlocker, ipcMain, session, dialog, protocol };
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;
export type FakeWindow = InstanceType<FakeElectron['BrowserWindow']>;
export type FakeContents = FakeWindow['webContents'];
