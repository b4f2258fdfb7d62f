import { parseArgs } from 'node:util';
import { OrderRuleError } from '../common/order-policy';
import { AUDIT_LIST_MAX } from '../core/audit/audit-log';
import { checkStaffName, checkStaffRole, type StaffSummary } from '../core/staff/staff-store';
import { DuplicateStaffNameError } from '../core/staff/errors';
import type { StoreBooks } from '../runtime';
import { cliUser, defaultIo, readStore, withStore, type Io, type StoreOptions } from './cli-support';
import { EXIT, UsageError } from './exit-codes';
import { readNewPin } from './secret-input';

export const STAFF_USAGE = `Staff and PINs (the store's books in the data folder; each change is audited as cli:<your account>).
A PIN is never taken from the command line: standard input with --pin-stdin, or typed twice at a hidden prompt.

  staff list [--all] [--json]          active staff (--all: former staff too)
  staff add --name NAME --role cashier|manager [--pin-stdin]
  staff remove NAME                    deactivates (kept for the records); never the last active manager
  pin reset NAME [--pin-stdin]         a new PIN without the current one, and the PIN lockout cleared:
                                       the recovery for a forgotten PIN (it needs this machine's account)
  pin set NAME [--pin-stdin]           the same as pin reset
  audit [--limit N] [--before SEQ] [--json]
                                       the audit log, newest first

Exit codes: 0 ok, 1 unexpected error, 2 invalid input or refused (nothing changed), 7 staff add, staff remove
or pin while the app or serve runs on the data folder (staff list and audit only read, and work beside it).
`;

/** A broken staff rule (a duplicate name, the last manager, a PIN's format) is the caller's to fix: exit 2. */
async function refusalsExit2(io: Io, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof OrderRuleError) {
      io.err(`${err.message}\nNothing was changed.\n`);
      return EXIT.INVALID_INPUT;
    }
    throw err;
  }
}

/**
 * The member of staff called `name`. Not found: a refusal that does not repeat the name (someone may have
 * typed a PIN where the name goes).
 */
function staffCalled(store: StoreBooks, name: string): StaffSummary {
  const staff = store.access.staff.findByName(name);
  if (!staff) throw new UsageError('no member of staff has that name (see npm run cli -- staff list)');
  return staff;
}

function oneName(positionals: string[], command: string): string {
  if (positionals.length !== 1)
    throw new UsageError(
      `${command}: the staff member's name, once (put a name with spaces in quotes); nothing else is taken here ` +
        '(the arguments are not repeated, in case one is a PIN)',
    );
  return positionals[0]!;
}

function describe(s: StaffSummary): string {
  return `${s.name} (${s.role}${s.active ? '' : ', removed'})`;
}

export async function runStaffCommand(argv: string[], options: StoreOptions = {}, io: Io = defaultIo): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'list':
      return list(rest, options, io);
    case 'add':
      return refusalsExit2(io, () => add(rest, options, io));
    case 'remove':
      return refusalsExit2(io, () => remove(rest, options, io));
    default:
      throw new UsageError(`staff: unknown subcommand ${JSON.stringify(sub ?? '')}; use list, add or remove`);
  }
}

async function list(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { all: { type: 'boolean' }, json: { type: 'boolean' } },
  });
  return readStore(options, async (store) => {
    const staff = store.access.staff.list({ includeInactive: values.all === true });
    if (values.json) {
      io.out(JSON.stringify(staff, null, 2) + '\n');
      return EXIT.OK;
    }
    if (staff.length === 0) {
      io.out('no staff yet: npm run cli -- staff add --name NAME --role manager\n');
      return EXIT.OK;
    }
    for (const s of staff)
      io.out(`  #${String(s.id).padEnd(4)} ${s.name.padEnd(30)} ${s.role}${s.active ? '' : '  (removed)'}\n`);
    return EXIT.OK;
  });
}

async function add(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { name: { type: 'string' }, role: { type: 'string' }, 'pin-stdin': { type: 'boolean' } },
  });
  if (values.name === undefined) throw new UsageError('--name: is required');
  if (values.role === undefined) throw new UsageError('--role: is required (cashier or manager)');
  // Name and role checked before anyone types a PIN.
  const name = checkStaffName(values.name);
  const role = checkStaffRole(values.role);
  return withStore(options, async (store) => {
    const existing = store.access.staff.findByName(name);
    if (existing) throw new DuplicateStaffNameError(existing.name, !existing.active);
    const first = role === 'manager' && store.access.staff.countActiveManagers() === 0;
    const pin = await readNewPin(name, values['pin-stdin'] === true);
    const added = await store.access.addStaff({ name, role, pin }, cliUser());
    io.out(`added #${added.id} ${describe(added)}\n`);
    if (first) io.out(`${added.name} is the first manager: the manager screens open with this PIN.\n`);
    return EXIT.OK;
  });
}

async function remove(argv: string[], options: StoreOptions, io: Io): Promise<number> {
  const { positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: {} });
  const name = oneName(positionals, 'staff remove');
  return withStore(options, async (store) => {
    const staff = staffCalled(store, name);
    if (!staff.active) {
      io.out(`${staff.name} was already removed: nothing changed\n`);
      return EXIT.OK;
    }
    const after = store.access.removeStaff(staff.id, cliUser());
    io.out(`removed ${describe(after)}: kept for the records, no longer at the till\n`);
    return EXIT.OK;
  });
}

/**
 * `pin reset NAME` (and its alias `pin set NAME`): a new PIN without the current one. The CLI runs on the
 * machine's own account, which is what entitles it: this is the documented recovery for a forgotten manager
 * PIN, and the app offers no such way to anyone not signed in. It also clears the till's PIN lockout.
 */
export async function runPinCommand(argv: string[], options: StoreOptions = {}, io: Io = defaultIo): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'reset' && sub !== 'set')
    throw new UsageError(`pin: unknown subcommand ${JSON.stringify(sub ?? '')}; use reset (or its alias, set)`);
  const { values, positionals } = parseArgs({
    args: rest,
    strict: true,
    allowPositionals: true,
    options: { 'pin-stdin': { type: 'boolean' } },
  });
  const name = oneName(positionals, `pin ${sub}`);
  return refusalsExit2(io, () =>
    withStore(options, async (store) => {
      const staff = staffCalled(store, name);
      if (!staff.active)
        throw new UsageError(`${staff.name} is a former member of staff (removed): their PIN is not used`);
      const pin = await readNewPin(staff.name, values['pin-stdin'] === true);
      const failures = store.access.lockout.failures();
      const after = await store.access.resetPin(staff.id, pin, cliUser());
      io.out(`new PIN set for ${describe(after)}\n`);
      io.out(
        failures > 0
          ? `the PIN lockout is cleared (${failures} failed attempt(s) before)\n`
          : 'the PIN lockout was clear\n',
      );
      return EXIT.OK;
    }),
  );
}

export async function runAuditCommand(argv: string[], options: StoreOptions = {}, io: Io = defaultIo): Promise<number> {
  const args = argv[0] === 'list' ? argv.slice(1) : argv;
  const { values } = parseArgs({
    args,
    strict: true,
    options: { limit: { type: 'string' }, before: { type: 'string' }, json: { type: 'boolean' } },
  });
  const whole = (flag: string, text: string | undefined, max: number): number | undefined => {
    if (text === undefined) return undefined;
    const n = /^\d{1,15}$/.test(text) ? Number(text) : NaN;
    if (!(n >= 1 && n <= max)) throw new UsageError(`--${flag}: a whole number from 1 to ${max}`);
    return n;
  };
  const limit = whole('limit', values.limit, AUDIT_LIST_MAX);
  const before = whole('before', values.before, Number.MAX_SAFE_INTEGER);
  return readStore(options, async (store) => {
    const events = store.audit.list({
      ...(limit !== undefined ? { limit } : {}),
      ...(before !== undefined ? { before } : {}),
    });
    if (values.json) {
      io.out(JSON.stringify(events, null, 2) + '\n');
      return EXIT.OK;
    }
    for (const e of events)
      io.out(
        `#${e.seq}  ${e.at}  ${e.actor.name}  ${e.action}${e.field ? `  ${e.field}` : ''}` +
          `${e.detail ? `  ${JSON.stringify(e.detail)}` : ''}\n`,
      );
    if (events.length === 0) io.out('the audit log is empty\n');
    return EXIT.OK;
  });
}
