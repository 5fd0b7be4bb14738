import type { PageChange, PageRecord, PageVersionRecord } from '../store/db';
import type { PageOutcome } from '../crawl/processor';
import { similarity } from './similarity';

/** What a refresh does with one re-checked page. */
export interface Decision {
  change: PageChange;
  /** The page as it should be stored now; null leaves the stored page untouched. */
  page: PageRecord | null;
  version: Omit<PageVersionRecord, 'id' | 'jobId' | 'checkedAt'>;
}

/** Statuses that mean the page is gone, not just failing for now. */
const GONE = new Set([404, 410]);

const fixed = (n: number) => n.toFixed(2);

/**
 * Compares a stored page with what its URL answers now. Only "changed enough"
 * outcomes (changed, removed, restored) make new outputs. A minor change keeps
 * the stored page *and its validators*, so the next refresh fetches the page in
 * full and compares it with the same baseline: small edits add up until they
 * cross the threshold instead of drifting through one at a time.
 */
export function decide(stored: PageRecord, outcome: PageOutcome, threshold: number): Decision {
  const base = { crawlJobId: stored.jobId, key: stored.key, url: stored.url, previousFingerprint: stored.contentHash };
  const wasRemoved = stored.state === 'removed';

  if (outcome.state === 'not-modified') {
    return { change: 'unchanged', page: null, version: { ...base, change: 'unchanged', similarity: 1, changedEnough: false, reason: 'Not modified (HTTP 304)' } };
  }
  if (outcome.state !== 'done') {
    if (outcome.status !== undefined && GONE.has(outcome.status)) {
      if (wasRemoved) return { change: 'unchanged', page: null, version: { ...base, change: 'unchanged', changedEnough: false, reason: `Still gone: ${outcome.reason}` } };
      return { change: 'removed', page: { ...stored, state: 'removed' }, version: { ...base, change: 'removed', changedEnough: true, reason: outcome.reason } };
    }
    return { change: 'failed', page: null, version: { ...base, change: 'failed', changedEnough: false, reason: `${outcome.reason} — the stored version is kept` } };
  }

  const fresh = outcome.page;
  const updated: PageRecord = { ...stored, ...fresh, key: stored.key, jobId: stored.jobId, depth: stored.depth, state: 'stored', duplicateOf: undefined, tokens: undefined, fullTokens: undefined, fetchedAt: Date.now() };
  const version = { ...base, fingerprint: fresh.contentHash };
  if (wasRemoved) {
    return { change: 'restored', page: updated, version: { ...version, change: 'restored', changedEnough: true, reason: 'Back online' } };
  }
  if (fresh.contentHash === stored.contentHash) {
    // Same text: keep it, but take the new validators so the next refresh can get a 304.
    const page = fresh.etag !== stored.etag || fresh.lastModified !== stored.lastModified ? { ...stored, etag: fresh.etag, lastModified: fresh.lastModified } : null;
    return { change: 'unchanged', page, version: { ...version, change: 'unchanged', similarity: 1, changedEnough: false, reason: 'Same text' } };
  }
  const score = similarity(stored.markdown, fresh.markdown);
  if (score < threshold) {
    return { change: 'changed', page: updated, version: { ...version, change: 'changed', similarity: score, changedEnough: true, reason: `Similarity ${fixed(score)} < ${fixed(threshold)}` } };
  }
  return { change: 'minor', page: null, version: { ...version, change: 'minor', similarity: score, changedEnough: false, reason: `Minor change: similarity ${fixed(score)} ≥ ${fixed(threshold)}, the stored version is kept` } };
}
