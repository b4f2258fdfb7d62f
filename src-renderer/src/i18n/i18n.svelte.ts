import type { Lang } from '../../../src-main/common/app-info';
import { en } from './en';
import { id, type Messages } from './id';

export type { Messages };

const DICTIONARIES: Record<Lang, Messages> = { id, en };

/** The screen's language: every visible string comes from `t`; the page's lang attribute follows it. */
class I18n {
  lang = $state<Lang>('id');
  t = $derived(DICTIONARIES[this.lang]);

  set(lang: Lang): void {
    this.lang = lang;
    document.documentElement.lang = lang;
  }
}

export const i18n = new I18n();

export const LANGS: readonly Lang[] = ['id', 'en'];

export function isLang(value: unknown): value is Lang {
  return value === 'id' || value === 'en';
}

export function messagesFor(lang: Lang): Messages {
  return DICTIONARIES[lang];
}
