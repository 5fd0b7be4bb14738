import { useState } from 'react';
import { parseLlmsTxt } from '@/lib/discovery/parse-llms-txt';
import { checkLinks } from '@/lib/generate/validate';
import { plural } from '../format';
import { browserFetch } from '@/lib/fetch/browser-fetch';
import { createNetworkGuard } from '@/lib/url/private-network';

type Result = Awaited<ReturnType<typeof checkLinks>>[number];

/**
 * The optional broken-link check: every link of the llms.txt, HEAD (or GET when
 * HEAD is refused), a few at a time, with a cap. Runs on the user's click only.
 */
export function LinkCheck({ text, url }: { text: string; url: string }) {
  const [results, setResults] = useState<Result[] | null>(null);
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    const links = parseLlmsTxt(text, url).links.map((l) => l.url);
    // Links into the user's network are listed as not checked, with the reason, and never requested.
    setResults(await checkLinks(links, { fetch: browserFetch, guard: createNetworkGuard(url) }));
    setRunning(false);
  };
  const broken = results?.filter((r) => !r.ok) ?? [];
  return (
    <div className="link-check" data-testid="link-check">
      <button type="button" className="button button--small" onClick={() => void run()} disabled={running}>
        {running ? 'Checking links…' : 'Check links'}
      </button>
      {results && (
        <p className={broken.length ? 'error' : 'muted'} data-testid="link-check-result">
          {broken.length ? `${plural(broken.length, 'broken link')} of ${results.length}` : `All ${plural(results.length, 'link')} answer.`}
        </p>
      )}
      {broken.length > 0 && (
        <ul className="plain-list">
          {broken.map((r) => (
            <li key={r.url}>
              <code>{r.url}</code> <span className="muted">{r.reason ?? `HTTP ${r.status}`}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
