import { useState } from 'react';
import type { Snippets } from '@/lib/check/snippets';

const LABELS: Array<[keyof Snippets, string]> = [
  ['html', 'Page template <head>'],
  ['directive', 'Page template: the llms.txt directive'],
  ['nginx', 'nginx'],
  ['apache', 'Apache'],
  ['netlify', 'Netlify _headers'],
  ['vercel', 'Vercel vercel.json'],
];

/** Each snippet with a copy button. */
export function SnippetsList({ snippets }: { snippets: Snippets }) {
  const [copied, setCopied] = useState<keyof Snippets | null>(null);
  const copy = async (key: keyof Snippets) => {
    await navigator.clipboard.writeText(snippets[key]);
    setCopied(key);
  };
  return (
    <div className="check" data-testid="snippets">
      {LABELS.map(([key, label]) => (
        <div key={key} className="snippet" data-testid="snippet" data-snippet={key}>
          <div className="snippet__head">
            <strong>{label}</strong>
            <button type="button" className="button button--small" onClick={() => void copy(key)} data-testid={`copy-${key}`}>{copied === key ? 'Copied' : 'Copy'}</button>
          </div>
          <pre className="raw">{snippets[key]}</pre>
        </div>
      ))}
    </div>
  );
}
