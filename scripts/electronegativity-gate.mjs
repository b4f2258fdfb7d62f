// `npm run security:electron`: the Electron security gate. Runs Electronegativity (@doyensec/electronegativity,
// pinned) over the shell's code — src-main, src-preload and src-renderer/index.html by default, or the folders
// and files named on the command line — writes its findings to a JSON report, and exits non-zero itself (the
// tool's own CLI exits 0 whatever it finds):
//
//   exit 0  no finding that fails the gate
//   exit 1  a HIGH or MEDIUM finding (other than the preload review reminder), or any finding of the checks the
//           Electron security checklist makes absolute (node integration, context isolation, sandbox, web security),
//           or a web preference written with an insecure value (our own check, LOKET_INSECURE_WEB_PREFERENCE: the
//           tool says nothing of `nodeIntegration: true` next to `sandbox: true`, which we refuse all the same), or a
//           page loaded from a file:// URL (our own check, LOKET_FILE_PAGE: the screens come from app://loket/, and
//           the packaged app turns the GrantFileProtocolExtraPrivileges fuse off, so a file:// page would break there)
//   exit 2  the gate could not do its job: an input is missing, a file could not be parsed (and so was not
//           checked), or the tool failed
//
// Usage: node scripts/electronegativity-gate.mjs [--report FILE] [--quiet] [PATH ...]
//
// The tool is run through its programmatic entry rather than its CLI with `-o`: in 1.10.3 the CLI writes the CSV
// header and the rows with two racing asynchronous writes (the header can land over the first rows, or the rows
// be lost), and its SARIF output drops the severities. The inputs are copied into one folder and scanned in one
// run, because its global checks (navigation limits, permission handler, CSP) look across all the files at once.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const repoRoot = join(import.meta.dirname, '..');

export const DEFAULT_INPUTS = ['src-main', 'src-preload', 'src-renderer/index.html'];
export const DEFAULT_REPORT = 'out/security/electronegativity.json';

/** Findings that never fail the gate, and why. */
export const ACCEPTED = Object.freeze({
  PRELOAD_JS_CHECK:
    'a reminder to review every preload by hand, raised for each window that has one; src-preload/index.ts and ' +
    'src-preload/display.ts are reviewed (docs/desktop.md: what each preload exposes)',
});

/** Checks whose every finding fails the gate, whatever severity the tool gives it (it calls some INFORMATIONAL). */
export const ALWAYS_FAIL = Object.freeze([
  'NODE_INTEGRATION_JS_CHECK',
  'NODE_INTEGRATION_HTML_CHECK',
  'NODE_INTEGRATION_ATTACH_EVENT_JS_CHECK',
  'CONTEXT_ISOLATION_JS_CHECK',
  'SANDBOX_JS_CHECK',
  'WEB_SECURITY_JS_CHECK',
  'WEB_SECURITY_HTML_CHECK',
  'INSECURE_CONTENT_JS_CHECK',
  'INSECURE_CONTENT_HTML_CHECK',
  'REMOTE_MODULE_JS_CHECK',
]);

/** Checks not run, and why (the tool takes class names here). */
export const EXCLUDED_CHECKS = Object.freeze({
  AvailableSecurityFixesGlobalCheck:
    "downloads Electron's release list from GitHub, which our machines and CI cannot reach; Electron upgrades are " +
    'tracked through npm (package.json pins the major version)',
});

const FAILING_SEVERITIES = new Set(['HIGH', 'MEDIUM']);

/** What the gate makes of one finding: it fails the gate, it is accepted (with why), or it is a note. */
export function verdict(issue) {
  if (Object.hasOwn(ACCEPTED, issue.id)) return 'accepted';
  if (ALWAYS_FAIL.includes(issue.id)) return 'fail';
  return FAILING_SEVERITIES.has(issue.severity) ? 'fail' : 'note';
}

/** Web preferences whose value, written as a literal, the gate refuses anywhere in the scanned code. */
export const INSECURE_WEB_PREFERENCES = Object.freeze({
  nodeIntegration: true,
  nodeIntegrationInWorker: true,
  nodeIntegrationInSubFrames: true,
  contextIsolation: false,
  sandbox: false,
  webSecurity: false,
  allowRunningInsecureContent: true,
  experimentalFeatures: true,
  webviewTag: true,
});

const SOURCE_KINDS = {
  '.ts': 'TS',
  '.mts': 'TS',
  '.cts': 'TS',
  '.tsx': 'TSX',
  '.js': 'JS',
  '.mjs': 'JS',
  '.cjs': 'JS',
  '.jsx': 'JSX',
};

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (Object.hasOwn(SOURCE_KINDS, extname(entry.name))) files.push(path);
  }
  return files;
}

/**
 * LOKET_INSECURE_WEB_PREFERENCE: every `name: value` property in the code whose name is one of
 * INSECURE_WEB_PREFERENCES with its insecure literal value, and every `enableBlinkFeatures` — parsed with the
 * TypeScript compiler, so comments and strings do not count.
 */
export function insecureWebPreferences(dir) {
  const ts = require('typescript');
  const findings = [];
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(
      file,
      text,
      ts.ScriptTarget.Latest,
      true,
      ts.ScriptKind[SOURCE_KINDS[extname(file)]],
    );
    const visit = (node) => {
      if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
        const name = node.name.text;
        const value =
          node.initializer.kind === ts.SyntaxKind.TrueKeyword
            ? true
            : node.initializer.kind === ts.SyntaxKind.FalseKeyword
              ? false
              : undefined;
        const insecure =
          name === 'enableBlinkFeatures' ||
          (Object.hasOwn(INSECURE_WEB_PREFERENCES, name) && INSECURE_WEB_PREFERENCES[name] === value);
        if (insecure) {
          const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
          findings.push({
            id: 'LOKET_INSECURE_WEB_PREFERENCE',
            severity: 'HIGH',
            confidence: 'CERTAIN',
            file: relative(dir, file),
            line: line + 1,
            column: character,
            sample: node.getText(source),
            description: `${name} must not be ${name === 'enableBlinkFeatures' ? 'used' : String(value)} (the Electron security checklist)`,
            manualReview: false,
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

/**
 * LOKET_FILE_PAGE: every `.loadFile(…)` call, and every `.loadURL(…)` whose argument names a file:// URL (a `file:`
 * literal or pathToFileURL) — parsed with the TypeScript compiler, so comments do not count. The app's pages are
 * served from its own scheme (src-main/electron/app-protocol.ts).
 */
export function filePageLoads(dir) {
  const ts = require('typescript');
  const findings = [];
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(
      file,
      text,
      ts.ScriptTarget.Latest,
      true,
      ts.ScriptKind[SOURCE_KINDS[extname(file)]],
    );
    const visit = (node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const method = node.expression.name.text;
        const argument = node.arguments[0]?.getText(source) ?? '';
        const fileUrl = /^[`'"]\s*file:/i.test(argument) || argument.includes('pathToFileURL');
        if (method === 'loadFile' || (method === 'loadURL' && fileUrl)) {
          const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
          findings.push({
            id: 'LOKET_FILE_PAGE',
            severity: 'HIGH',
            confidence: 'CERTAIN',
            file: relative(dir, file),
            line: line + 1,
            column: character,
            sample: node.getText(source),
            description:
              'a page loaded from a file:// URL: serve it from the app’s own scheme (the GrantFileProtocolExtraPrivileges fuse is off)',
            manualReview: false,
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

function installedElectronVersion() {
  try {
    // Resolving package.json runs none of electron's code (its index.js would try to download the binary).
    return require('electron/package.json').version;
  } catch {
    return undefined;
  }
}

/** Copies the inputs into one folder, each under its path relative to `root`. */
function stage(root, inputs) {
  const dir = mkdtempSync(join(tmpdir(), 'loket-electronegativity-'));
  for (const input of inputs) {
    const from = resolve(root, input);
    const rel = relative(root, from);
    const to = rel === '' || rel.startsWith('..') || isAbsolute(rel) ? join(dir, 'input') : join(dir, rel);
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to, { recursive: true, filter: (src) => !src.split(/[\\/]/).includes('node_modules') });
  }
  return dir;
}

/**
 * Runs the gate. Returns { exitCode, findings, errors, report }; prints a summary unless `quiet`.
 * @param {{ root?: string, inputs?: string[], report?: string | null, quiet?: boolean }} options
 */
export async function runGate(options = {}) {
  const root = options.root ?? process.cwd();
  const inputs = options.inputs?.length ? options.inputs : DEFAULT_INPUTS;
  const say = options.quiet ? () => undefined : (line) => console.log(line);
  const missing = inputs.filter((input) => !existsSync(resolve(root, input)));
  if (missing.length > 0) {
    console.error(`electronegativity gate: no such input: ${missing.join(', ')}`);
    return { exitCode: 2, findings: [], errors: [] };
  }

  const electronVersion = installedElectronVersion();
  const run = require('@doyensec/electronegativity');
  const toolVersion = require('@doyensec/electronegativity/package.json').version;
  const dir = stage(root, inputs);
  let result;
  let own;
  try {
    own = [...insecureWebPreferences(dir), ...filePageLoads(dir)];
    result = await run(
      {
        input: dir,
        isRelative: true,
        customScan: [],
        excludeFromScan: Object.keys(EXCLUDED_CHECKS).map((name) => name.toLowerCase()),
        parserPlugins: [],
        ...(electronVersion ? { electronVersionOverride: electronVersion } : {}),
      },
      false,
    );
  } catch (err) {
    console.error(`electronegativity gate: the tool failed: ${err?.stack ?? err}`);
    return { exitCode: 2, findings: [], errors: [] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const fromTool = result.issues.map((issue) => {
    const finding = {
      id: issue.id,
      severity: issue.severity.name,
      confidence: issue.confidence.name,
      file: issue.file,
      line: issue.location?.line ?? 0,
      column: issue.location?.column ?? 0,
      sample: issue.sample ?? null,
      description: issue.description,
      manualReview: Boolean(issue.manualReview),
    };
    return { ...finding, verdict: verdict(finding) };
  });
  const findings = [...fromTool, ...own.map((finding) => ({ ...finding, verdict: 'fail' }))];
  const errors = result.errors.map((e) => ({
    file: relative(dir, e.file),
    message: e.message,
    tolerable: Boolean(e.tolerable),
  }));
  const failed = findings.filter((f) => f.verdict === 'fail');
  const unparsed = errors.filter((e) => !e.tolerable);
  const exitCode = unparsed.length > 0 ? 2 : failed.length > 0 ? 1 : 0;

  if (options.report !== null) {
    const reportPath = resolve(root, options.report ?? DEFAULT_REPORT);
    mkdirSync(dirname(reportPath), { recursive: true });
    const report = {
      tool: `@doyensec/electronegativity ${toolVersion}`,
      electronVersion: electronVersion ?? null,
      inputs,
      excludedChecks: EXCLUDED_CHECKS,
      accepted: ACCEPTED,
      alwaysFail: ALWAYS_FAIL,
      checks: { global: result.globalChecks, atomic: result.atomicChecks },
      exitCode,
      findings,
      errors,
    };
    writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`);
    say(`electronegativity gate: report in ${relative(process.cwd(), reportPath) || reportPath}`);
  }

  const where = (f) => (f.file === 'N/A' ? '(whole app)' : `${f.file}:${f.line}`);
  for (const f of findings) {
    const mark = f.verdict === 'fail' ? 'FAIL    ' : f.verdict === 'accepted' ? 'accepted' : 'note    ';
    say(`  ${mark} ${f.severity.padEnd(13)} ${f.id}  ${where(f)}  ${f.description}`);
  }
  for (const e of errors) {
    say(`  ${e.tolerable ? 'warning ' : 'UNPARSED'} ${e.file}: ${e.message}`);
  }
  if (exitCode === 2) {
    console.error(
      `electronegativity gate: ${unparsed.length} file(s) could not be parsed, so they were not checked: ` +
        unparsed.map((e) => e.file).join(', '),
    );
  } else if (exitCode === 1) {
    console.error(
      `electronegativity gate: FAILED, ${failed.length} finding(s): ${[...new Set(failed.map((f) => f.id))].join(', ')}`,
    );
  } else {
    say(
      `electronegativity gate: passed (${result.globalChecks + result.atomicChecks} checks; ` +
        `${findings.filter((f) => f.verdict === 'accepted').length} accepted, ` +
        `${findings.filter((f) => f.verdict === 'note').length} notes)`,
    );
  }
  return { exitCode, findings, errors };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { report: { type: 'string' }, quiet: { type: 'boolean', default: false } },
  });
  const { exitCode } = await runGate({
    root: positionals.length > 0 ? process.cwd() : repoRoot,
    inputs: positionals,
    ...(values.report ? { report: values.report } : {}),
    quiet: values.quiet,
  });
  process.exit(exitCode);
}
