import type { CallError } from '../api/errors';
import type { Messages } from '../i18n/i18n.svelte';
import { sayReason, type SayContext } from '../lib/say';

/**
 * Words for the screen, in its language. `detail`: a second line in smaller type — what a third party said in its
 * own words (the gateway's message, a refused order's rejection), never Loket's own English.
 */
export interface Shown {
  text: string;
  detail?: string;
}

/**
 * Words for an API error in the screen's language: what the server meant (its reason, worded here), else what the
 * error's code means. The server's English `message` is for the log and the command line, never shown.
 */
export function describeError(error: CallError, t: Messages, ctx?: Partial<SayContext>): Shown {
  const lang = t.lang;
  if (error.reason) return { text: sayReason(error.reason, t, { lang, ...ctx }) };
  switch (error.code) {
    case 'network':
      return { text: t.errors.network };
    case 'forbidden':
      return error.status === 401 ? { text: t.errors.forbidden } : { text: t.errors.refused };
    case 'conflict':
      return { text: t.errors.conflict };
    case 'not_found':
      return { text: t.errors.notFound };
    case 'locked':
      return { text: t.errors.locked };
    case 'unavailable':
      return { text: t.errors.unavailable };
    case 'invalid_arguments':
      return { text: t.errors.invalid };
    case 'internal':
      // Where "the log has the details": the log file's path, the same in every language.
      return error.logFile ? { text: t.errors.internal, detail: error.logFile } : { text: t.errors.internal };
    default:
      return { text: t.errors.other };
  }
}
