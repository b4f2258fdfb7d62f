import type { CallError } from '../api/errors';
import type { Messages } from '../i18n/i18n.svelte';

/** Words for an API error in the screen's language; the server's own words are kept where they help. */
export function describeError(error: CallError, t: Messages): string {
  switch (error.code) {
    case 'network':
      return t.errors.network;
    case 'forbidden':
      return error.status === 401 ? t.errors.forbidden : t.errors.other(error.message);
    case 'conflict':
      return t.errors.conflict(error.message);
    case 'not_found':
      return t.errors.notFound;
    case 'locked':
      return t.errors.locked;
    default:
      return t.errors.other(error.message);
  }
}
