/**
 * llms-full.txt read back into its pages: the renderer writes each page as `## title`, a
 * `Source: url` line, a blank line and the page's body (its headings demoted below H2), so a page
 * starts at an H2 line followed directly by a Source line. A `## x` inside a fenced code block of
 * a body is not followed by `Source:` and stays in the body.
 */

export interface FullPageBody {
  title: string;
  url: string;
  body: string;
}

export function splitLlmsFull(text: string): FullPageBody[] {
  const lines = text.split('\n');
  const out: FullPageBody[] = [];
  let current: { title: string; url: string; lines: string[] } | null = null;
  const flush = () => {
    if (current) out.push({ title: current.title, url: current.url, body: current.lines.join('\n').trim() });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const source = /^Source: (\S+)\s*$/.exec(lines[i + 1] ?? '');
    if (line.startsWith('## ') && source) {
      flush();
      current = { title: line.slice(3).trim(), url: source[1] ?? '', lines: [] };
      i += 1;
      continue;
    }
    current?.lines.push(line);
  }
  flush();
  return out;
}
