import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startStaticServer, type StaticServer } from './static-server';

// Built by `electron-vite build` before Playwright runs (see the "test" and "test:e2e" scripts).
const rendererDir = join(import.meta.dirname, '../../../out/renderer');

let server: StaticServer;

test.beforeAll(async () => {
  server = await startStaticServer(rendererDir);
});

test.afterAll(async () => {
  await server?.close();
});

test('the shell shows the app name and the sandbox badge, with no console errors', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  // The console message for a failed load does not say which URL failed; this does.
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`HTTP ${response.status()}: ${response.url()}`);
  });

  const response = await page.goto(`${server.url}/`);
  expect(response?.status()).toBe(200);

  await expect(page).toHaveTitle('Loket');
  await expect(page.locator('html')).toHaveAttribute('lang', 'id');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Loket');
  const badge = page.getByTestId('mode-badge');
  await expect(badge).toBeVisible();
  await expect(badge).toHaveText('SANDBOX');
  await expect(page.getByText('Mode latihan — gateway sandbox bawaan')).toBeVisible();

  // CSP violations are reported as console errors, so this also shows the policy lets the built app run.
  expect(errors).toEqual([]);

  // And the policy is really in force (checked last: the refusal itself is logged as a console error).
  const inlineScriptRan = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'document.body.dataset.inlineScriptRan = "yes"';
    document.head.append(script);
    return document.body.dataset.inlineScriptRan === 'yes';
  });
  expect(inlineScriptRan).toBe(false);
});
