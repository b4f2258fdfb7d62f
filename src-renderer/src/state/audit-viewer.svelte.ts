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

  /**
   * The page before the oldest shown. The training log's entries (merged in while the till runs in training) have
   * numbers of their own, so each log is paged from the oldest of its own entries shown.
   */
  async loadMore(): Promise<void> {
    if (this.#entries.length === 0) return;
    const oldest = (log: 'training' | undefined) =>
      this.#entries.reduce<number | undefined>(
        (min, e) => (e.log === log && (min === undefined || e.seq < min) ? e.seq : min),
        undefined,
      );
    const before = oldest(undefined);
    const trainingBefore = oldest('training');
    await this.#fetch({
      ...(before === undefined ? {} : { before }),
      ...(trainingBefore === undefined ? {} : { trainingBefore }),
    });
  }

  async #fetch(cursor: { before?: number; trainingBefore?: number } | undefined): Promise<void> {
    if (this.#loading) return;
    this.#loading = true;
    this.#error = null;
    const options = { limit: AUDIT_PAGE, ...cursor };
    const outcome = await this.#ctx.call((api, token) => api.auditLog(token, options));
    this.#loading = false;
    if (!outcome.ok) {
      if (outcome.error.code !== 'locked') this.#error = outcome.error;
      return;
    }
    this.#entries = cursor === undefined ? outcome.value : [...this.#entries, ...outcome.value];
    this.#more = outcome.value.length === AUDIT_PAGE;
    this.#loaded = true;
  }
}
