import { statusReason } from './status';

/** What discovery, the crawler and the check need from a response to judge whether a file really exists. */
export interface ResponseFacts {
  status: number;
  contentType: string;
  text: string;
}

const HTML_START = /^\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i;

/** How much of a body {@link looksLikeHtml} reads: a caller may decode only this many characters for it. */
export const LOOKS_LIKE_HTML_CHARS = 1024;

/** True when a text body begins like an HTML document, whatever its content type said. */
export function looksLikeHtml(text: string): boolean {
  return HTML_START.test(text.slice(0, LOOKS_LIKE_HTML_CHARS));
}

/**
 * Why a response for a text file (llms.txt, robots.txt, a .md twin) does not
 * count as that file, or null when it does. Many sites answer every path with
 * 200 and their HTML "not found" page (soft 404s), so status alone is not enough.
 */
export function notFoundReason(res: ResponseFacts): string | null {
  const status = statusReason(res.status);
  if (status) return status;
  if (res.contentType.includes('text/html') || res.contentType.includes('application/xhtml')) {
    return 'The server answered with an HTML page, not a text file (probably its “not found” page)';
  }
  if (res.text.trim() === '') return 'The file is empty';
  if (looksLikeHtml(res.text)) return 'An HTML document served as text (probably a “not found” page)';
  return null;
}
