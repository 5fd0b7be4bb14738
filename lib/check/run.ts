/**
 * The whole agent-readiness check of a site, from one page: gather the inputs (gather.ts), run
 * every check, count the verdict. The side panel's Check view (through the worker) and
 * `scout check` both call this, so they show the same findings.
 */
import { checkAuthAlternative, checkBotProtection, checkLinksMarkdown, checkSingleFetch } from './access-checks';
import { checkDirectiveHtml, checkDirectiveMd } from './directive';
import { checkAuthGate, checkCache, checkFences, checkNotFound, checkRedirects } from './http-checks';
import { gatherInputs, type CheckInputs, type GatherOptions } from './gather';
import { checkCoverage, checkDescriptions, checkLlmsTxt, checkSize } from './llms-checks';
import { checkAccept, checkAlternate, checkDescribedby, checkParity, checkTwins } from './page-checks';
import { scoreChecks } from './score';
import { checkContentStart, checkEmbeddedData, checkRendering, checkSectionHeaders, checkTabs, checkTransfer } from './shape-checks';
import { checkLinkPortability, checkPageSizeHtml, checkPageSizeMd } from './size-checks';
import { checkLlmsLinks, checkRobots } from './site-checks';
import { CHECK_IDS, type CheckReport, type CheckResult } from './types';

export interface RunCheckOptions extends GatherOptions {
  /** The day the report carries (default today); tests fix it. */
  now?: Date;
}

/** The report from gathered inputs (no requests but the link check). */
export async function checkInputs(inputs: CheckInputs, started = Date.now(), now = new Date()): Promise<CheckReport> {
  const [links, linksMarkdown, singleFetch] = await Promise.all([checkLlmsLinks(inputs), checkLinksMarkdown(inputs), checkSingleFetch(inputs)]);
  const checks: CheckResult[] = [
    checkLlmsTxt(inputs),
    checkSize(inputs),
    links,
    linksMarkdown,
    singleFetch,
    checkRendering(inputs),
    checkTransfer(inputs),
    checkContentStart(inputs),
    checkTabs(inputs),
    checkSectionHeaders(inputs),
    checkEmbeddedData(inputs),
    checkDescriptions(inputs),
    checkCoverage(inputs),
    checkDescribedby(inputs),
    checkDirectiveHtml(inputs),
    checkDirectiveMd(inputs),
    checkAlternate(inputs),
    checkTwins(inputs),
    checkParity(inputs),
    checkAccept(inputs),
    checkRobots(inputs),
    checkFences(inputs),
    checkPageSizeMd(inputs),
    checkPageSizeHtml(inputs),
    checkLinkPortability(inputs),
    checkNotFound(inputs),
    checkRedirects(inputs),
    checkCache(inputs),
    checkAuthGate(inputs),
  ];
  // After every request of the run: bot protection is read off all of them.
  checks.push(checkAuthAlternative(inputs, checks), checkBotProtection(inputs));
  checks.sort((a, b) => CHECK_IDS.indexOf(a.id) - CHECK_IDS.indexOf(b.id));
  const applicable = checks.filter((c) => c.status !== 'na').length;
  const passed = checks.filter((c) => c.status === 'pass').length;
  const findings = checks.flatMap((c) => c.findings);
  const blocking = checks.find((c) => c.id === 'llms-txt')?.status === 'fail' && inputs.llmsFiles.length === 0;
  const lead = blocking ? 'Agents find no llms.txt on this site' : findings.some((f) => f.severity === 'error') ? 'Agents can use this site, but miss parts of it' : 'Agents can use this site';
  return {
    pageUrl: inputs.pageUrl,
    origin: inputs.origin,
    date: now.toISOString().slice(0, 10),
    sampled: inputs.pages.map((p) => p.finalUrl),
    known: new Set([...inputs.sitemapUrls, ...inputs.crawledUrls]).size,
    crawled: inputs.crawledUrls.length,
    checks,
    passed,
    applicable,
    verdict: `${lead}: ${passed} of ${applicable} checks pass`,
    findings,
    score: scoreChecks(checks, Math.max(0, ...inputs.llmsFiles.map((f) => f.text.length))),
    ms: Date.now() - started,
  };
}

/** Discovery, the sample, every check. Never throws for a site's faults. */
export async function runSiteCheck(options: RunCheckOptions): Promise<{ report: CheckReport; inputs: CheckInputs }> {
  const started = Date.now();
  const inputs = await gatherInputs(options);
  options.onProgress?.('Checking links and twins…');
  return { report: await checkInputs(inputs, started, options.now), inputs };
}
