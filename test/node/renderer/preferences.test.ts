// @vitest-environment jsdom
// What the till remembers between visits: the receipt paper and the language, kept in this browser's storage.
import { beforeEach, expect, test } from 'vitest';
import { i18n } from '../../../src-renderer/src/i18n/i18n.svelte';
import { PreferencesManager } from '../../../src-renderer/src/state/preferences.svelte';

beforeEach(() => {
  localStorage.clear();
  i18n.set('id');
});

test('the paper is 58 mm until chosen; the choice is kept for the next visit', () => {
  const first = new PreferencesManager();
  expect(first.paper).toBe(58);
  first.setPaper(80);
  expect(first.paper).toBe(80);
  expect(localStorage.getItem('loket.paper')).toBe('80');
  expect(new PreferencesManager().paper).toBe(80);
});

test('a stored paper that is not 80 reads as 58', () => {
  localStorage.setItem('loket.paper', 'A4');
  expect(new PreferencesManager().paper).toBe(58);
});

test("the store's language applies until the cashier picks one; the pick is kept and wins next time", () => {
  const prefs = new PreferencesManager();
  prefs.applyLanguage('en');
  expect(prefs.lang).toBe('en');
  expect(document.documentElement.lang).toBe('en');

  prefs.setLang('id');
  expect(i18n.lang).toBe('id');
  expect(localStorage.getItem('loket.lang')).toBe('id');

  new PreferencesManager().applyLanguage('en');
  expect(i18n.lang).toBe('id');
  expect(document.documentElement.lang).toBe('id');
});

test("a stored language Loket does not know is ignored for the store's", () => {
  localStorage.setItem('loket.lang', 'fr');
  new PreferencesManager().applyLanguage('en');
  expect(i18n.lang).toBe('en');
});
