import { defineConfig } from '@playwright/test';

// E2E tests drive the built extension in Debian's Chromium (see tests/e2e/fixtures.ts).
// One worker: each test launches its own browser, and the machine has 2 cores.
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results',
});
