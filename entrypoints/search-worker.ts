import { buildPageIndex, searchedWords, searchPages, type SearchWorkerReply, type SearchWorkerRequest } from '@/lib/agents/page-search';
import type { DocsIndex } from '@/lib/agents/search-index';
import { db } from '@/lib/db';

/**
 * The side panel's search (Web Worker): builds the index of a crawl's pages a batch at a time,
 * reading them from IndexedDB itself (the pages never cross into the panel), and answers searches
 * from the last index it finished, so typing is answered while a newer one is built. A newer
 * build request stops an older build at its next batch.
 */
export default defineUnlistedScript(() => {
  let index: { jobId: string; index: DocsIndex } | null = null;
  let current = 0;
  const post = (reply: SearchWorkerReply) => self.postMessage(reply);

  async function build(request: Extract<SearchWorkerRequest, { type: 'build' }>): Promise<void> {
    current = request.build;
    let pages = 0;
    try {
      const built = await buildPageIndex(db, request.jobId, {
        onProgress: ({ indexed, total }) => {
          pages = indexed;
          post({ type: 'progress', build: request.build, indexed, total });
        },
        cancelled: () => current !== request.build,
      });
      if (!built) return;
      index = { jobId: request.jobId, index: built };
      post({ type: 'ready', build: request.build, jobId: request.jobId, pages });
    } catch (error) {
      post({ type: 'failed', build: request.build, message: error instanceof Error ? error.message : String(error) });
    }
  }

  self.addEventListener('message', (event: MessageEvent<SearchWorkerRequest>) => {
    const request = event.data;
    if (request.type === 'build') void build(request);
    else post({ type: 'results', id: request.id, query: request.query, words: searchedWords(request.query), jobId: index?.jobId ?? null, hits: index ? searchPages(index.index, request.query, request.limit) : [] });
  });
});
