/**
 * The checks that ask the site again: the llms.txt links that fail (the Output tab's link check,
 * lib/generate/check-links.ts), and the robots.txt rules that keep agents from the llms files.
 */
import { parseLlmsTxt } from '../discovery/parse-llms-txt';
import { parseRobots } from '../discovery/robots';
import { checkLinks } from '../generate/check-links';
import { createNetworkGuard } from '../url/private-network';
import { isSameSite } from '../url/site';
import type { CheckInputs } from './gather';
import { count, n, pathOf, resultOf } from './result';
import type { CheckFinding, CheckResult } from './types';

/** Distinct links checked at most, across every llms.txt: a check must stay polite on big sites. */
export const LINK_LIMIT = 200;
/** Failed links listed one by one; the rest are counted in one more finding. */
const MAX_LISTED = 10;

/**
 * The same-site links of every llms.txt, HEAD first. Links to other sites are left alone: the
 * extension may only request the site it was allowed on, and their owners are not this site's.
 */
export async function checkLlmsLinks(inputs: CheckInputs): Promise<CheckResult> {
  const host = new URL(inputs.pageUrl).hostname;
  const where = new Map<string, { file: string; line: number }>();
  let other = 0;
  for (const file of inputs.llmsFiles) {
    const parsed = parseLlmsTxt(file.text, file.url);
    for (const link of [...parsed.links, ...parsed.detailLinks]) {
      const url = link.url.split('#')[0] ?? link.url;
      let sameSite = false;
      try {
        const target = new URL(url);
        sameSite = (target.protocol === 'http:' || target.protocol === 'https:') && isSameSite(target.hostname, host);
      } catch {
        // the validator reports unusable links
      }
      if (!sameSite) other++;
      else if (!where.has(url)) where.set(url, { file: file.url, line: link.line });
    }
  }
  const urls = [...where.keys()];
  if (!urls.length) return resultOf('links', inputs.llmsFiles.length ? 'No same-site links to check.' : 'No llms.txt to read.', [], true);
  const results = await checkLinks(urls, { fetch: inputs.fetch, concurrency: 4, timeoutMs: 8000, limit: LINK_LIMIT, guard: createNetworkGuard(inputs.pageUrl) });
  const failed = results.filter((r) => !r.ok && !r.reason?.startsWith('Not checked'));
  const findings: CheckFinding[] = failed.slice(0, MAX_LISTED).map((r) => {
    const at = where.get(r.url);
    return {
      check: 'links', severity: 'error', code: 'link-fails', url: r.url, line: at?.line, figure: r.status ? `HTTP ${r.status}` : 'no answer',
      message: `${at ? `${pathOf(at.file)} line ${at.line}` : 'An llms.txt'} links ${pathOf(r.url)}: ${r.reason ?? 'it fails'}`,
      fix: 'Point the entry at the page’s current address, or drop it.',
    };
  });
  if (failed.length > MAX_LISTED) {
    findings.push({ check: 'links', severity: 'error', code: 'more-links-fail', figure: count(failed.length - MAX_LISTED, 'more link'), message: `${count(failed.length - MAX_LISTED, 'more link')} fail as well.`, fix: 'Regenerate the llms.txt from a fresh crawl.' });
  }
  const skipped = Math.max(0, urls.length - LINK_LIMIT);
  // Links the network guard refused (into the user's own network, directly or by a redirect): never requested, and said so.
  const refused = results.filter((r) => !r.ok && r.reason?.startsWith('Not checked: ') && !r.reason.includes(' only the first '));
  const refusedNote = refused[0]?.reason ? `${n(refused.length)} not checked: ${refused[0].reason.slice('Not checked: '.length).replace(/\.$/, '')}${refused.length > 1 ? ', and the like' : ''}` : '';
  const notes = [skipped ? `${n(skipped)} not checked (limit ${n(LINK_LIMIT)})` : '', refusedNote, other ? `${n(other)} to other sites not checked` : ''].filter(Boolean).join('; ');
  const answered = Math.min(urls.length, LINK_LIMIT) - failed.length - refused.length;
  // As AFDocs grades it: every link answers to pass, more than nine in ten to warn.
  const rate = answered + failed.length > 0 ? answered / (answered + failed.length) : 1;
  const grade = !failed.length ? 'pass' : rate > 0.9 ? 'warn' : 'fail';
  return resultOf('links', `${n(answered)} of ${count(Math.min(urls.length, LINK_LIMIT), 'link')} answer${notes ? ` (${notes})` : ''}.`, findings, false, grade, rate);
}

/** Crawlers of AI products, by their robots.txt tokens, besides `*`. */
export const AGENT_TOKENS = ['GPTBot', 'ChatGPT-User', 'OAI-SearchBot', 'ClaudeBot', 'Claude-User', 'Claude-SearchBot', 'PerplexityBot', 'Perplexity-User', 'Google-Extended', 'Applebot-Extended', 'CCBot'];

/** robots.txt rules that block an llms file for every crawler (`*`) or for a named agent. */
export function checkRobots(inputs: CheckInputs): CheckResult {
  if (!inputs.robots) return resultOf('robots', 'No robots.txt: nothing blocks the llms files.', []);
  const robots = parseRobots(inputs.robots.url, inputs.robots.text);
  const files = [...new Set([`${inputs.origin}/llms.txt`, ...inputs.llmsFiles.map((f) => f.url), ...inputs.discovery.results.filter((r) => r.status === 'found' && r.kind === 'llms-full').map((r) => r.url)])];
  const findings: CheckFinding[] = [];
  for (const url of files) {
    const blocked = ['*', ...AGENT_TOKENS].filter((agent) => !robots.isAllowed(url, agent));
    if (!blocked.length) continue;
    const all = blocked.includes('*');
    findings.push({
      check: 'robots', severity: all ? 'error' : 'warning', code: all ? 'robots-blocks-all' : 'robots-blocks-agents', url: inputs.robots.url,
      figure: blocked.join(', '),
      message: `robots.txt keeps ${all ? 'every crawler' : blocked.join(', ')} from ${pathOf(url)}.`,
      fix: `Add “Allow: ${pathOf(url)}” to the ${all ? '“User-agent: *”' : 'agents’'} group${all ? '' : 's'} in robots.txt.`,
    });
  }
  return resultOf('robots', `${pathOf(inputs.robots.url)} read; ${count(files.length, 'llms file')} tested for ${n(AGENT_TOKENS.length + 1)} user agents.`, findings);
}
