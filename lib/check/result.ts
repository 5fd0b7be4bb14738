/** Small helpers the checks share: a check's result from its findings, counts in words. */
import { CHECK_TITLES, type CheckFinding, type CheckId, type CheckResult } from './types';

/** A check fails on any error or warning; infos are advice. `na` when there was nothing to look at. */
export function resultOf(id: CheckId, summary: string, findings: CheckFinding[], na = false): CheckResult {
  const fails = findings.some((f) => f.severity !== 'info');
  return { id, title: CHECK_TITLES[id], status: na && !fails ? 'na' : fails ? 'fail' : 'pass', summary, findings };
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
