// What "works at this screen size" means, checked in the page itself: nothing scrolls sideways; every control
// and every message can be brought on screen, and is then not covered by anything (elementFromPoint at its
// centre finds it or something inside it); every touch target is at least 44 px each way.
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';

export const SHOTS = '/tmp/loket-shots-11';

export interface Size {
  width: number;
  height: number;
}

export const name = (s: Size) => `${s.width}x${s.height}`;

/** A screenshot of the viewport under /tmp/loket-shots-11 (not in the repository). */
export async function shot(page: Page, screen: 'cashier' | 'display', size: Size, state: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${screen}-${name(size)}-${state}.png` });
}

/** Sets the viewport and lets the layout (and anything sized to it, such as the display's code) settle. */
export async function resize(page: Page, size: Size): Promise<void> {
  await page.setViewportSize(size);
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Every problem of the layout on screen now, in words (an empty list: none). Scrolls each control into view
 * to check it can be reached, so take screenshots before.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    if (document.documentElement.scrollWidth > vw)
      problems.push(`scrolls sideways: scrollWidth ${document.documentElement.scrollWidth} > ${vw}`);

    // Nor does anything inside it (a table in a scrolling box, a panel).
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const style = getComputedStyle(el);
      if (style.overflowX !== 'auto' && style.overflowX !== 'scroll') continue;
      if (el.scrollWidth > el.clientWidth + 1) {
        const what = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${Array.from(el.classList).join('.')}`;
        problems.push(`scrolls sideways inside ${what}: ${el.scrollWidth} > ${el.clientWidth}`);
      }
    }

    const describe = (el: Element): string => {
      const h = el as HTMLElement;
      const text = (h.getAttribute('aria-label') ?? h.innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `${el.tagName.toLowerCase()}${h.id ? '#' + h.id : ''}${text ? ` "${text}"` : ''}`;
    };
    const shown = (el: Element): boolean => {
      if (el.closest('[hidden], dialog:not([open]), [aria-hidden="true"]')) return false;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
      const rect = el.getBoundingClientRect();
      // Screen-reader-only text (1 px boxes) is not on screen by design.
      return rect.width > 2 && rect.height > 2;
    };

    const controls = Array.from(
      document.querySelectorAll('button, input:not([type="hidden"]), select, textarea, [role="alert"]'),
    ).filter(shown);
    for (const el of controls) {
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const rect = el.getBoundingClientRect();
      const cx = rect.left + rect.width / 2;
      const cy = rect.top + rect.height / 2;
      if (cx < 0 || cy < 0 || cx > vw || cy > vh) {
        problems.push(`${describe(el)}: cannot be brought on screen (centre at ${cx | 0},${cy | 0})`);
        continue;
      }
      const hit = document.elementFromPoint(cx, cy);
      if (!hit || (hit !== el && !el.contains(hit)))
        problems.push(`${describe(el)}: covered by ${hit ? describe(hit) : 'nothing on screen'}`);
      if (el.getAttribute('role') === 'alert') continue;
      // A radio or a checkbox is touched through its label (the tile around it).
      const input = el instanceof HTMLInputElement && (el.type === 'radio' || el.type === 'checkbox') ? el : null;
      const target = input ? (input.closest('label') ?? input.labels?.[0] ?? input) : el;
      const box = target.getBoundingClientRect();
      if (box.width < 44 || box.height < 44)
        problems.push(`${describe(el)}: touch target ${box.width | 0}×${box.height | 0} px, under 44`);
    }
    return problems;
  });
}

/** The box of an element against the viewport: wholly on screen, or why not. */
export async function offScreen(page: Page, selector: string): Promise<string | null> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return `${sel}: not found`;
    const r = el.getBoundingClientRect();
    if (r.left < 0 || r.top < 0 || r.right > window.innerWidth + 0.5 || r.bottom > window.innerHeight + 0.5)
      return `${sel}: ${r.left | 0},${r.top | 0} – ${r.right | 0},${r.bottom | 0} is not wholly within ${window.innerWidth}×${window.innerHeight}`;
    return null;
  }, selector);
}

/**
 * Each element matching `selector` (at least one must) is on screen as the page is, without scrolling anything:
 * wholly inside the viewport and inside every box that clips it, and not covered (elementFromPoint at its centre
 * finds it or something inside it). A radio or a checkbox counts by its label (the tile around it). Returns the
 * problems, in words.
 */
export async function notShownWithoutScrolling(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const problems: string[] = [];
    const found = Array.from(document.querySelectorAll(sel));
    if (found.length === 0) return [`${sel}: not found`];
    const describe = (el: Element): string => {
      const h = el as HTMLElement;
      const text = (h.getAttribute('aria-label') ?? h.innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 30);
      return `${el.tagName.toLowerCase()}${h.id ? '#' + h.id : ''}${text ? ` "${text}"` : ''}`;
    };
    for (const found1 of found) {
      const input = found1 instanceof HTMLInputElement && (found1.type === 'radio' || found1.type === 'checkbox');
      const el = input ? (found1.closest('label') ?? found1) : found1;
      const r = el.getBoundingClientRect();
      if (r.top < -0.5 || r.left < -0.5 || r.bottom > window.innerHeight + 0.5 || r.right > window.innerWidth + 0.5) {
        problems.push(
          `${describe(el)}: ${r.top | 0}–${r.bottom | 0} is not within the ${window.innerHeight} px screen`,
        );
        continue;
      }
      let clipped = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
        const b = a.getBoundingClientRect();
        if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) {
          problems.push(
            `${describe(el)}: cut off by its scrolling box ${describe(a).slice(0, 40)} (${r.top | 0}–${r.bottom | 0} in ${b.top | 0}–${b.bottom | 0})`,
          );
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || (hit !== el && !el.contains(hit)))
        problems.push(`${describe(el)}: covered by ${hit ? describe(hit) : 'nothing'}`);
    }
    return problems;
  }, selector);
}

/** Boxes inside `selector` that would scroll (their content is taller than they are), in words. */
export async function scrollingInside(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel);
    if (!root) return [`${sel}: not found`];
    return [root, ...Array.from(root.querySelectorAll('*'))]
      .filter((el) => {
        const style = getComputedStyle(el);
        return (style.overflowY === 'auto' || style.overflowY === 'scroll') && el.scrollHeight > el.clientHeight + 1;
      })
      .map((el) => `${el.tagName.toLowerCase()}#${el.id || '?'} scrolls: ${el.scrollHeight} > ${el.clientHeight}`);
  }, selector);
}

/** How many lines the text of the element takes (its line boxes, by their distinct tops). */
export async function lineCount(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return 0;
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set(
      Array.from(range.getClientRects())
        .filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)),
    );
    return tops.size;
  }, selector);
}
