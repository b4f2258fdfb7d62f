import type { AuditEntry } from '../../../src-main/common/manager';
import type { CallError } from '../api/errors';
import type { ManagerContext } from './manager-context';

export const AUDIT_PAGE = 50;

/** The audit log, latest first, a page at a time. */
export class AuditViewer {
  #entries = $state.raw<AuditEntry[]>([]);
  #loading = $state(false);
  #loaded = $state(false);
  #more = $state(false);
  #error = $state.raw<CallError | null>(null);
  readonly #ctx: ManagerContext;

  constructor(ctx: ManagerContext) {
    this.#ctx = ctx;
  }

  get entries(): readonly AuditEntry[] {
    return this.#entries;
  }

  get loading(): boolean {
    return this.#loading;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  /** A full page came back: there may be older entries. */
  get hasMore(): boolean {
    return this.#more;
  }

  get error(): CallError | null {
    return this.#error;
  }

  /** The latest entries (again). */
  async load(): Promise<void> {
    await this.#fetch(undefined);
  }

  /** The page before the oldest shown. */
  async loadMore(): Promise<void> {
    const oldest = this.#entries[this.#entries.length - 1];
    if (oldest) await this.#fetch(oldest.seq);
  }

  async #fetch(before: number | undefined): Promise<void> {
    if (this.#loading) return;
    this.#loading = true;
    this.#error = null;
    const options = before === undefined ? { limit: AUDIT_PAGE } : { limit: AUDIT_PAGE, before };
    const outcome = await this.#ctx.call((api, token) => api.auditLog(token, options));
    this.#loading = false;
    if (!outcome.ok) {
      if (outcome.error.code !== 'locked') this.#error = outcome.error;
      return;
    }
    this.#entries = before === undefined ? outcome.value : [...this.#entries, ...outcome.value];
    this.#more = outcome.value.length === AUDIT_PAGE;
    this.#loaded = true;
  }
}
