/**
 * Where conversion's time goes, step by step, in Node with linkedom (the parser of the service
 * worker and of conversion workers): every page of a corpus through the steps of convertHtml,
 * each step's CPU time alone, then the whole convertHtml per page (the figure that counts; the
 * steps add a timer call each), as CPU time and wall time. Median of --runs passes, after one
 * warm-up pass. CPU time includes V8's helper threads (GC).
 *
 * In Node, linkedom runs unpatched unless the extension bundle's patches are loaded too:
 * `node --import tsx --import ./bench/linkedom-patched.mjs bench/profile.ts --node …` (see that file).
 *
 * `--lib <dir>` loads the steps from another checkout's lib/ (a worktree of an older commit), so
 * the same script measures before and after; `--pair <dir>` runs both, interleaved pass by pass.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { corpora, htmlFilesOf } from './harness';

type Step = { name: string; ms: number[] };

/** The steps of convertHtml (lib/convert/convert-page.ts), loaded from one lib/ directory. */
async function loadPipeline(lib: string) {
  const m = (path: string) => import(resolve(lib, path)) as Promise<Record<string, (...args: never[]) => unknown>>;
  const [dom, clean, links, main, markdown, metadata, nav, text, page] = await Promise.all(
    ['convert/dom.ts', 'convert/clean.ts', 'convert/document-links.ts', 'convert/main-content.ts', 'convert/markdown.ts', 'convert/metadata.ts', 'convert/nav-links.ts', 'convert/page-text.ts', 'convert/convert-page.ts'].map(m),
  );
  // The modules' own types are checked where they are used; here each is called as convertHtml does.
  const call = (mod: Record<string, unknown> | undefined, name: string) => mod?.[name] as ((...args: unknown[]) => unknown) | undefined;
  const adapter = (dom as Record<string, unknown>).linkedomAdapter as { parse(html: string): Document };
  const steps = {
    parse: (html: string) => adapter.parse(html),
    head: call(metadata, 'readHeadMetadata'),
    prune: call(clean, 'pruneNonText'),
    links: call(links, 'collectLinks'),
    nav: call(nav, 'findNavLinks'),
    main: call(main, 'findMainContent'),
    clean: call(clean, 'cleanContent'),
    firstHeading: call(text, 'firstHeading'),
    summary: call(text, 'summaryParagraph'),
    markdown: call(markdown, 'elementToMarkdown'),
    convertHtml: call(page, 'convertHtml'),
  };
  return { steps, adapter };
}

function pagesOf(dir: string): Array<{ url: string; html: string }> {
  const files = htmlFilesOf(dir);
  return files.map((f) => ({ url: `https://docs.example.test${f.slice(dir.length)}`, html: readFileSync(f, 'utf8') }));
}

/** One pass over the pages, step by step; adds each step's ms per page to `into`. */
function stepPass(pipeline: Awaited<ReturnType<typeof loadPipeline>>, pages: Array<{ url: string; html: string }>, into: Map<string, number>): void {
  const { steps } = pipeline;
  const add = (name: string, ms: number) => into.set(name, (into.get(name) ?? 0) + ms / pages.length);
  // CPU time, not wall time: on a shared machine a step's wall time counts other processes' turns.
  const time = <T>(name: string, run: () => T): T => {
    const started = process.cpuUsage();
    const result = run();
    const used = process.cpuUsage(started);
    add(name, (used.user + used.system) / 1000);
    return result;
  };
  for (const { url, html } of pages) {
    const document = time('parse', () => steps.parse(html));
    const body = document.body;
    const head = time('head', () => steps.head?.(document, url)) as { baseUrl: string | undefined };
    time('prune', () => steps.prune?.(document.documentElement));
    // Since 66c5423 the steps share one href cache per page, as convertHtml passes it; older libs ignore it.
    const hrefs = new Map<string, string | undefined>();
    time('links', () => steps.links?.(document, head.baseUrl, hrefs));
    time('nav', () => steps.nav?.(body, head.baseUrl, hrefs));
    const main = time('main', () => steps.main?.(body)) as Element;
    const cleaned = time('clean', () => steps.clean?.(main, head.baseUrl, hrefs)) as { topHeading: number };
    time('text', () => {
      steps.firstHeading?.(main);
      steps.summary?.(main);
    });
    time('markdown', () => steps.markdown?.(main, cleaned.topHeading));
  }
}

/** One pass of the real convertHtml over the pages: wall and CPU ms per page. */
function wholePass(pipeline: Awaited<ReturnType<typeof loadPipeline>>, pages: Array<{ url: string; html: string }>, into: Map<string, number>): void {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const { url, html } of pages) pipeline.steps.convertHtml?.(html, url, pipeline.adapter);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  into.set('convertHtml', (into.get('convertHtml') ?? 0) + (used.user + used.system) / 1000 / pages.length);
  into.set('convertHtml (wall)', (into.get('convertHtml (wall)') ?? 0) + wall / pages.length);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? (s[(s.length - 1) / 2] ?? NaN) : ((s[s.length / 2 - 1] ?? NaN) + (s[s.length / 2] ?? NaN)) / 2;
};

/** Per-step ms/page for each corpus and each lib (label → dir), passes interleaved across libs. */
export async function profileSteps(corpusNames: string[], libs: Record<string, string>, runs: number, limit = Number.POSITIVE_INFINITY): Promise<Record<string, Record<string, Record<string, number>>>> {
  const pipelines = Object.fromEntries(await Promise.all(Object.entries(libs).map(async ([label, dir]) => [label, await loadPipeline(dir)] as const)));
  const all = corpora();
  const results: Record<string, Record<string, Record<string, number>>> = {};
  for (const name of corpusNames) {
    const dirFn = all[name]?.dir;
    if (!dirFn) throw new Error(`Corpus ${name} has no files on disk; use python or node.`);
    const pages = pagesOf(dirFn()).slice(0, limit);
    const perLib: Record<string, Step[]> = {};
    for (let run = -1; run < runs; run++) {
      for (const [label, pipeline] of Object.entries(pipelines)) {
        const pass = new Map<string, number>();
        stepPass(pipeline, pages, pass);
        wholePass(pipeline, pages, pass);
        if (run < 0) continue; // warm-up: JIT and caches
        const steps = (perLib[label] ??= []);
        for (const [step, ms] of pass) {
          const entry = steps.find((s) => s.name === step) ?? (steps.push({ name: step, ms: [] }), steps[steps.length - 1]);
          entry?.ms.push(ms);
        }
      }
    }
    const byLib: Record<string, Record<string, number>> = (results[name] = {});
    const labels = Object.keys(pipelines);
    console.log(`\n${name}: ${pages.length} pages, CPU ms per page (median of ${runs} passes, linkedom, Node ${process.version})`);
    console.log(`| step | ${labels.join(' | ')} |\n|---|${labels.map(() => '---:|').join('')}`);
    const stepNames = [...new Set(labels.flatMap((l) => (perLib[l] ?? []).map((s) => s.name)))];
    for (const step of stepNames) {
      const cells = labels.map((l) => {
        const m = median(perLib[l]?.find((s) => s.name === step)?.ms ?? []);
        (byLib[l] ??= {})[step] = Number(m.toFixed(2));
        return m.toFixed(2);
      });
      console.log(`| ${step} | ${cells.join(' | ')} |`);
    }
    // The steps after parsing, summed within the step pass: what turndown and our passes cost.
    const afterParse = (l: string) => Object.entries(byLib[l] ?? {}).reduce((sum, [step, ms]) => (step === 'parse' || step.startsWith('convertHtml') ? sum : sum + ms), 0);
    // Summed once per lib, before the sum is stored beside the steps (summing again would count it too).
    const sums = labels.map((l) => afterParse(l));
    labels.forEach((l, i) => ((byLib[l] ??= {}).stepsAfterParse = Number((sums[i] ?? NaN).toFixed(2))));
    console.log(`| steps after parse (sum) | ${sums.map((n) => n.toFixed(2)).join(' | ')} |`);
  }
  return results;
}
