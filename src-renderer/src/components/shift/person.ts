import type { ShiftPerson } from '../../../../src-main/common/shifts';

/**
 * A person of a shift as the screen names them: a member of staff by their name, the command line by its account
 * (`cli:…`), and the till with nobody signed in — which the server names in English, for the log — in the screen's
 * words.
 */
export function personName(person: ShiftPerson | undefined, nobody: string): string {
  if (!person) return nobody;
  return person.staffId !== undefined || person.name.startsWith('cli:') ? person.name : nobody;
}
