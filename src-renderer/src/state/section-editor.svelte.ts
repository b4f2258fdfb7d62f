import type { ManagerView, SettingsSectionName } from '../../../src-main/common/manager';
import type { CallError } from '../api/errors';
import type { EditorIssue, ManagerContext } from './manager-context';

/** A typed whole number ("15", " 9100 "), or undefined for anything else. */
export function wholeNumber(text: string): number | undefined {
  return /^\s*\d{1,9}\s*$/.test(text) ? Number(text) : undefined;
}

/**
 * One section of the manager's settings as a form: a draft over the settings in the latest view (a field
 * not edited follows the view; an edited one keeps what was typed), the problems the server or this editor
 * found with each field, and saving. Saving sends only what changed; the server checks every rule and
 * answers a newer view or the problems, field by field.
 */
export abstract class SectionEditor<D extends object> {
  #edits = $state.raw<Partial<D>>({});
  #issues = $state.raw<EditorIssue[]>([]);
  #error = $state.raw<CallError | null>(null);
  #saving = $state(false);
  #saved = $state(false);
  #last: ManagerView;
  protected readonly ctx: ManagerContext;

  constructor(ctx: ManagerContext) {
    if (!ctx.view) throw new Error('a settings editor needs the manager view');
    this.ctx = ctx;
    this.#last = ctx.view;
  }

  /** The draft's values as the settings in `view` have them. */
  protected abstract read(view: ManagerView): D;

  /** The draft field each of the server's field paths belongs to (`gateway.baseUrl` → `baseUrl`). */
  protected abstract readonly fields: Readonly<Record<string, keyof D>>;

  /** Sends the change; true when all of it was saved. */
  protected abstract commit(): Promise<boolean>;

  protected get view(): ManagerView {
    const view = this.ctx.view;
    if (view) this.#last = view;
    return this.#last;
  }

  /** The saved values. */
  get base(): D {
    return this.read(this.view);
  }

  /** The values on the form: the saved ones, with what was typed over them. */
  get draft(): D {
    return { ...this.base, ...this.#edits };
  }

  value<K extends keyof D>(field: K): D[K] {
    return this.draft[field];
  }

  set<K extends keyof D>(field: K, value: D[K]): void {
    this.#edits = { ...this.#edits, [field]: value };
    this.#issues = this.#issues.filter((i) => this.fields[i.field] !== field);
    this.#saved = false;
    this.#error = null;
  }

  /** This field differs from the saved value. */
  changed(field: keyof D): boolean {
    return field in this.#edits && this.#edits[field] !== this.base[field];
  }

  /** Something differs from what is saved. */
  get dirty(): boolean {
    return (Object.keys(this.#edits) as (keyof D)[]).some((field) => this.changed(field));
  }

  /** The problem with one field of the form, if any. */
  issueFor(field: keyof D): EditorIssue | undefined {
    return this.#issues.find((i) => this.fields[i.field] === field);
  }

  /** Problems with no field of the form (e.g. open orders). */
  get otherIssues(): readonly EditorIssue[] {
    return this.#issues.filter((i) => this.fields[i.field] === undefined);
  }

  /** The field (of the form's) of the first problem, in the server's order, for the focus. */
  get firstIssueField(): keyof D | undefined {
    for (const issue of this.#issues) if (this.fields[issue.field] !== undefined) return this.fields[issue.field];
    return undefined;
  }

  get error(): CallError | null {
    return this.#error;
  }

  get saving(): boolean {
    return this.#saving;
  }

  /** The last save went through (until the next edit). */
  get saved(): boolean {
    return this.#saved;
  }

  /** Back to what is saved. */
  discard(): void {
    this.#edits = {};
    this.#issues = [];
    this.#error = null;
    this.#saved = false;
  }

  async save(): Promise<boolean> {
    if (this.#saving) return false;
    this.#saving = true;
    this.#saved = false;
    this.#error = null;
    this.#issues = [];
    try {
      const done = await this.commit();
      if (done) {
        this.#edits = {};
        this.#saved = true;
      }
      return done;
    } finally {
      this.#saving = false;
    }
  }

  /** Problems found before sending anything: nothing is sent. */
  protected refuse(issues: EditorIssue[]): false {
    this.#issues = issues;
    return false;
  }

  protected fail(error: CallError): false {
    // A locked session has already taken the screens back to the PIN pad: nothing to say here.
    if (error.code !== 'locked') this.#error = error;
    return false;
  }

  /** One section's change; the newer view on success, the problems on the form otherwise. */
  protected async update(section: SettingsSectionName, patch: Record<string, unknown> | null): Promise<boolean> {
    const outcome = await this.ctx.call((api, token) => api.updateSettings(token, section, patch));
    if (!outcome.ok) return this.fail(outcome.error);
    if (!outcome.value.ok) return this.refuse(outcome.value.issues);
    this.ctx.applyView(outcome.value.view);
    return true;
  }

  /** The fields to send: those that changed, or all of them (`all`, e.g. a gateway set up for the first time). */
  protected changedFields(all = false): ReadonlySet<keyof D> {
    const keys = Object.keys(this.base) as (keyof D)[];
    // A value worked out once per save, never rendered: a plain Set.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    return new Set(all ? keys : keys.filter((k) => this.changed(k)));
  }
}
