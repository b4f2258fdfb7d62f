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
