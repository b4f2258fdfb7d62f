import { STORE_URL_VARIABLE } from '../store-book/credentials';

// The usage of the store commands, apart from them: `help` prints it without loading the PostgreSQL driver.
export const STORE_USAGE = `The store book: the store's PostgreSQL, where every terminal's events come together
(docs/store-book.md):

  store init --url ADMIN_URL [--store-code CODE] [--name NAME] [--time-zone ZONE] [--password-stdin] [--json]
  store init --url ADMIN_URL --head-office [--password-stdin] [--json]
                     create or upgrade the store book's schema (idempotent: run it again after an update).
                     --store-code (1 to 3 capital letters or digits) the first time; --name and --time-zone
                     default to this till's settings. --head-office: a chain's head office book (no store)
  store enrol --url ADMIN_URL --terminal ID [--no-keychain] [--password-stdin] [--json]
                     create this terminal's PostgreSQL role with a new random password, kept in the OS
                     keychain (one entry per store and terminal). ID is this till's terminal id (config
                     set-store --terminal-id). --no-keychain: print the URL for ${STORE_URL_VARIABLE} instead
  store sync [--json] [--clear-conflict]
                     send this terminal's events now, all of them (one pass); --clear-conflict tries again
                     after a manager resolved a conflict
  store status [--json]
                     the link, this terminal's backlog and last sync, every terminal's backlog and last
                     report as the store book sees them, conflicts

ADMIN_URL: postgres://USER@HOST[:PORT]/DATABASE[?sslmode=…&sslrootcert=FILE] of a role that may create roles and
owns the database. Its password: one line of standard input with --password-stdin, else PGPASSWORD, else a hidden
prompt on a terminal; one inside the URL still works but is warned about (ps and the shell's history see it).
sslmode as libpq: disable, prefer (the default: TLS when the server offers it), require, verify-ca, verify-full. A
password is never repeated in a message. ${STORE_URL_VARIABLE} (the terminal's whole URL) overrides the keychain.

Exit codes: 0 ok (sync: everything was sent), 2 invalid input or refused (not enrolled, a terminal id taken,
the store book refused the password), 3 a conflict stops this terminal's sync (status lists every terminal's),
4 the store book could not be reached (sync: events wait; status: the link is down), 5 the OS keychain cannot be
used, 6 the order log cannot be used.
`;
