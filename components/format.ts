export { formatBytes, plural } from '@/lib/format';

/** A URL shown relative to the site when it is on it: /docs/llms.txt rather than the full address. */
export function shortUrl(url: string, origin: string): string {
  return url.startsWith(`${origin}/`) ? url.slice(origin.length) : url.replace(/^https?:\/\//, '');
}
