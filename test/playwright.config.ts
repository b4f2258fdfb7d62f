import { defineConfig } from '@playwright/test';

// Debian's chromium (apt). Playwright's own browser download is not reachable from our machines.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: '.',
  testMatch: ['e2e/**/*.spec.ts'],
  outputDir: '../test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? [['list']] : [['list']],
  forbidOnly: !!process.env.CI,
  projects: [
    {
      name: 'web',
      testMatch: ['e2e/web/**/*.spec.ts'],
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath: process.env.LOKET_CHROMIUM ?? '/usr/bin/chromium', args: chromiumArgs },
      },
    },
    { name: 'electron', testMatch: ['e2e/electron/**/*.spec.ts'] },
  ],
});
