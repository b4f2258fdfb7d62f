/** The groups of scripts/install-system-deps.sh, and what each is needed for. */
export declare const GROUPS: Record<'build' | 'keychain' | 'tests', string>;
export type SystemPackagesPlan =
  | { action: 'none' }
  | { action: 'install'; groups: string[]; via: 'root' | 'sudo' }
  | { action: 'stop' | 'warn'; lines: string[] };
/** What to do about missing Debian packages (see scripts/ensure-deps.mjs). */
export declare function systemPackagesPlan(options: {
  missing: Record<string, string[]>;
  required: string[];
  privilege: 'root' | 'sudo' | null;
  command: (groups: string[]) => string;
}): SystemPackagesPlan;
/** Checks (and installs what is due: Debian packages, npm ci) as `node scripts/ensure-deps.mjs ARGS` does; exits on failure. */
export declare function ensureDeps(argv?: string[]): void;
