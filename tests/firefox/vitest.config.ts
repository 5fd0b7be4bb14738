import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The Firefox E2E (`npm run test:firefox`): its own vitest project, apart from the unit
 * tests (no fake IndexedDB, no fake browser) and from Playwright (whose Firefox mode does
 * not work with Firefox ESR 153). One file, one Firefox, steps in order.
 */
export default defineConfig({
  root,
  resolve: { alias: { '@': root } },
  test: {
    include: ['tests/firefox/**/*.firefox.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A failed step leaves the next ones meaningless; stop there rather than pile up timeouts.
    bail: 1,
    reporters: ['verbose'],
  },
});
