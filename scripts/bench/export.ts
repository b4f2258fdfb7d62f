/**
 * Benchmark (d): exporting the order log (src-main/core/export) on the big file of benchmark (b) — every order
 * of its 90 days — to CSV and to XLSX, against the floor: iterating the very same SELECT with better-sqlite3
 * and doing nothing with the rows, measured in the same run on the same file.
 *
 * Each measurement runs in a child process of its own (this file, `--export-child`), so that the peak RSS of
 * one format is not inflated by the other's garbage or by the parent's million-row build. The child reports
 * its time and its peak RSS (VmHWM of /proc/self/status; ru_maxrss off Linux), before and after the work.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadPaymentCatalogue } from '../../src-main/core/catalogue';
import { FILE_BUFFER_BYTES, openExportConnection } from '../../src-main/core/export/export-file';
import { exportOrders, exportRange, type ExportFormat } from '../../src-main/core/export/order-export';
import { explainExportQuery, prepareExportQuery } from '../../src-main/core/export/order-query';
import { fmtInt, fmtRatio, fmtSeconds, ratio, renderTable, round } from './stats';

const root = fileURLToPath(new URL('../..', import.meta.url));
const thisFile = fileURLToPath(import.meta.url);

/** CSV must reach half the floor's rows per second; either format must peak under 200 MB of RSS. */
export const EXPORT_TARGETS = { csvOverFloor: 0.5, peakRssBytes: 200 * 1000 * 1000 } as const;

type Kind = 'floor' | ExportFormat;

interface ChildTask {
  kind: Kind;
  db: string;
  from: string;
  to: string;
  timeZone: string;
  out: string;
}

interface ChildReport {
  kind: Kind;
  rows: number;
  ms: number;
  /** CPU time of the whole process (every thread) during the work, user + system. */
  cpuMs: number;
  /** Peak RSS of the child before the work (Node, the modules, the open database) and at the end. */
  rssBeforeBytes: number;
  peakRssBytes: number;
  fileBytes: number;
}

export interface ExportRun {
  rows: number;
  rowsPerSecond: number;
  seconds: number;
  cpuSeconds: number;
  peakRssBytes: number;
  rssBeforeBytes: number;
  fileBytes: number;
}

export interface ExportBenchResult {
  from: string;
  to: string;
  timeZone: string;
  orders: number;
  repeats: number;
  plan: string[];
  /** The floor's and CSV's median runs (of `repeats` each, in back-to-back pairs); XLSX's one run. */
  floor: ExportRun;
  csv: ExportRun;
  xlsx: ExportRun;
  /** CSV's rows/s over the floor's, for each pair of runs made back to back. */
  pairRatios: number[];
  /** The median of pairRatios: the figure held against the target. */
  csvOverFloor: number;
  /** The same by CPU time (information: it hardly moves with the machine's other load). */
  csvOverFloorCpu: number;
  xlsxOverFloor: number;
  /** The highest peak RSS of any CSV run (the target is held against it) and of the XLSX run. */
  csvPeakRssBytes: number;
  targets: { csvOverFloor: boolean; csvRss: boolean; xlsxRss: boolean };
}

// ---------------------------------------------------------------- the child

/**
 * The process's peak RSS. On Linux, VmHWM of /proc/self/status: ru_maxrss would not do there, because Linux
 * carries the parent's RSS at fork into the child's ru_maxrss across exec, so every child would start from the
 * parent's million-row build. Elsewhere ru_maxrss (KiB on macOS and Linux, as Node reports it).
 */
function peakRss(): number {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib !== undefined) return Number(kib) * 1024;
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS * 1024;
}

async function runChild(task: ChildTask): Promise<ChildReport> {
  const methods = loadPaymentCatalogue();
  const db = openExportConnection(task.db);
  try {
    const rssBeforeBytes = peakRss();
    const cpu = process.cpuUsage();
    const started = performance.now();
    let rows = 0;
    if (task.kind === 'floor') {
      const range = exportRange(task.from, task.to, task.timeZone);
      for (const row of prepareExportQuery(db).iterate(range.from.toISOString(), range.to.toISOString()))
        if (row.length > 0) rows++;
    } else {
      const result = await exportOrders(
        db,
        { from: task.from, to: task.to, timeZone: task.timeZone, format: task.kind, methods },
        // A file stream as exportToFile opens it; its final fsync (the disk's flush, not the export's work) is left out.
        createWriteStream(task.out, { highWaterMark: FILE_BUFFER_BYTES }),
      );
      rows = result.rows;
    }
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    return {
      kind: task.kind,
      rows,
      ms,
      cpuMs: (used.user + used.system) / 1000,
      rssBeforeBytes,
      peakRssBytes: peakRss(),
      fileBytes: task.kind === 'floor' ? 0 : statSync(task.out).size,
    };
  } finally {
    db.close();
  }
}

function inChild(task: ChildTask): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', thisFile, '--export-child', JSON.stringify(task)], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the ${task.kind} child exited with ${code}: ${stdout}`));
      else resolve(JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildReport);
    });
  });
}

// ---------------------------------------------------------------- the parent

const toRun = (r: ChildReport): ExportRun => ({
  rows: r.rows,
  rowsPerSecond: r.rows / (r.ms / 1000),
  seconds: r.ms / 1000,
  cpuSeconds: r.cpuMs / 1000,
  peakRssBytes: r.peakRssBytes,
  rssBeforeBytes: r.rssBeforeBytes,
  fileBytes: r.fileBytes,
});

/** The middle value (the lower middle of an even count). */
function median<T>(xs: readonly T[], key: (x: T) => number): T {
  return [...xs].sort((a, b) => key(a) - key(b))[Math.floor((xs.length - 1) / 2)]!;
}

export function exportRepeats(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_EXPORT_REPEAT;
  if (raw === undefined || raw.trim() === '') return 3;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`BENCH_EXPORT_REPEAT: must be a whole number ≥ 1 (got ${raw})`);
  return n;
}

/** Exports the store days [from, to] of the file at `dbPath` (orders: how many the file holds in them). */
export async function benchExport(
  dbPath: string,
  days: { from: string; to: string; timeZone: string },
  orders: number,
  tempDir: string,
  options: { repeats: number; progress: (line: string) => void },
): Promise<ExportBenchResult> {
  const db = openExportConnection(dbPath);
  let plan: string[];
  try {
    plan = explainExportQuery(db);
  } finally {
    db.close();
  }
  const task = (kind: Kind): ChildTask => ({ kind, db: dbPath, ...days, out: join(tempDir, `orders.${kind}`) });
  const pairs: { floor: ChildReport; csv: ChildReport }[] = [];
  for (let i = 0; i < options.repeats; i++) {
    // A floor and a CSV run back to back, which goes first alternating: a slow spell of the machine (other
    // programs, the disk) then hits both runs of a pair, and the pair's ratio stays fair.
    const pair: Partial<Record<'floor' | 'csv', ChildReport>> = {};
    for (const kind of i % 2 === 0 ? (['floor', 'csv'] as const) : (['csv', 'floor'] as const)) {
      const report = await inChild(task(kind));
      pair[kind] = report;
      options.progress(
        `    ${kind}: ${fmtInt(report.rows)} rows in ${fmtSeconds(report.ms)} (CPU ${fmtSeconds(report.cpuMs)}), ` +
          `peak RSS ${mb(report.peakRssBytes)}`,
      );
    }
    pairs.push({ floor: pair.floor!, csv: pair.csv! });
  }
  const xlsxReport = await inChild(task('xlsx'));
  options.progress(
    `    xlsx: ${fmtInt(xlsxReport.rows)} rows in ${fmtSeconds(xlsxReport.ms)} (CPU ${fmtSeconds(xlsxReport.cpuMs)}), ` +
      `peak RSS ${mb(xlsxReport.peakRssBytes)}`,
  );
  const floor = toRun(
    median(
      pairs.map((p) => p.floor),
      (r) => r.ms,
    ),
  );
  const csv = toRun(
    median(
      pairs.map((p) => p.csv),
      (r) => r.ms,
    ),
  );
  const xlsx = toRun(xlsxReport);
  for (const run of [csv, xlsx])
    if (run.rows !== floor.rows) throw new Error(`an export wrote ${run.rows} rows; the SELECT gives ${floor.rows}`);
  const pairRatios = pairs.map((p) => ratio(p.floor.ms, p.csv.ms));
  const csvOverFloor = median(pairRatios, (x) => x);
  const csvOverFloorCpu = median(
    pairs.map((p) => ratio(p.floor.cpuMs, p.csv.cpuMs)),
    (x) => x,
  );
  const csvPeakRssBytes = Math.max(...pairs.map((p) => p.csv.peakRssBytes));
  return {
    ...days,
    orders,
    repeats: options.repeats,
    plan,
    floor,
    csv,
    xlsx,
    pairRatios,
    csvOverFloor,
    csvOverFloorCpu,
    xlsxOverFloor: ratio(floor.seconds, xlsx.seconds),
    csvPeakRssBytes,
    targets: {
      csvOverFloor: csvOverFloor >= EXPORT_TARGETS.csvOverFloor,
      csvRss: csvPeakRssBytes < EXPORT_TARGETS.peakRssBytes,
      xlsxRss: xlsx.peakRssBytes < EXPORT_TARGETS.peakRssBytes,
    },
  };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

export function renderExport(r: ExportBenchResult): string {
  const row = (name: string, run: ExportRun, ratioText: string, peak = run.peakRssBytes) => [
    name,
    fmtInt(run.rows),
    fmtInt(run.rowsPerSecond),
    run.seconds.toFixed(1),
    run.cpuSeconds.toFixed(1),
    mb(peak),
    mb(run.rssBeforeBytes),
    run.fileBytes ? mb(run.fileBytes) : '',
    ratioText,
  ];
  const met = (ok: boolean) => (ok ? 'MET' : 'NOT MET');
  return [
    `(d) Export of the order log: ${r.from} to ${r.to} (${r.timeZone}), ${fmtInt(r.orders)} orders; ` +
      `${r.repeats} pairs of floor and CSV runs back to back (median shown), XLSX once; each run a child process of its own`,
    renderTable(
      [
        ['', 'rows', 'rows/s', 'seconds', 'CPU s', 'peak RSS', 'RSS before', 'file', 'vs floor'],
        row('floor: the same SELECT, iterated (baseline)', r.floor, '1.00x'),
        row('CSV (csvRecord) to a file', r.csv, fmtRatio(r.csvOverFloor), r.csvPeakRssBytes),
        row('XLSX (exceljs streaming writer) to a file', r.xlsx, fmtRatio(r.xlsxOverFloor)),
      ],
      [1, 2, 3, 4, 5, 6, 7, 8],
    ),
    `CSV vs floor: the median of the pairs' ratios (${r.pairRatios.map(fmtRatio).join(', ')}); by CPU time ` +
      `${fmtRatio(r.csvOverFloorCpu)}. peak RSS: the child's high-water mark (VmHWM; for CSV the highest of its runs), ` +
      'Node, tsx and the modules included; RSS before: the same mark when the export started. MB = 10^6 bytes',
    `Target CSV ≥ ${EXPORT_TARGETS.csvOverFloor}x the floor's rows/s: ${met(r.targets.csvOverFloor)} (${fmtRatio(r.csvOverFloor)}); ` +
      `peak RSS < ${mb(EXPORT_TARGETS.peakRssBytes)}: CSV ${met(r.targets.csvRss)} (${mb(r.csvPeakRssBytes)}), ` +
      `XLSX ${met(r.targets.xlsxRss)} (${mb(r.xlsx.peakRssBytes)})`,
    `Plan: ${r.plan.join(' | ')}`,
  ].join('\n');
}

export function exportJson(r: ExportBenchResult): unknown {
  const run = (x: ExportRun) => ({
    ...x,
    rowsPerSecond: round(x.rowsPerSecond, 0),
    seconds: round(x.seconds, 2),
    cpuSeconds: round(x.cpuSeconds, 2),
  });
  return {
    ...r,
    floor: run(r.floor),
    csv: run(r.csv),
    xlsx: run(r.xlsx),
    pairRatios: r.pairRatios.map((x) => round(x)),
    csvOverFloor: round(r.csvOverFloor),
    csvOverFloorCpu: round(r.csvOverFloorCpu),
    xlsxOverFloor: round(r.xlsxOverFloor),
  };
}

if (process.argv[2] === '--export-child' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const report = await runChild(JSON.parse(process.argv[3]!) as ChildTask);
  process.stdout.write(JSON.stringify(report) + '\n');
}
