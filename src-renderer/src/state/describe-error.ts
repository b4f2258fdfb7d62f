import type { CallError } from '../api/errors';
import type { Messages } from '../i18n/i18n.svelte';

/**
 * Words for the screen: the text in the screen's language, and the server's own words (English) as a
 * secondary detail, never inside the text.
 */
export interface Shown {
  text: string;
  detail?: string;
}

/** Words for an API error in the screen's language; the server's own words are kept as a detail where they help. */
export function describeError(error: CallError, t: Messages): Shown {
  switch (error.code) {
    case 'network':
      return { text: t.errors.network };
    case 'forbidden':
      return error.status === 401 ? { text: t.errors.forbidden } : { text: t.errors.refused, detail: error.message };
    case 'conflict':
      return { text: t.errors.conflict, detail: error.message };
    case 'not_found':
      return { text: t.errors.notFound };
    case 'locked':
      return { text: t.errors.locked };
    case 'unavailable':
      return { text: t.errors.unavailable, detail: error.message };
    case 'invalid_arguments':
      return { text: t.errors.invalid, detail: error.message };
    case 'internal':
      // Where "the log has the details": the log file's path, the same in every language.
      return error.logFile ? { text: t.errors.internal, detail: error.logFile } : { text: t.errors.internal };
    default:
      return { text: t.errors.other, detail: error.message };
  }
}
