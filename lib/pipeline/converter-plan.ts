/**
 * Where a crawl's pages convert in the browser: how many conversion workers (linkedom + turndown
 * in Web Workers), whether the offscreen document's native DOMParser takes pages too, and whether
 * the crawl's own thread (the service worker, with linkedom) does.
 */
export interface ConverterPlan {
  workers: number;
  native: boolean;
  local: boolean;
}

/**
 * As many conversion workers as cores, at least two. The native parser in the offscreen document is
 * not in the default plan: it parses faster, but every later step costs more on the browser's DOM
 * (Blink's bindings, then its garbage collector), so in a crawl a page converted there costs more CPU
 * than a page converted by a worker. Measured on the Python docs, 2 cores, quiet machine, 3 runs each,
 * interleaved (bench/crawl.ts --converters 1w+native,2w): all-Chromium CPU 101.7 → 91.9 ms a page,
 * wall 29.5 → 27.3 s (median), two workers faster in each pair. The converting threads stay as many
 * as before (one worker replaces the native lane); `native` stays for the benchmark's plans.
 */
export function defaultPlan(hardwareConcurrency: number | undefined): ConverterPlan {
  return { workers: Math.max(2, Math.floor(hardwareConcurrency ?? 2)), native: false, local: false };
}

/** The name the offscreen document gives its native parser's lane: the service worker limits that lane by it. */
export const NATIVE_LANE = 'native';

/** Pages converted at once under the plan: the runner's backpressure is sized from it. */
export function planCapacity(plan: ConverterPlan): number {
  return Math.max(1, plan.workers + (plan.native ? 1 : 0) + (plan.local ? 1 : 0));
}

/**
 * A plan written as the benchmark's --converters takes it: `2w+native+sw` = two workers, the
 * native parser and linkedom in the service worker; `sw` alone is the worker-only baseline.
 * Anything else is refused with what is expected.
 */
export function parsePlan(spec: string): ConverterPlan {
  const plan: ConverterPlan = { workers: 0, native: false, local: false };
  for (const part of spec.split('+').map((p) => p.trim())) {
    const workers = /^(\d+)w$/.exec(part);
    if (workers) plan.workers = Number(workers[1]);
    else if (part === 'native') plan.native = true;
    else if (part === 'sw') plan.local = true;
    else throw new Error(`Unknown converter "${part}" in "${spec}": expected Nw (N workers), native or sw, joined by +`);
  }
  if (planCapacity(plan) === 0 || (!plan.workers && !plan.native && !plan.local)) throw new Error(`"${spec}" names no converter`);
  return plan;
}

/** The plan in the same words, for logs and results. */
export function planName(plan: ConverterPlan): string {
  return [plan.workers ? `${plan.workers}w` : '', plan.native ? 'native' : '', plan.local ? 'sw' : ''].filter(Boolean).join('+');
}
