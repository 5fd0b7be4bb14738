import { nativeDomAdapter } from '@/lib/convert/dom';
import { createLocalProcessor } from '@/lib/crawl/processor';
import { onMessage } from '@/lib/messaging';

// The offscreen document has what the worker lacks: the browser's own HTML parser,
// and a thread of its own. The worker sends it pages to fetch and convert.
const dom = nativeDomAdapter();
if (dom) {
  const process = createLocalProcessor((input, init) => fetch(input, init), dom);
  onMessage('processPage', ({ data }) => process(data));
}
