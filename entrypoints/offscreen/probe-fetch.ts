/** Test builds only (worker-probe.ts): a fetch as Scout's crawl makes it, and what it got, or the error in words. */
export async function probeFetch(url: string, redirect: RequestRedirect) {
  try {
    const res = await fetch(url, { credentials: 'include', redirect, cache: 'no-store' });
    return { ok: true, status: res.status, type: res.type, body: res.type === 'opaqueredirect' ? '' : await res.text() };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}
