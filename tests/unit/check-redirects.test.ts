import { describe, expect, it } from 'vitest';
import type { CheckInputs, SampledPage } from '../../lib/check/gather';
import { checkRedirects } from '../../lib/check/http-checks';

const page = (html: string, url = 'https://docs.example.com/a'): SampledPage => ({ url, finalUrl: url, html, links: [], twins: [] });
const run = (...pages: SampledPage[]) => checkRedirects({ pages } as unknown as CheckInputs);
const scriptRedirects = (html: string) => run(page(html)).findings.some((f) => f.code === 'script-redirect');

describe('checkRedirects: pages that send readers on by themselves', () => {
  it('finds a meta refresh in any attribute order and quoting, and a script assignment or call', () => {
    expect(scriptRedirects('<head><meta http-equiv="refresh" content="0; url=/b"></head>')).toBe(true);
    expect(scriptRedirects("<meta content='0; url=/b' HTTP-EQUIV=Refresh>")).toBe(true);
    expect(scriptRedirects('<script>window.location = "/b"</script>')).toBe(true);
    expect(scriptRedirects('<script>location.href="/b"</script>')).toBe(true);
    expect(scriptRedirects('<script>location.replace("/b")</script>')).toBe(true);
  });

  it('does not take a comparison, another meta tag or text after a tag for a redirect', () => {
    expect(scriptRedirects('<script>if (location.href == "/b") go()</script>')).toBe(false);
    expect(scriptRedirects('<script>if (document.location===x) go()</script>')).toBe(false);
    expect(scriptRedirects('<meta name="description" content="x"><p>http-equiv="refresh" is how old pages redirect</p>')).toBe(false);
    expect(scriptRedirects('<meta charset="utf-8"><meta name="viewport" content="width=device-width">')).toBe(false);
  });
});
