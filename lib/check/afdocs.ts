/** AFDocs' categories and checks (afdocs 0.22.2), which Scout's score is weighed by: see docs/check.md. */
import type { AfdocsId, CategoryId } from '../store/records/check';

export type { AfdocsId, CategoryId };

export const CATEGORIES = [
  { id: 'content-discoverability', name: 'Content discoverability' },
  { id: 'markdown-availability', name: 'Markdown availability' },
  { id: 'page-size', name: 'Page size and truncation risk' },
  { id: 'content-structure', name: 'Content structure' },
  { id: 'url-stability', name: 'URL stability and redirects' },
  { id: 'observability', name: 'Observability and content health' },
  { id: 'authentication', name: 'Authentication and access' },
] as const satisfies ReadonlyArray<{ id: CategoryId; name: string }>;

export type Tier = 'critical' | 'high' | 'medium' | 'low';
export const TIER_WEIGHT: Record<Tier, number> = { critical: 10, high: 7, medium: 4, low: 2 };

/** Every AFDocs check (afdocs 0.22.2): its category, weight tier and the credit a warn earns. */
export const AFDOCS_CHECKS = {
  'llms-txt-exists': { category: 'content-discoverability', tier: 'critical', warn: 0.5 },
  'llms-txt-valid': { category: 'content-discoverability', tier: 'medium', warn: 0.75 },
  'llms-txt-size': { category: 'content-discoverability', tier: 'high', warn: 0.5 },
  'llms-txt-links-resolve': { category: 'content-discoverability', tier: 'high', warn: 0.75 },
  'llms-txt-links-markdown': { category: 'content-discoverability', tier: 'high', warn: 0.25 },
  'llms-txt-directive-html': { category: 'content-discoverability', tier: 'high', warn: 0.6 },
  'llms-txt-directive-md': { category: 'content-discoverability', tier: 'medium', warn: 0.6 },
  'markdown-url-support': { category: 'markdown-availability', tier: 'high', warn: 0.5 },
  'content-negotiation': { category: 'markdown-availability', tier: 'medium', warn: 0.75 },
  'rendering-strategy': { category: 'page-size', tier: 'critical', warn: 0.5 },
  'page-size-markdown': { category: 'page-size', tier: 'high', warn: 0.5 },
  'page-size-html': { category: 'page-size', tier: 'high', warn: 0.5 },
  'page-size-transfer': { category: 'page-size', tier: 'medium', warn: 0.5 },
  'single-fetch-completeness': { category: 'page-size', tier: 'medium', warn: 0.6 },
  'content-start-position': { category: 'page-size', tier: 'medium', warn: 0.5 },
  'tabbed-content-serialization': { category: 'content-structure', tier: 'medium', warn: 0.5 },
  'section-header-quality': { category: 'content-structure', tier: 'low', warn: 0.5 },
  'markdown-code-fence-validity': { category: 'content-structure', tier: 'medium', warn: 0.5 },
  'markdown-link-portability': { category: 'content-structure', tier: 'medium', warn: 0.6 },
  'embedded-data-serialization': { category: 'content-structure', tier: 'medium', warn: 0.5 },
  'http-status-codes': { category: 'url-stability', tier: 'high', warn: 0.5 },
  'redirect-behavior': { category: 'url-stability', tier: 'medium', warn: 0.6 },
  'llms-txt-coverage': { category: 'observability', tier: 'medium', warn: 0.75 },
  'markdown-content-parity': { category: 'observability', tier: 'medium', warn: 0.75 },
  'cache-header-hygiene': { category: 'observability', tier: 'low', warn: 0.5 },
  'auth-gate-detection': { category: 'authentication', tier: 'critical', warn: 0.5 },
  'auth-alternative-access': { category: 'authentication', tier: 'medium', warn: 0.5 },
  'bot-protection-interference': { category: 'authentication', tier: 'high', warn: 0.5 },
} as const satisfies Record<AfdocsId, { category: CategoryId; tier: Tier; warn: number }>;
