import type { LoketApi } from '../../../src-main/common/api';
import type { ManagerView, TillStatus } from '../../../src-main/common/manager';
import type { DownloadTicket } from '../../../src-main/common/reports';
import type { StaffSummary } from '../../../src-main/common/staff';
import type { ExportDelivery } from '../api/client';
import { CallError, toCallError } from '../api/errors';
import { AttentionQueue } from './attention-queue.svelte';
import { AuditViewer } from './audit-viewer.svelte';
import { CatalogueEditor } from './catalogue-editor.svelte';
import { DayBook } from './day-book.svelte';
import type { CallOutcome, ManagerContext } from './manager-context';
import { MethodsEditor } from './methods-editor.svelte';
import { OrderDesk } from './order-desk.svelte';
import { StoreView } from './store-view.svelte';
import { OrderExport } from './order-export.svelte';
import { isPin, lockedUntil, PinEntry, pinProblem, type PinProblem } from './pin-entry.svelte';
import {
  AccessEditor,
  ConnectionTester,
  DisplayEditor,
  GatewayEditor,
  ModeSwitcher,
  PrinterEditor,
  StoreEditor,
} from './settings-editors.svelte';
import { STAFF_NAME_MAX, StaffEditor } from './staff-editor.svelte';
import { TaxEditor } from './tax-editor.svelte';
import { storeDay } from './store-day';

/** What the manager area shows: first-use setup, the PIN pad, or the unlocked screens. */
export type ManagerPhase = 'setup' | 'unlock' | 'open';

/** The manager's books: the day's work, from the order desk to the export (docs/end-of-day.md). */
export const BOOKS_SECTIONS = ['desk', 'attention', 'day', 'export'] as const;
/** The store's goods: the catalogue of products (docs/catalogue.md, "In the app"). */
export const CATALOGUE_SECTIONS = ['catalogue'] as const;
export const SETTINGS_SECTIONS = [
  'gateway',
  'store',
  'tax',
  'methods',
  'printer',
  'display',
  'staff',
  'access',
  'audit',
] as const;
export const MANAGER_SECTIONS = [...BOOKS_SECTIONS, ...CATALOGUE_SECTIONS, ...SETTINGS_SECTIONS] as const;
export type ManagerSectionName = (typeof MANAGER_SECTIONS)[number];

/** Used until the store's own zone is known (as the cashier's screen does). */
const DEFAULT_TIME_ZONE = 'Asia/Jakarta';

/** What the books need besides the API: saving an export, and printing the A4 page from the screen. */
export interface BooksDeps {
  deliverExport: (ticket: DownloadTicket) => Promise<ExportDelivery>;
  printDocument: (html: string) => Promise<void>;
}

/** Why the screens are locked now: idle too long, or the session ended otherwise (e.g. Loket restarted). */
export type LockNotice = 'idle' | 'ended';

/** The editors of one unlocked session: made when it opens, dropped (with anything typed) when it locks. */
export class ManagerEditors {
  readonly store: StoreEditor;
  readonly gateway: GatewayEditor;
  readonly connection: ConnectionTester;
  readonly mode: ModeSwitcher;
  readonly methods: MethodsEditor;
  readonly printer: PrinterEditor;
  readonly display: DisplayEditor;
  readonly staff: StaffEditor;
  readonly access: AccessEditor;
  /** The sale's settings: tax, cash rounding, discount limits. */
  readonly tax: TaxEditor;
  readonly audit: AuditViewer;
  readonly desk: OrderDesk;
  readonly attention: AttentionQueue;
  readonly day: DayBook;
  readonly export: OrderExport;
  /** This till's books or the whole store's (the store book), for the day and export screens. */
  readonly storeView: StoreView;
  readonly catalogue: CatalogueEditor;

  constructor(ctx: ManagerContext, now: () => number, books: BooksDeps) {
    this.store = new StoreEditor(ctx);
    this.connection = new ConnectionTester(ctx);
    this.gateway = new GatewayEditor(ctx, () => this.connection.forget());
    this.mode = new ModeSwitcher(ctx);
    this.methods = new MethodsEditor(ctx);
    this.printer = new PrinterEditor(ctx);
    this.display = new DisplayEditor(ctx);
    this.staff = new StaffEditor(ctx, now);
    this.access = new AccessEditor(ctx);
    this.tax = new TaxEditor(ctx);
    this.audit = new AuditViewer(ctx);
    // "Today" is the store's day, whatever zone this screen's clock is in.
    const today = () => storeDay(now(), ctx.view?.settings.timeZone ?? DEFAULT_TIME_ZONE);
    this.desk = new OrderDesk(ctx, today);
    this.day = new DayBook(ctx, { today, printDocument: books.printDocument });
    // An action on the queue changes the day's report (its attention items, perhaps its figures).
    this.attention = new AttentionQueue(ctx, () => {
      if (this.day.report) void this.day.load();
    });
    this.storeView = new StoreView(ctx);
    this.export = new OrderExport(ctx, { today, deliver: books.deliverExport, storeView: this.storeView });
    this.catalogue = new CatalogueEditor(ctx, { deliver: books.deliverExport });
  }
}

/** First use: the first manager's name and PIN, typed twice. */
export type SetupProblem = 'name' | 'pin' | 'pin_mismatch';

export interface ManagerSessionDeps {
  api: LoketApi;
  /** Who is at the till and who may unlock (the till manager's status). */
  till: () => TillStatus | null;
  now?: () => number;
  /** Saving an export (the client's deliverExport); without it, an export is refused as unavailable. */
  deliverExport?: BooksDeps['deliverExport'];
  /** Printing the day's A4 page from the screen. */
  printDocument?: BooksDeps['printDocument'];
}

/** The screens lock this long before the server would, so that no action is sent into a session just gone. */
const IDLE_SLACK_MS = 5_000;

/**
 * The manager's screens: first-use setup of the manager PIN, unlocking with a manager's PIN, and the
 * unlocked session. Its token lives here, in memory only (never in storage: a reload locks), and is never
 * handed out — the editors call through `call`, which also notices a `locked` answer (the session idled out
 * or ended) and takes the screens back to the PIN pad, saying why. The screens also lock by themselves when
 * the session's idle deadline passes.
 */
export class ManagerSession implements ManagerContext {
  /** Plain, not reactive: nothing renders it. */
  #token: string | null = null;
  #view = $state.raw<ManagerView | null>(null);
  #editors = $state.raw<ManagerEditors | null>(null);
  #lockAt = $state<number | null>(null);
  #lockNotice = $state<LockNotice | null>(null);
  #idleMinutes = $state(5);
  #section = $state<ManagerSectionName>('gateway');
  /** Set up here: the till's status may not have caught up yet. */
  #setUp = $state(false);

  // Unlocking
  #pickedId = $state<number | null>(null);
  #problem = $state.raw<PinProblem | null>(null);
  #busy = $state(false);
  readonly pin = new PinEntry();

  // First-use setup
  #setupName = $state('');
  #setupPin = $state('');
  #setupAgain = $state('');
  #setupProblems = $state.raw<Partial<Record<'name' | 'pin' | 'again', SetupProblem>>>({});
  #error = $state.raw<CallError | null>(null);

  readonly #api: LoketApi;
  readonly #till: () => TillStatus | null;
  readonly #now: () => number;
  readonly #books: BooksDeps;

  constructor(deps: ManagerSessionDeps) {
    this.#api = deps.api;
    this.#till = deps.till;
    this.#now = deps.now ?? Date.now;
    const nothing = (what: string) => () =>
      Promise.reject(new CallError('unavailable', `${what} is not available here`));
    this.#books = {
      deliverExport: deps.deliverExport ?? nothing('saving an export'),
      printDocument: deps.printDocument ?? nothing('printing'),
    };
  }

  get phase(): ManagerPhase {
    if (this.#view) return 'open';
    return this.#setUp || this.#till()?.hasManager ? 'unlock' : 'setup';
  }

  get view(): ManagerView | null {
    return this.#view;
  }

  get editors(): ManagerEditors | null {
    return this.#editors;
  }

  /** The manager whose session is open. */
  get me(): StaffSummary | null {
    return this.#view?.me ?? null;
  }

  /** When the screens lock if unused (ms). */
  get lockAt(): number | null {
    return this.#lockAt;
  }

  /** Why the PIN pad is back, until the next unlock. */
  get lockNotice(): LockNotice | null {
    return this.#lockNotice;
  }

  /** The idle minutes after which the screens lock (from the last view). */
  get idleMinutes(): number {
    return this.#idleMinutes;
  }

  get section(): ManagerSectionName {
    return this.#section;
  }

  /** Who may unlock: the active managers. */
  get managers(): readonly StaffSummary[] {
    return (this.#till()?.staffList ?? []).filter((s) => s.role === 'manager' && s.active);
  }

  get picked(): StaffSummary | undefined {
    return (
      this.managers.find((s) => s.id === this.#pickedId) ?? (this.managers.length === 1 ? this.managers[0] : undefined)
    );
  }

  get problem(): PinProblem | null {
    return this.#problem;
  }

  get lockedUntil(): number | undefined {
    return lockedUntil(this.#problem);
  }

  get busy(): boolean {
    return this.#busy;
  }

  /** A failure of setup or of loading the screens (not a PIN refusal). */
  get error(): CallError | null {
    return this.#error;
  }

  setupValue(field: 'name' | 'pin' | 'again'): string {
    return field === 'name' ? this.#setupName : field === 'pin' ? this.#setupPin : this.#setupAgain;
  }

  setSetupValue(field: 'name' | 'pin' | 'again', text: string): void {
    if (field === 'name') this.#setupName = text;
    else if (field === 'pin') this.#setupPin = text;
    else this.#setupAgain = text;
    if (this.#setupProblems[field]) this.#setupProblems = { ...this.#setupProblems, [field]: undefined };
    this.#error = null;
  }

  setupProblem(field: 'name' | 'pin' | 'again'): SetupProblem | undefined {
    return this.#setupProblems[field];
  }

  selectSection(section: ManagerSectionName): void {
    this.#section = section;
    const editors = this.#editors;
    if (!editors) return;
    if (section === 'audit') void editors.audit.load();
    else if (section === 'desk') void editors.desk.open();
    else if (section === 'attention') void editors.attention.open();
    else if (section === 'day') void editors.day.open();
    else if (section === 'export') editors.export.open();
    else if (section === 'catalogue') void editors.catalogue.open();
  }

  /** One order on the desk, with its history (from the attention queue or the day's report). */
  showOrder(orderId: string): void {
    const editors = this.#editors;
    if (!editors) return;
    this.#section = 'desk';
    void editors.desk.openDetail(orderId);
    // The list behind it, for when the manager goes back.
    if (!editors.desk.page) void editors.desk.open();
  }

  pick(staffId: number): void {
    if (this.#pickedId === staffId) return;
    this.#pickedId = staffId;
    this.pin.clear();
    const until = this.lockedUntil;
    if (until === undefined || until <= this.#now()) this.#problem = null;
  }

  /** First use: the first manager and their PIN; the screens open for them at once. */
  async setup(): Promise<boolean> {
    if (this.#busy) return false;
    const name = this.#setupName.trim();
    const n = Array.from(name).length;
    const problems = {
      name: n >= 1 && n <= STAFF_NAME_MAX ? undefined : ('name' as const),
      pin: isPin(this.#setupPin) ? undefined : ('pin' as const),
      again: isPin(this.#setupPin) && this.#setupAgain !== this.#setupPin ? ('pin_mismatch' as const) : undefined,
    };
    this.#setupProblems = problems;
    if (problems.name || problems.pin || problems.again) return false;
    this.#busy = true;
    this.#error = null;
    try {
      const session = await this.#api.setupManager({ name, pin: this.#setupPin });
      this.#setUp = true;
      this.#setupName = this.#setupPin = this.#setupAgain = '';
      this.#pickedId = session.staff.id;
      return await this.#open(session.token);
    } catch (err) {
      const error = toCallError(err);
      // Someone set up a manager meanwhile: from now on, it is the PIN pad.
      if (error.code === 'conflict') this.#setUp = true;
      this.#error = error;
      return false;
    } finally {
      this.#busy = false;
    }
  }

  /** Unlocks with the picked manager's PIN. */
  async unlock(): Promise<boolean> {
    const staff = this.picked;
    if (!staff || this.#busy) return false;
    const until = this.lockedUntil;
    if (until !== undefined && until > this.#now()) return false;
    if (!this.pin.complete) {
      this.#problem = { kind: 'format' };
      return false;
    }
    this.#busy = true;
    this.#problem = null;
    this.#error = null;
    try {
      const result = await this.#api.unlockManager(staff.id, this.pin.value);
      this.pin.clear();
      if (!result.ok) {
        this.#problem = pinProblem(result, this.#now());
        return false;
      }
      return await this.#open(result.session.token);
    } catch (err) {
      this.pin.clear();
      this.#problem = { kind: 'error', error: toCallError(err) };
      return false;
    } finally {
      this.#busy = false;
    }
  }

  /** The Lock button. */
  async lock(): Promise<void> {
    const token = this.#token;
    this.#close(null);
    if (token) await this.#api.lockManager(token).catch(() => undefined);
  }

  /**
   * The idle deadline has passed (`now`, from a ticking clock): the screens lock themselves, as the server
   * has done or is about to.
   */
  checkIdle(now: number = this.#now()): void {
    if (this.#token === null || this.#lockAt === null || now < this.#lockAt - IDLE_SLACK_MS) return;
    const token = this.#token;
    this.#close('idle');
    void this.#api.lockManager(token).catch(() => undefined);
  }

  /** Fresh from the server (e.g. when the area is shown again). */
  async refresh(): Promise<void> {
    const outcome = await this.call((api, token) => api.managerView(token));
    if (outcome.ok) this.applyView(outcome.value);
  }

  async call<T>(fn: (api: LoketApi, token: string) => Promise<T>): Promise<CallOutcome<T>> {
    const token = this.#token;
    if (token === null) return { ok: false, error: new CallError('locked', 'manager mode is locked') };
    try {
      const value = await fn(this.#api, token);
      // Each use moves the server's deadline on; a view (applied by the caller) says exactly when.
      if (this.#token === token) this.#lockAt = this.#now() + this.#idleMinutes * 60_000;
      return { ok: true, value };
    } catch (err) {
      const error = toCallError(err);
      if (error.code === 'locked' && this.#token === token) this.#close(this.#idle() ? 'idle' : 'ended');
      return { ok: false, error };
    }
  }

  applyView(view: ManagerView): void {
    if (this.#token === null) return;
    this.#view = view;
    this.#idleMinutes = view.settings.access.managerIdleMinutes;
    this.#lockAt = Date.parse(view.lockAt);
    if (this.#editors) return;
    this.#editors = new ManagerEditors(this, this.#now, this.#books);
    // Unlocked again on the section the manager was in (locked by hand, or idle): it loads as when chosen.
    this.selectSection(this.#section);
  }

  async #open(token: string): Promise<boolean> {
    this.#token = token;
    this.#lockNotice = null;
    this.#problem = null;
    try {
      const view = await this.#api.managerView(token);
      this.applyView(view);
      return true;
    } catch (err) {
      this.#token = null;
      this.#error = toCallError(err);
      return false;
    }
  }

  #idle(): boolean {
    return this.#lockAt !== null && this.#now() >= this.#lockAt - IDLE_SLACK_MS;
  }

  #close(notice: LockNotice | null): void {
    this.#token = null;
    this.#view = null;
    this.#editors = null;
    this.#lockAt = null;
    this.#lockNotice = notice;
    this.#problem = null;
    this.#error = null;
    this.pin.clear();
  }
}
