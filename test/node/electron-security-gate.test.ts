// The Electron security gate (scripts/electronegativity-gate.mjs) itself: it must fail on insecure code, pass on
// secure code, refuse to pass what it could not read, and pass on Loket's own shell (as CI runs it).
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/loket';

const root = join(import.meta.dirname, '../..');
const gateScript = join(root, 'scripts/electronegativity-gate.mjs');
const fixtures = 'test/fixtures/electronegativity';
const dir = tempDir('loket-gate-');
afterAll(() => dir.remove());

interface Finding {
  id: string;
  severity: string;
  file: string;
  verdict: 'fail' | 'accepted' | 'note';
}
interface Report {
  exitCode: number;
  findings: Finding[];
  errors: { file: string; tolerable: boolean }[];
}

let runs = 0;
/** Runs the gate as CI does, in a child process; its exit code and its JSON report. */
function gate(...inputs: string[]): Promise<{ code: number; output: string; report: Report | null }> {
  const reportPath = join(dir.path, `report-${++runs}.json`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [gateScript, '--report', reportPath, ...inputs],
      { cwd: root, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        let report: Report | null = null;
        try {
          report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
        } catch {
          report = null;
        }
        resolve({ code, output: stdout + stderr, report });
      },
    );
  });
}

const failing = (report: Report | null) =>
  [...new Set(report?.findings.filter((f) => f.verdict === 'fail').map((f) => f.id))].sort();

describe('the electronegativity gate', { timeout: 180_000 }, () => {
  // The runs are independent: started together, they take the time of one.
  const secure = gate(`${fixtures}/secure`);
  const nodeIntegration = gate(`${fixtures}/node-integration`);
  const noIsolation = gate(`${fixtures}/no-isolation`);
  const ours = gate('src-main', 'src-preload', 'src-renderer/index.html');

  it('passes a secure app; the preload review reminder is accepted, not failed', async () => {
    const { code, report, output } = await secure;
    expect(code, output).toBe(0);
    expect(report?.exitCode).toBe(0);
    expect(report?.findings).toContainEqual(expect.objectContaining({ id: 'PRELOAD_JS_CHECK', verdict: 'accepted' }));
    expect(output).toContain('electronegativity gate: passed');
  });

  it('fails the same app with nodeIntegration: true, naming the line', async () => {
    const { code, report, output } = await nodeIntegration;
    expect(code, output).toBe(1);
    expect(failing(report)).toEqual(['LOKET_INSECURE_WEB_PREFERENCE']);
    expect(report?.findings).toContainEqual(
      expect.objectContaining({
        id: 'LOKET_INSECURE_WEB_PREFERENCE',
        severity: 'HIGH',
        file: `${fixtures}/node-integration/main.js`,
      }),
    );
    expect(output).toContain('FAILED');
  });

  it('fails an app without context isolation and sandbox, on the tool’s own HIGH and MEDIUM findings', async () => {
    const { code, report } = await noIsolation;
    expect(code).toBe(1);
    expect(failing(report)).toEqual([
      'CONTEXT_ISOLATION_JS_CHECK',
      'LOKET_INSECURE_WEB_PREFERENCE',
      'SANDBOX_JS_CHECK',
    ]);
  });

  it('fails a window written without the checklist’s options (missing is not secure)', async () => {
    const app = join(dir.path, 'bare');
    mkdirSync(app);
    writeFileSync(
      join(app, 'main.js'),
      "import { BrowserWindow } from 'electron';\nexport const w = new BrowserWindow({ width: 800 });\n",
    );
    const { code, report } = await gate(app);
    expect(code).toBe(1);
    // No navigation limits, no permission handler, no CSP, no Auxclick: each a HIGH or MEDIUM finding.
    expect(failing(report)).toEqual(
      expect.arrayContaining([
        'AUXCLICK_JS_CHECK',
        'LIMIT_NAVIGATION_GLOBAL_CHECK',
        'PERMISSION_REQUEST_HANDLER_GLOBAL_CHECK',
      ]),
    );
  });

  it('fails a page loaded from a file:// URL, whichever way it is written (the screens use app://loket/)', async () => {
    const app = join(dir.path, 'file-pages');
    mkdirSync(app);
    const secureApp = readFileSync(join(root, fixtures, 'secure', 'main.js'), 'utf8');
    writeFileSync(join(app, 'index.html'), readFileSync(join(root, fixtures, 'secure', 'index.html')));
    const loads = [
      "window.loadFile('index.html');",
      'window.loadURL(`file://${__dirname}/index.html`);',
      "window.loadURL(pathToFileURL('index.html').href);",
    ];
    writeFileSync(
      join(app, 'main.js'),
      secureApp.replace("  window.loadURL('app://fixture/index.html');", loads.map((l) => `  ${l}`).join('\n')),
    );
    const { code, report } = await gate(app);
    expect(code).toBe(1);
    expect(failing(report)).toEqual(['LOKET_FILE_PAGE']);
    expect(report?.findings.filter((f) => f.id === 'LOKET_FILE_PAGE')).toHaveLength(loads.length);
  });

  it("reads the one place Loket's windows are made: a window made there without the sandbox fails", async () => {
    const shell = join(dir.path, 'electron');
    cpSync(join(root, 'src-main/electron'), shell, { recursive: true });
    const hardened = join(shell, 'hardened-window.ts');
    const text = readFileSync(hardened, 'utf8');
    expect(text).toContain('sandbox: true,');
    writeFileSync(hardened, text.replace('sandbox: true,', 'sandbox: false,'));
    const { code, report } = await gate(shell);
    expect(code).toBe(1);
    expect(failing(report)).toEqual(expect.arrayContaining(['LOKET_INSECURE_WEB_PREFERENCE', 'SANDBOX_JS_CHECK']));
    expect(report?.findings.filter((f) => f.id === 'SANDBOX_JS_CHECK').map((f) => f.file)).toEqual([
      expect.stringMatching(/hardened-window\.ts$/),
    ]);
  });

  it('refuses to pass code it could not parse, and inputs that are not there', async () => {
    const app = join(dir.path, 'broken');
    mkdirSync(app);
    writeFileSync(
      join(app, 'main.js'),
      'export const w = new BrowserWindow({ webPreferences: { nodeIntegration: true ',
    );
    const broken = await gate(app);
    expect(broken.code).toBe(2);
    expect(broken.report?.errors).toContainEqual(
      expect.objectContaining({ file: expect.stringContaining('main.js'), tolerable: false }),
    );
    expect((await gate(join(dir.path, 'nowhere'))).code).toBe(2);
  });

  it("passes Loket's own shell (src-main, src-preload, src-renderer/index.html), as CI runs it", async () => {
    const { code, report, output } = await ours;
    expect(code, output).toBe(0);
    // Every window is made in one place (electron/hardened-window.ts), its options written there as literals: the
    // tool reads them and finds nothing to fail. Its preload reminder is not raised: the preload is an argument.
    expect(report?.findings.filter((f) => f.verdict !== 'note')).toEqual([]);
    expect(report?.findings.map((f) => f.id)).not.toContain('CONTEXT_ISOLATION_JS_CHECK');
  });
});
