import { closeSync, fstatSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { systemClock, type Clock } from '../core/ports';
import { redactSecrets } from './log-redaction';

/** The log's name in the data folder; its older generations are loket.log.1, loket.log.2. */
export const LOG_FILE_NAME = 'loket.log';
/** A generation is rotated out when the next write would take it past this size. */
export const LOG_MAX_BYTES = 1024 * 1024;
/** loket.log and two older ones: at most about 3 MiB in all; the oldest is dropped at each rotation. */
export const LOG_GENERATIONS = 3;
/** One entry is cut here (a stack trace is 1–4 KiB): a runaway message cannot flush out the whole log. */
const MAX_ENTRY_CHARS = 16 * 1024;

export interface LogFileOptions {
  maxBytes?: number;
  generations?: number;
  clock?: Clock;
  /** Where a failure to write the log itself is said, once (it cannot go into the log). */
  warn?: (line: string) => void;
}

type ConsoleMethod = 'log' | 'info' | 'warn' | 'error';

/**
 * Loket's log file in the data folder (loket.log): what browser mode, the desktop app and the command line's
 * unexpected errors say, with the time (UTC), for "the log has the details". Size-capped and rotated
 * (LOG_MAX_BYTES × LOG_GENERATIONS); private to the user (0600); every line passes redactSecrets first.
 *
 * Cheap and off the hot path: write() only queues the line; the queue is appended after the current turn of the
 * event loop, in one write(2) for all its lines, never fsynced (a log line is not worth a disk flush; the order
 * log is what is made durable). What is still queued when the process exits is written then. Several processes
 * may append to the same file (O_APPEND: whole writes do not interleave); one that finds the file rotated by
 * another follows it to the new file instead of rotating again (until then its lines go to the generation before).
 *
 * When the log cannot be written (no space, no permission), Loket goes on without it and says so once on the
 * console.
 */
export class LogFile {
  readonly path: string;
  private readonly maxBytes: number;
  private readonly generations: number;
  private readonly clock: Clock;
  private readonly warn: (line: string) => void;
  private queue: string[] = [];
  private scheduled = false;
  private fd: number | undefined;
  private size = 0;
  private broken = false;
  private closed = false;
  private readonly onExit = () => this.flush();

  constructor(
    readonly dir: string,
    options: LogFileOptions = {},
  ) {
    this.path = join(dir, LOG_FILE_NAME);
    this.maxBytes = options.maxBytes ?? LOG_MAX_BYTES;
    this.generations = Math.max(1, options.generations ?? LOG_GENERATIONS);
    this.clock = options.clock ?? systemClock;
    this.warn = options.warn ?? ((line) => process.stderr.write(`${line}\n`));
    process.on('exit', this.onExit);
  }

  /** False once the file could not be written: lines are dropped from then on. */
  get writable(): boolean {
    return !this.broken;
  }

  /** Queues one entry (several lines are kept together); written after this turn of the event loop. */
  write(text: string): void {
    if (this.closed || this.broken) return;
    const clipped = text.length > MAX_ENTRY_CHARS ? `${text.slice(0, MAX_ENTRY_CHARS)}… (cut)` : text;
    this.queue.push(`${this.clock.now().toISOString()} ${redactSecrets(clipped).trimEnd()}\n`);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush()).unref();
    }
  }

  /** Writes what is queued now (an exiting process, a test). */
  flush(): void {
    this.scheduled = false;
    if (this.queue.length === 0 || this.broken) return;
    const text = this.queue.join('');
    this.queue = [];
    try {
      const bytes = Buffer.from(text, 'utf8');
      this.open();
      if (this.size > 0 && this.size + bytes.length > this.maxBytes) this.rotate();
      writeSync(this.fd!, bytes);
      this.size += bytes.length;
    } catch (err) {
      this.broken = true;
      this.release();
      const why = (err as NodeJS.ErrnoException).code ?? String(err);
      this.warn(`loket: the log file ${this.path} cannot be written (${why}); going on without it`);
    }
  }

  /**
   * Also writes to the log what this process says on the console with these methods (each still goes to the
   * console too), so that what the core reports with console.error lands in the log. Returns the undo.
   */
  captureConsole(methods: readonly ConsoleMethod[] = ['warn', 'error'], target: Console = console): () => void {
    const originals = methods.map((m) => [m, target[m]] as const);
    for (const [method, original] of originals) {
      target[method] = (...args: unknown[]) => {
        original.apply(target, args);
        this.write(format(...args));
      };
    }
    return () => {
      for (const [method, original] of originals) target[method] = original;
    };
  }

  /**
   * Uncaught exceptions (and unhandled rejections, which Node turns into them) go to the log, written at once,
   * before the process ends. Node still prints and exits as before (a monitor changes nothing). Returns the undo.
   */
  captureCrashes(): () => void {
    const onCrash = (err: unknown, origin: string) => {
      this.write(`[${origin}] ${err instanceof Error ? (err.stack ?? err.message) : format(err)}`);
      this.flush();
    };
    process.on('uncaughtExceptionMonitor', onCrash);
    return () => process.off('uncaughtExceptionMonitor', onCrash);
  }

  /** Writes what is queued and closes the file; later writes are dropped. */
  close(): void {
    this.flush();
    this.closed = true;
    this.release();
    process.off('exit', this.onExit);
  }

  /** Opens the file if need be, and takes its size now: other processes may append to it too. */
  private open(): void {
    if (this.fd === undefined) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.fd = openSync(this.path, 'a', 0o600);
    }
    this.size = fstatSync(this.fd).size;
  }

  private rotatedElsewhere(): boolean {
    try {
      return statSync(this.path).ino !== fstatSync(this.fd!).ino;
    } catch {
      return true;
    }
  }

  private rotate(): void {
    // Another process sharing the data folder rotated it already: follow it to the new file instead.
    if (this.rotatedElsewhere()) {
      this.release();
      this.open();
      return;
    }
    this.release();
    for (let n = this.generations - 1; n >= 1; n--) {
      const from = n === 1 ? this.path : `${this.path}.${n - 1}`;
      try {
        renameSync(from, `${this.path}.${n}`);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    // One generation only: the file starts again from nothing.
    this.fd = openSync(this.path, this.generations === 1 ? 'w' : 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private release(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Closing a file we only appended to cannot lose anything that matters here.
    }
    this.fd = undefined;
  }
}
