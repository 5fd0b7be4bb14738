import type { DiscoveryResult } from '../store/records/discovery';

/** Stored per location (`discovered` rows), so the store holds their shape (lib/store/records/discovery.ts). */
export type { DiscoveredKind, DiscoveryResult, DiscoverySource } from '../store/records/discovery';

export interface DiscoverySummary {
  results: DiscoveryResult[];
  bestUrl?: string;
  /** Same-site linked llms files left unfetched because the cap was reached. */
  overCap: number;
  /** Locations looked at but not reported, past the limit of results per discovery. */
  unlisted: number;
  ms: number;
}
