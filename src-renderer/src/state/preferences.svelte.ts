import type { Lang } from '../../../src-main/common/app-info';
import { i18n, isLang } from '../i18n/i18n.svelte';
import { loadPreference, savePreference } from '../lib/storage';

export type Paper = 58 | 80;

const PAPER_KEY = 'loket.paper';
const LANG_KEY = 'loket.lang';

/** What this till remembers between visits (this browser's storage): the receipt paper and the language. */
export class PreferencesManager {
  #paper = $state<Paper>(loadPreference(PAPER_KEY) === '80' ? 80 : 58);

  get paper(): Paper {
    return this.#paper;
  }

  get lang(): Lang {
    return i18n.lang;
  }

  /** At start: the language chosen on this till before, else the store's. */
  applyLanguage(storeLang: Lang): void {
    const saved = loadPreference(LANG_KEY);
    i18n.set(isLang(saved) ? saved : storeLang);
  }

  setLang(lang: Lang): void {
    i18n.set(lang);
    savePreference(LANG_KEY, lang);
  }

  setPaper(paper: Paper): void {
    this.#paper = paper;
    savePreference(PAPER_KEY, String(paper));
  }
}
