import type { Lang } from '../../common/app-info';

/** The store's staff, former members too (StaffStore.list({ includeInactive: true })), to name them. */
export type StaffNames = readonly { id: number; name: string }[];

/** Sold with nobody signed in at the till, in the report's language. */
export const NOBODY: Record<Lang, string> = { id: '(tanpa kasir)', en: '(nobody signed in)' };

/**
 * Who sold it, as the books name them: the store's name for the id (former staff keep theirs), else the name the
 * books kept with the sale, else `#id`; nobody signed in in the report's language.
 */
export function staffNamer(staffNames: StaffNames, lang: Lang): (id: number | null, kept?: string | null) => string {
  const names = new Map(staffNames.map((s) => [s.id, s.name]));
  return (id, kept) => (id === null ? NOBODY[lang] : (names.get(id) ?? kept ?? `#${id}`));
}

/** The order of the staff lines: by name (whatever its case), then id; sold with nobody signed in last. */
export function byStaffName(name: (id: number | null) => string): (a: number | null, b: number | null) => number {
  return (a, b) => {
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    const na = name(a).toLowerCase();
    const nb = name(b).toLowerCase();
    return na < nb ? -1 : na > nb ? 1 : a - b;
  };
}
