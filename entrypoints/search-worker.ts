import { serveSearch, type SearchWorkerRequest } from '@/lib/agents/page-search';
import { db } from '@/lib/store/db';

/**
 * The side panel's search (Web Worker): builds the index of a crawl's pages a batch at a time,
 * reading them from IndexedDB itself (the pages never cross into the panel), and answers searches
 * (lib/agents/page-search.ts `serveSearch`).
 */
export default defineUnlistedScript(() => {
  const serve = serveSearch(db, (reply) => self.postMessage(reply));
  self.addEventListener('message', (event: MessageEvent<SearchWorkerRequest>) => serve(event.data));
});
