import type { MethodImportProblem } from '../../../src-main/common/manager';
import type { PaymentMethod } from '../../../src-main/common/payment-methods';
import type { CallError } from '../api/errors';
import type { EditorIssue, ManagerContext } from './manager-context';

/** What browser mode takes in one call (the API's limit on an imported file's text). */
export const IMPORT_TEXT_MAX = 60_000;

/** A file the manager picked: a browser File has all of this. */
export interface PickedFile {
  readonly name: string;
  readonly size: number;
  text(): Promise<string>;
}

export type ImportFormat = 'json' | 'csv';

/** The format a file's name says it is in, or undefined. */
export function importFormat(fileName: string): ImportFormat | undefined {
  const ext = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return ext === 'json' ? 'json' : ext === 'csv' ? 'csv' : undefined;
}

/** Why an import was not even sent. */
export type LocalImportProblem = 'format' | 'too_large' | 'unreadable';

/** The store's payment methods: enabling and disabling them, importing a list, back to the bundled one. */
export class MethodsEditor {
  #busyId = $state<string | null>(null);
  #issues = $state.raw<EditorIssue[]>([]);
  #error = $state.raw<CallError | null>(null);
  #importing = $state(false);
  #fileName = $state<string | null>(null);
  #problems = $state.raw<MethodImportProblem[]>([]);
  #localProblem = $state<LocalImportProblem | null>(null);
  #imported = $state<number | null>(null);
  #confirmReset = $state(false);
  #resetDone = $state(false);
  readonly #ctx: ManagerContext;

  constructor(ctx: ManagerContext) {
    this.#ctx = ctx;
  }

  get methods(): readonly PaymentMethod[] {
    return this.#ctx.view?.methods ?? [];
  }

  /** The bundled catalogue, or the store's own list (after an import or a change). */
  get source(): 'bundled' | 'store' {
    return this.#ctx.view?.methodsSource ?? 'bundled';
  }

  /** The method whose switch is being changed. */
  get busyId(): string | null {
    return this.#busyId;
  }

  /** Why the last switch was refused (e.g. the last enabled method). */
  get issues(): readonly EditorIssue[] {
    return this.#issues;
  }

  get error(): CallError | null {
    return this.#error;
  }

  get importing(): boolean {
    return this.#importing;
  }

  /** The file of the last import. */
  get fileName(): string | null {
    return this.#fileName;
  }

  /** The server's problems with the last file, each with its row and field. */
  get problems(): readonly MethodImportProblem[] {
    return this.#problems;
  }

  get localProblem(): LocalImportProblem | null {
    return this.#localProblem;
  }

  /** How many methods the last import brought in. */
  get imported(): number | null {
    return this.#imported;
  }

  get confirmReset(): boolean {
    return this.#confirmReset;
  }

  get resetDone(): boolean {
    return this.#resetDone;
  }

  async setEnabled(methodId: string, enabled: boolean): Promise<boolean> {
    if (this.#busyId) return false;
    this.#busyId = methodId;
    this.#clearOutcome();
    try {
      const outcome = await this.#ctx.call((api, token) => api.setMethodEnabled(token, methodId, enabled));
      if (!outcome.ok) return this.#fail(outcome.error);
      if (!outcome.value.ok) {
        this.#issues = outcome.value.issues;
        return false;
      }
      this.#ctx.applyView(outcome.value.view);
      return true;
    } finally {
      this.#busyId = null;
    }
  }

  /** Reads the picked file and imports it: all or nothing, every problem listed with its row and field. */
  async importFile(file: PickedFile): Promise<boolean> {
    if (this.#importing) return false;
    this.#clearOutcome();
    this.#fileName = file.name;
    const format = importFormat(file.name);
    if (!format) return this.#refuseLocally('format');
    if (file.size > IMPORT_TEXT_MAX * 4) return this.#refuseLocally('too_large');
    this.#importing = true;
    try {
      let text: string;
      try {
        text = await file.text();
      } catch {
        return this.#refuseLocally('unreadable');
      }
      if (text.length > IMPORT_TEXT_MAX) return this.#refuseLocally('too_large');
      const outcome = await this.#ctx.call((api, token) => api.importMethods(token, format, text));
      if (!outcome.ok) return this.#fail(outcome.error);
      if (!outcome.value.ok) {
        this.#problems = outcome.value.problems;
        return false;
      }
      this.#ctx.applyView(outcome.value.view);
      this.#imported = outcome.value.view.methods.length;
      return true;
    } finally {
      this.#importing = false;
    }
  }

  askReset(): void {
    this.#clearOutcome();
    this.#confirmReset = true;
  }

  keepList(): void {
    this.#confirmReset = false;
  }

  /** Back to the bundled catalogue. */
  async reset(): Promise<boolean> {
    this.#confirmReset = false;
    this.#clearOutcome();
    const outcome = await this.#ctx.call((api, token) => api.resetMethods(token));
    if (!outcome.ok) return this.#fail(outcome.error);
    this.#ctx.applyView(outcome.value);
    this.#resetDone = true;
    return true;
  }

  #clearOutcome(): void {
    this.#issues = [];
    this.#error = null;
    this.#problems = [];
    this.#localProblem = null;
    this.#imported = null;
    this.#resetDone = false;
  }

  #refuseLocally(problem: LocalImportProblem): false {
    this.#localProblem = problem;
    return false;
  }

  #fail(error: CallError): false {
    if (error.code !== 'locked') this.#error = error;
    return false;
  }
}
