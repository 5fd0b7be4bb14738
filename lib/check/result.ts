/** Small helpers the checks share: a check's result from its findings, counts in words. */
import { CHECK_TITLES, type CheckFinding, type CheckId, type CheckResult, type Grade } from './types';

/**
 * A check fails on an error and warns on a warning; infos are advice. `na` when there was nothing
 * to look at. `grade` overrides that for checks graded by a share of pages (the directive, twins).
 */
export function resultOf(id: CheckId, summary: string, findings: CheckFinding[], na = false, grade?: Grade, proportion?: number): CheckResult {
  const fromFindings: Grade = findings.some((f) => f.severity === 'error') ? 'fail' : findings.some((f) => f.severity === 'warning') ? 'warn' : 'pass';
  const status = grade ?? (na && fromFindings === 'pass' ? 'na' : fromFindings);
  return { id, title: CHECK_TITLES[id], status, summary, findings, ...(proportion !== undefined && status !== 'na' ? { proportion } : {}) };
}

export const n = (value: number): string => value.toLocaleString('en');
export const count = (value: number, word: string, plural = `${word}s`): string => `${n(value)} ${value === 1 ? word : plural}`;

/** A URL's path (and query) for messages: the host is the site's. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** Runs `work` over `items`, `limit` at a time, results in input order. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return out;
}
