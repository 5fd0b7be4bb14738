/**
 * The Firefox runtime's conversion lanes: the background page has a DOM of its own and starts the
 * conversion workers itself, so it can end them: a page over the time limit fails alone and its
 * worker is replaced (workerLanes).
 */
import type { ConverterLane } from './conversion-queue';
import type { ConverterPlan } from './converter-plan';
import { workerLanes } from './worker-lanes';
import type { WxtBrowser } from 'wxt/browser';

export function backgroundLanes(browser: WxtBrowser, plan: ConverterPlan): ConverterLane[] {
  return workerLanes(plan.workers, () => new Worker(browser.runtime.getURL('/convert-worker.js')));
}
