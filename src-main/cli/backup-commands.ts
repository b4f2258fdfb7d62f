import { parseArgs } from 'node:util';
import { Backups, restoreBackup } from '../core/backup/backups';
import { formatBytes } from '../core/payments/disk-space';
import { makePrivateDir, openDatabase } from '../db/open';
import { lockDataFolder } from '../db/folder-lock';
import { systemClock } from '../core/ports';
import { defaultIo, readStore, type Io, type StoreOptions } from './cli-support';
import { EXIT, UsageError } from './exit-codes';
import { defaultDataDir } from '../core/data-dir';

export const BACKUP_USAGE = `Backups of the order log (docs/when-things-break.md):

  backup [--json]                   a backup now, into <data folder>/backups (and the second folder, if set)
  backup list [--json]              the backups, newest first
  restore FILE [--force]            put FILE in place of loket.db. Refused while Loket runs on this data
                                    folder (exit 7: stop it first). The backup is checked in full first; the
                                    current file is kept aside. Refused while the current log still has open
                                    orders, unless --force (for a log known to be wrong).

Exit codes: 0 ok, 2 invalid input or refused, 6 the backup or the order log cannot be used,
7 Loket runs on this data folder (the message names the process).
`;

export async function runBackupCommand(
  argv: string[],
  options: StoreOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const [first, ...rest] = argv;
  const list = first === 'list';
  const { values } = parseArgs({ args: list ? rest : argv, strict: true, options: { json: { type: 'boolean' } } });
  if (list) {
    const backups = new Backups(options.dataDir ?? defaultDataDir(options.env ?? process.env)).list();
    if (values.json) io.out(JSON.stringify(backups, null, 2) + '\n');
    else if (backups.length === 0) io.out('no backups yet\n');
    else
      for (const b of backups)
        io.out(`${b.at}  ${formatBytes(b.bytes).padStart(8)}  ${b.reason.padEnd(10)} ${b.path}\n`);
    return EXIT.OK;
  }
  return readStore(options, async (store) => {
    const result = await new Backups(store.dataDir).create(store.db, 'manual', store.settings.load().backup.copyTo);
    if (values.json) io.out(JSON.stringify(result, null, 2) + '\n');
    else {
      io.out(`backed up to ${result.path} (${formatBytes(result.bytes)})\n`);
      if (result.copiedTo) io.out(`copied to ${result.copiedTo}\n`);
      if (result.copyError) io.err(`${result.copyError}\n`);
      if (result.removed.length > 0) io.out(`rotated away: ${result.removed.length} older backup(s)\n`);
    }
    return result.copyError ? EXIT.STORAGE : EXIT.OK;
  });
}

export async function runRestoreCommand(
  argv: string[],
  options: StoreOptions = {},
  io: Io = defaultIo,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { force: { type: 'boolean' } },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1)
    throw new UsageError('restore: give one backup file (npm run cli -- backup list)');
  const dataDir = options.dataDir ?? defaultDataDir(options.env ?? process.env);
  // Restoring under a running Loket would leave it writing into the file put aside, and its orders lost: the data
  // folder is taken first, so a restore is refused (FolderBusyError, exit 7) while the app or serve runs.
  makePrivateDir(dataDir);
  const lock = lockDataFolder(dataDir, { command: 'npm run cli -- restore', since: systemClock.now().toISOString() });
  try {
    let result;
    try {
      result = restoreBackup(dataDir, file, { force: values.force ?? false });
    } catch (err) {
      io.err(`loket: ${(err as Error).message}\n`);
      return /open order/.test((err as Error).message) ? EXIT.INVALID_INPUT : EXIT.STORAGE;
    }
    // Open it the way Loket will: the quick check, and the schema brought up to date.
    openDatabase(result.restored).close();
    io.out(`restored ${file} as ${result.restored} (${result.orders} orders)\n`);
    if (result.keptAside) io.out(`the file it replaced is kept as ${result.keptAside}\n`);
    return EXIT.OK;
  } finally {
    lock.release();
  }
}
