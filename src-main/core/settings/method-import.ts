import { parse } from 'csv-parse/sync';
import type { z } from 'zod';
import {
  PAYMENT_KINDS,
  paymentCatalogueSchema,
  paymentMethodSchema,
  type PaymentMethod,
} from '../../common/payment-methods';
import type { SettingsIssue } from '../../common/settings';

/**
 * The operator's payment-method list, imported from JSON (the catalogue's own schema, as in
 * resources/payment-methods.json) or CSV (one method a row, as a spreadsheet exports it). All or nothing:
 * any problem gives no methods, and every problem is listed with its row and field.
 *
 * Rows: JSON counts the array's elements from 1; CSV counts rows as a spreadsheet shows them (the header
 * is row 1, a blank line is a row, a value with a line break inside quotes stays one row). Row 0 is the
 * file as a whole (empty, not JSON, no method enabled).
 */
export interface ImportProblem {
  row: number;
  /** The CSV column or the JSON field (`label.id`), or `(file)` / `(header)` / `(row)`. */
  field: string;
  /** Plain words, naming the row and the field: "row 3, min_amount: a whole number of rupiah …". */
  message: string;
}

export type ImportResult = { ok: true; methods: PaymentMethod[] } | { ok: false; problems: ImportProblem[] };

/** A store's list is a few dozen methods; this bounds the work (and the list of problems) of a wrong file. */
export const MAX_IMPORTED_METHODS = 500;

export function importMethods(text: string, format: 'json' | 'csv'): ImportResult {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '') return fail([fileProblem('the file is empty: it must list the payment methods')]);
  return format === 'json' ? importJson(body) : importCsv(body);
}

// ---------------------------------------------------------------- rules in plain words

const KIND_RULE = `one of ${PAYMENT_KINDS.join(', ')}`;
const AMOUNT_RULE = 'a whole number of rupiah, at least 1';

/** Each field of a method: its CSV column, and its rule (the JSON words; CSV adds the spellings it accepts). */
const FIELDS = {
  id: { column: 'id', rule: 'lowercase <type>_<name>, e.g. va_bca or ewallet_ovo' },
  kind: { column: 'kind', rule: KIND_RULE },
  provider: { column: 'provider', rule: 'the bank, carrier, wallet or store name' },
  'label.id': { column: 'label_id', rule: 'the name the cashier sees in Bahasa Indonesia' },
  'label.en': { column: 'label_en', rule: 'the name the cashier sees in English' },
  requiresCustomerName: { column: 'requires_customer_name', rule: 'true or false' },
  requiresPhone: { column: 'requires_phone', rule: 'true or false' },
  hasShortCode: { column: 'has_short_code', rule: 'true or false' },
  returnsBackUrl: { column: 'returns_back_url', rule: 'true or false' },
  enabled: { column: 'enabled', rule: 'true or false' },
  minAmount: { column: 'min_amount', rule: AMOUNT_RULE },
  maxAmount: { column: 'max_amount', rule: AMOUNT_RULE },
} as const;
type FieldPath = keyof typeof FIELDS;

/** The catalogue schema's own cross-field rules, in words for each format. */
const CROSS_RULES: Record<string, (name: (p: FieldPath) => string) => string> = {
  minAmount: (n) => `must not be more than ${n('maxAmount')}`,
  hasShortCode: (n) => `can be true only when ${n('kind')} is airtime_sms (the carriers that answer with a short code)`,
  requiresCustomerName: (n) => `can be true only when ${n('kind')} is va_bank (a bank's virtual account)`,
};

const BOOLEAN_WORDS: Record<string, boolean> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  ya: true,
  tidak: false,
  '1': true,
  '0': false,
};

/** Whole rupiah: 10000, or grouped by threes the Indonesian (10.000) or the English (10,000) way. */
function parseRupiah(cell: string): number | undefined {
  const plain = cell.replace(/^rp\.?\s*/i, '');
  if (/^\d+$/.test(plain)) return Number(plain);
  if (/^\d{1,3}(\.\d{3})+$/.test(plain)) return Number(plain.replace(/\./g, ''));
  if (/^\d{1,3}(,\d{3})+$/.test(plain)) return Number(plain.replace(/,/g, ''));
  return undefined;
}

function fail(problems: ImportProblem[]): ImportResult {
  return { ok: false, problems };
}

function problem(row: number, field: string, rule: string): ImportProblem {
  const where =
    row === 0
      ? field === '(file)'
        ? ''
        : `${field}: `
      : field === '(row)'
        ? `row ${row}: `
        : `row ${row}, ${field}: `;
  return { row, field, message: where + rule };
}

function fileProblem(rule: string): ImportProblem {
  return problem(0, '(file)', rule);
}

/** One method's schema problems, named in the format's words; fields already reported are skipped. */
function methodProblems(
  input: unknown,
  error: z.ZodError,
  row: number,
  name: (p: FieldPath) => string,
  rule: (p: FieldPath) => string,
  skip: ReadonlySet<string> = new Set(),
): ImportProblem[] {
  const out: ImportProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const at = [...issue.path.map(String), key].join('.');
        out.push(
          problem(row, at, `not a field of a payment method (the fields are: ${Object.keys(FIELDS).join(', ')})`),
        );
      }
      continue;
    }
    const path = issue.path.map(String).join('.');
    if (path === '') {
      out.push(problem(row, '(row)', 'must be an object with the fields of a payment method'));
      continue;
    }
    if (path === 'label' && issue.code === 'invalid_type') {
      out.push(problem(row, 'label', 'required: { "id": "…", "en": "…" }, the names the cashier sees'));
      continue;
    }
    const known = (path in FIELDS ? path : undefined) as FieldPath | undefined;
    const field = known ? name(known) : path;
    if (skip.has(field)) continue;
    const cross = issue.code === 'custom' ? CROSS_RULES[path] : undefined;
    if (cross) out.push(problem(row, field, cross(name)));
    else if (known) {
      const missing =
        (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) ||
        (issue.code === 'too_small' && issue.origin === 'string');
      out.push(problem(row, field, missing ? `required: ${rule(known)}` : rule(known)));
    } else out.push(problem(row, field, issue.message));
  }
  return out;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** Rows whose id repeats an earlier row's: a problem at the second row. */
function duplicateProblems(ids: { row: number; id: string }[], field: string): ImportProblem[] {
  const first = new Map<string, number>();
  const out: ImportProblem[] = [];
  for (const { row, id } of ids) {
    const seen = first.get(id);
    if (seen === undefined) first.set(id, row);
    else out.push(problem(row, field, `${id} is already on row ${seen}; each method once`));
  }
  return out;
}

const NO_METHOD_ENABLED = problem(
  0,
  'enabled',
  'no method is enabled: enable at least one (else the till cannot take payment)',
);

/** The last check: the catalogue's own schema over the whole list (it must agree with the rows' checks). */
function finish(methods: PaymentMethod[], problems: ImportProblem[], anyEnabled: boolean): ImportResult {
  if (methods.length > 0 && !anyEnabled && problems.length === 0) problems.push(NO_METHOD_ENABLED);
  if (problems.length > 0) return fail(problems);
  const whole = paymentCatalogueSchema.safeParse(methods);
  if (!whole.success) return fail(whole.error.issues.map((i) => fileProblem(`${i.path.join('.')}: ${i.message}`)));
  return { ok: true, methods: whole.data };
}

// ---------------------------------------------------------------- JSON

function importJson(text: string): ImportResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return fail([fileProblem(`not valid JSON (${(err as Error).message})`)]);
  }
  if (!Array.isArray(data))
    return fail([fileProblem('must be a JSON array of payment methods: [{ "id": "qris_dynamic", … }, …]')]);
  if (data.length === 0) return fail([fileProblem('the list is empty: it must hold at least one payment method')]);
  if (data.length > MAX_IMPORTED_METHODS)
    return fail([fileProblem(`at most ${MAX_IMPORTED_METHODS} payment methods (the file has ${data.length})`)]);

  const problems: ImportProblem[] = [];
  const methods: PaymentMethod[] = [];
  const ids: { row: number; id: string }[] = [];
  let anyEnabled = false;
  data.forEach((item: unknown, index) => {
    const row = index + 1;
    const parsed = paymentMethodSchema.safeParse(item);
    if (parsed.success) methods.push(parsed.data);
    else
      problems.push(
        ...methodProblems(
          item,
          parsed.error,
          row,
          (p) => p,
          (p) => FIELDS[p].rule,
        ),
      );
    const record = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    if (typeof record.id === 'string') ids.push({ row, id: record.id });
    if (record.enabled === true) anyEnabled = true;
  });
  problems.push(...duplicateProblems(ids, 'id'));
  problems.sort((a, b) => a.row - b.row);
  return finish(methods, problems, anyEnabled);
}

// ---------------------------------------------------------------- CSV

const COLUMNS = Object.fromEntries(Object.entries(FIELDS).map(([path, f]) => [f.column, path as FieldPath])) as Record<
  string,
  FieldPath
>;
const REQUIRED_COLUMNS = ['id', 'kind', 'provider', 'label_id', 'label_en', 'requires_customer_name', 'enabled'];
const BOOLEAN_PATHS = new Set<FieldPath>([
  'requiresCustomerName',
  'requiresPhone',
  'hasShortCode',
  'returnsBackUrl',
  'enabled',
]);
const CSV_BOOLEAN_RULE = 'true or false (also yes/no, ya/tidak, 1/0)';
const CSV_AMOUNT_RULE = `${AMOUNT_RULE} (e.g. 10000 or 10.000)`;

function csvRule(p: FieldPath): string {
  if (BOOLEAN_PATHS.has(p)) return CSV_BOOLEAN_RULE;
  if (p === 'minAmount' || p === 'maxAmount') return CSV_AMOUNT_RULE;
  return FIELDS[p].rule;
}

/** `;` where the header has more of them than commas (Excel in an Indonesian locale writes `;`). */
function detectDelimiter(text: string): ',' | ';' {
  const header = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of header) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

const CSV_ERRORS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted value is not closed: a " is missing',
  INVALID_OPENING_QUOTE: 'a " inside a value that does not start with one: quote the whole value and write " as ""',
  CSV_INVALID_CLOSING_QUOTE: 'text after a closing ": quote the whole value and write " inside it as ""',
};

function importCsv(text: string): ImportResult {
  const delimiter = detectDelimiter(text);
  let records: string[][];
  try {
    records = parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: false,
      trim: true,
    }) as string[][];
  } catch (err) {
    const e = err as { code?: string; message?: string; records?: number };
    const row = typeof e.records === 'number' ? e.records + 1 : 0;
    return fail([
      problem(row, '(row)', CSV_ERRORS[e.code ?? ''] ?? `not readable as CSV (${e.message ?? String(err)})`),
    ]);
  }
  const blank = (r: string[]) => r.every((cell) => cell === '');
  const headerIndex = records.findIndex((r) => !blank(r));
  if (headerIndex < 0) return fail([fileProblem('the file is empty: it must list the payment methods')]);
  const headerRow = headerIndex + 1;

  // The header: known columns, each once, the required ones present.
  const problems: ImportProblem[] = [];
  const header = records[headerIndex]!.map((h) => h.toLowerCase().replace(/[\s-]+/g, '_'));
  const columnAt = new Map<number, FieldPath>();
  const seen = new Map<string, number>();
  header.forEach((name, i) => {
    const label = name === '' ? `column ${i + 1}` : name;
    if (name === '') problems.push(problem(headerRow, label, 'has no name in the header'));
    else if (!(name in COLUMNS))
      problems.push(problem(headerRow, label, `unknown column (the columns are: ${Object.keys(COLUMNS).join(', ')})`));
    else if (seen.has(name))
      problems.push(problem(headerRow, label, `is in the header twice (columns ${seen.get(name)! + 1} and ${i + 1})`));
    else {
      seen.set(name, i);
      columnAt.set(i, COLUMNS[name]!);
    }
  });
  const missing = REQUIRED_COLUMNS.filter((c) => !seen.has(c));
  for (const c of missing) problems.push(problem(headerRow, c, 'missing column: the header must name it'));

  const methods: PaymentMethod[] = [];
  const ids: { row: number; id: string }[] = [];
  let anyEnabled = false;
  let rows = 0;
  records.forEach((record, index) => {
    const row = index + 1;
    if (index <= headerIndex || blank(record)) return;
    rows++;
    if (record.length > header.length) {
      problems.push(
        problem(
          row,
          '(row)',
          `has ${record.length} values but the header has ${header.length} columns (a ${delimiter} inside a value needs quotes)`,
        ),
      );
    }
    const input: Record<string, unknown> = {};
    const label: Record<string, string> = {};
    const reported = new Set<string>(missing);
    for (const [i, path] of columnAt) {
      const cell = record[i] ?? '';
      const column = FIELDS[path].column;
      if (cell === '') {
        if (REQUIRED_COLUMNS.includes(column)) {
          problems.push(problem(row, column, `required: ${csvRule(path)}`));
          reported.add(column);
        }
        continue;
      }
      if (BOOLEAN_PATHS.has(path)) {
        const value = BOOLEAN_WORDS[cell.toLowerCase()];
        if (value === undefined) {
          problems.push(problem(row, column, `${CSV_BOOLEAN_RULE} (got ${JSON.stringify(cell)})`));
          reported.add(column);
        } else {
          input[path] = value;
          if (path === 'enabled' && value) anyEnabled = true;
        }
      } else if (path === 'minAmount' || path === 'maxAmount') {
        const value = parseRupiah(cell);
        if (value === undefined) {
          problems.push(problem(row, column, `${CSV_AMOUNT_RULE} (got ${JSON.stringify(cell)})`));
          reported.add(column);
        } else input[path] = value;
      } else if (path === 'label.id' || path === 'label.en') label[path.slice(6)] = cell;
      else input[path] = cell;
    }
    input.label = label;
    if (typeof input.id === 'string') ids.push({ row, id: input.id });
    const parsed = paymentMethodSchema.safeParse(input);
    if (parsed.success) methods.push(parsed.data);
    else problems.push(...methodProblems(input, parsed.error, row, (p) => FIELDS[p].column, csvRule, reported));
  });
  if (rows === 0)
    problems.push(problem(headerRow + 1, '(row)', 'no payment methods: the file has a header but no rows'));
  if (rows > MAX_IMPORTED_METHODS)
    problems.push(fileProblem(`at most ${MAX_IMPORTED_METHODS} payment methods (the file has ${rows})`));
  problems.push(...duplicateProblems(ids, 'id'));
  problems.sort((a, b) => a.row - b.row);
  return finish(methods, problems, anyEnabled);
}

// ---------------------------------------------------------------- enable / disable

export type EnableResult =
  { ok: true; methods: PaymentMethod[]; changed: boolean } | { ok: false; issues: SettingsIssue[] };

/**
 * Turns one method on or off (it only hides a method from the cashier; the gateway still knows it). The last
 * enabled method cannot be turned off: a till with no way to take payment is not a setting but a fault.
 */
export function enableMethod(methods: readonly PaymentMethod[], id: string, enabled: boolean): EnableResult {
  const target = methods.find((m) => m.id === id);
  const field = `paymentMethods.${id}.enabled`;
  if (!target) {
    return {
      ok: false,
      issues: [
        {
          field: `paymentMethods.${id}`,
          message: `paymentMethods.${id}: no such payment method (the methods are: ${methods.map((m) => m.id).join(', ')})`,
        },
      ],
    };
  }
  if (target.enabled === enabled) return { ok: true, methods: [...methods], changed: false };
  if (!enabled && !methods.some((m) => m.enabled && m.id !== id)) {
    return {
      ok: false,
      issues: [
        {
          field,
          message:
            `${field}: ${target.label.en} is the only enabled payment method; enable another one first ` +
            '(a till with no enabled method cannot take payment)',
        },
      ],
    };
  }
  return { ok: true, methods: methods.map((m) => (m.id === id ? { ...m, enabled } : m)), changed: true };
}
