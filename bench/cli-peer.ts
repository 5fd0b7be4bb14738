/**
 * The peer bench/cli.ts measures the CLI against: what a user could write instead of `scout
 * generate` — crawlee's CheerioCrawler fetching the site from a start URL (same-origin links only,
 * the same page limit, the same fixed concurrency) and turndown converting each page's HTML to
 * Markdown, written to one file per page. Nothing else: no discovery, no main-content extraction,
 * no llms.txt. Run by bench/cli.ts in its own process (bundled first, so no TypeScript transform
 * is measured); prints one JSON line with the pages written.
 *
 *   node <bundle> <start url> <out dir> <max pages> <concurrency>
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheerioCrawler, Configuration, LogLevel, log } from '@crawlee/cheerio';
import TurndownService from 'turndown';

const [start, out, maxPagesArg, concurrencyArg] = process.argv.slice(2);
if (!start || !out || !maxPagesArg || !concurrencyArg) {
  process.stderr.write('usage: cli-peer <start url> <out dir> <max pages> <concurrency>\n');
  process.exit(2);
}
const maxPages = Number(maxPagesArg);
const concurrency = Number(concurrencyArg);
log.setLevel(LogLevel.WARNING);
mkdirSync(out, { recursive: true });

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
let pages = 0;
let failed = 0;
const crawler = new CheerioCrawler(
  {
    // Fixed, as Scout's per-host concurrency is: crawlee's autoscaling would otherwise scale down on a loaded machine.
    minConcurrency: concurrency,
    maxConcurrency: concurrency,
    maxRequestsPerCrawl: maxPages,
    maxRequestRetries: 1,
    async requestHandler({ request, body, enqueueLinks }) {
      const markdown = turndown.turndown(typeof body === 'string' ? body : body.toString('utf8'));
      const url = new URL(request.loadedUrl ?? request.url);
      // One flat file per page, named by its path: no folders to create, no name that climbs out of `out`.
      writeFileSync(join(out, `${encodeURIComponent(url.pathname + url.search)}.md`), markdown);
      pages++;
      await enqueueLinks({ strategy: 'same-origin' });
    },
    failedRequestHandler() {
      failed++;
    },
  },
  // The request queue in memory, not under ./storage: nothing left behind, no disk work Scout does not do.
  new Configuration({ persistStorage: false }),
);
await crawler.run([start]);
process.stdout.write(`${JSON.stringify({ pages, failed })}\n`);
