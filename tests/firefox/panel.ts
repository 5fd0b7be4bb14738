import type { Page } from 'puppeteer-core';
import { rowsInPage } from '../e2e/extension-db';

/**
 * Small waits and reads for Scout's panel in Firefox. Puppeteer over BiDi has no
 * auto-waiting assertions like Playwright's, so each helper polls the page and
 * says in its error what it waited for and what the element showed instead.
 */

/** The text of the first element matching `selector`, or null when there is none. */
export function textOf(page: Page, selector: string): Promise<string | null> {
  return page.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector);
}

/** Waits until the element's text matches `pattern`; returns that text. */
export async function waitForText(page: Page, selector: string, pattern: RegExp, timeout = 15_000): Promise<string> {
  try {
    await page.waitForFunction((s, source, flags) => new RegExp(source, flags).test(document.querySelector(s)?.textContent ?? ''), { timeout, polling: 100 }, selector, pattern.source, pattern.flags);
  } catch {
    throw new Error(`${selector} never matched ${pattern} within ${timeout} ms; it shows: ${JSON.stringify(await textOf(page, selector))}`);
  }
  return (await textOf(page, selector)) ?? '';
}

/** Waits until an attribute of the element has `value` (e.g. a crawl's data-state). */
export async function waitForAttribute(page: Page, selector: string, name: string, value: string, timeout = 15_000): Promise<void> {
  try {
    await page.waitForFunction((s, n, v) => document.querySelector(s)?.getAttribute(n) === v, { timeout, polling: 100 }, selector, name, value);
  } catch {
    const now = await page.evaluate((s, n) => document.querySelector(s)?.getAttribute(n) ?? null, selector, name);
    throw new Error(`${selector}[${name}] never became ${JSON.stringify(value)} within ${timeout} ms; it is ${JSON.stringify(now)}`);
  }
}

/**
 * Clicks like a person: puppeteer sends real input events over BiDi, which is what
 * Firefox needs before `permissions.request()` may run ("only from a user input handler").
 */
export async function click(page: Page, selector: string, timeout = 15_000): Promise<void> {
  const handle = await page.waitForSelector(`${selector}:not([disabled])`, { visible: true, timeout });
  if (!handle) throw new Error(`${selector} not found`);
  await handle.click();
  await handle.dispose();
}

/** The stored-pages count of the crawl on screen ("12 / 500" → 12). */
export async function storedCount(page: Page): Promise<number> {
  return Number((await textOf(page, '[data-testid=count-stored]'))?.split('/')[0]?.replace(/\D/g, '') ?? NaN);
}

/** Polls `read` until `ok` holds for its value; returns that value. */
export async function waitUntil<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeout = 15_000): Promise<T> {
  const end = Date.now() + timeout;
  let value = await read();
  while (!ok(value)) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeout} ms waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

/** Every row of one store of the extension's IndexedDB, read from the panel (an extension page). */
export function readStore<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(rowsInPage, store) as Promise<T[]>;
}
