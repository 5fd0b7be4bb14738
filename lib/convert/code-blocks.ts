/**
 * Code blocks: the language a docs generator recorded, and the code text itself. Highlighters
 * wrap every token in a span (Sphinx, Prism, highlight.js), so the text is taken whole from the
 * DOM, never converted span by span, and never Markdown-escaped.
 */
import { classOf, namesOf, tagOf, walkElements } from './walk';

/** Attribute that carries the detected language from the cleaning step to the Markdown rule. */
export const LANGUAGE_ATTRIBUTE = 'data-md-lang';

const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/i;
// GitHub names grammars by TextMate scope: highlight-source-js, highlight-text-html-basic.
const GITHUB_CLASS = /(?:^|\s)highlight-(?:source|text)-([\w+#]+)/i;
// Sphinx: <div class="highlight-python3 notranslate"><div class="highlight"><pre>.
const SPHINX_CLASS = /(?:^|\s)highlight-([\w+#.-]+)/i;
const BRUSH_CLASS = /brush:\s*([\w+#-]+)/i;
const NO_LANGUAGE = new Set(['none', 'nohighlight', 'no-highlight', 'plain', 'plaintext']);
// Line numbers and copy buttons live inside <pre> in some themes; their text is not code.
const CODE_CHROME = /(?:^|[\s_-])(?:linenos?|line-?numbers?-rows|hljs-ln-numbers|copy-?(?:button|btn|code)|copybutton|clipboard\S*)(?:$|[\s_-])/;

function languageOf(element: Element): string | undefined {
  const data = element.getAttribute('data-lang') ?? element.getAttribute('data-language');
  if (data?.trim()) return data.trim();
  const cls = classOf(element);
  if (!cls) return undefined;
  const match = LANGUAGE_CLASS.exec(cls) ?? GITHUB_CLASS.exec(cls) ?? BRUSH_CLASS.exec(cls);
  if (match?.[1]) return match[1];
  const sphinx = SPHINX_CLASS.exec(cls)?.[1];
  // Sphinx's "default" lexer is Python 3 with a silent fallback to plain text.
  if (sphinx) return sphinx.toLowerCase() === 'default' ? 'python' : sphinx;
  // Pandoc: <pre class="sourceCode python">.
  const tokens = cls.split(/\s+/);
  if (tokens.includes('sourceCode')) return tokens.find((t) => t && t !== 'sourceCode' && t !== 'numberSource');
  return undefined;
}

// How far up a code block's wrappers are read for its language: MkDocs with line numbers puts it
// on div.language-python > table > tbody > tr > td.code > div > pre.
const MAX_WRAPPER_DEPTH = 6;
const MAX_WRAPPER_CHILDREN = 3;

/** The `<code>` of a `<pre>`: its first element, or after an empty span (MkDocs: `<pre><span></span><code>`). */
function codeOf(pre: Element): Element | null {
  for (let child = pre.firstElementChild; child; child = child.nextElementSibling) {
    if (tagOf(child) === 'code') return child;
    if (child.textContent) return null;
  }
  return null;
}

/**
 * The language recorded on a `<pre>`, its `<code>`, or the wrappers highlighters put around it:
 * the ancestors that hold little besides the block.
 */
export function detectLanguage(pre: Element): string {
  const chain: Element[] = [];
  const code = codeOf(pre);
  if (code) chain.push(code);
  chain.push(pre);
  for (let element = pre.parentElement, depth = 0; element && depth < MAX_WRAPPER_DEPTH; element = element.parentElement, depth++) {
    // A wrapper holds the block and perhaps a caption or a button; more is the content around it.
    if (element.childElementCount > MAX_WRAPPER_CHILDREN) break;
    chain.push(element);
  }
  for (const element of chain) {
    const language = languageOf(element);
    if (language) return NO_LANGUAGE.has(language.toLowerCase()) ? '' : language.replace(/[^\w+#.-]/g, '');
  }
  return '';
}

// Elements that are a code block's lines when a highlighter writes one element per line
// (Expressive Code's div.ec-line, Shiki's span.line, Prism's token-line, data-line on any).
const LINE_CLASS = /(?:^|[\s_-])line(?:$|\s)/i;
const BLOCK_TAGS = new Set(['div', 'p', 'li', 'tr', 'section', 'article', 'header', 'footer', 'table', 'ul', 'ol', 'dl', 'dd', 'dt', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

function isLineElement(element: Element): boolean {
  return BLOCK_TAGS.has(tagOf(element)) || element.hasAttribute('data-line') || LINE_CLASS.test(classOf(element) ?? '');
}

/** Whether what follows `node` (its next sibling) starts a new line by itself: a newline or a `<br>`. */
function newlineFollows(node: Node): boolean {
  const next = node.nextSibling;
  if (!next) return false;
  if (next.nodeType === 3) return (next.nodeValue ?? '').startsWith('\n');
  return next.nodeName === 'BR';
}

/**
 * The code inside a `<pre>`, without line numbers or buttons, with `<br>` read as a newline and
 * each line element ended by one when the markup does not already have it.
 */
export function codeText(pre: Element): string {
  let structured = false;
  walkElements(pre, (element) => {
    const tag = tagOf(element);
    if (tag === 'button' || tag === 'svg' || element.getAttribute('aria-hidden') === 'true') return 'remove';
    if (CODE_CHROME.test(namesOf(element))) return 'remove';
    if (tag === 'br' || isLineElement(element)) structured = true;
    return undefined;
  });
  if (!structured) return pre.textContent ?? '';
  let text = '';
  // Line elements being read, outermost first, with where each one's text started.
  const open: Array<{ element: Element; start: number }> = [];
  const close = (element: Element, start: number): void => {
    // A line ends with a newline: an empty line too, unless the markup writes it after the element.
    if ((text.length === start || !text.endsWith('\n')) && !newlineFollows(element)) text += '\n';
  };
  // Iterative: a code block can hold thousands of lines.
  let node: Node | null = pre.firstChild;
  while (node) {
    if (node.nodeType === 3) text += node.nodeValue ?? '';
    else if (node.nodeName === 'BR') text += '\n';
    else if (node.nodeType === 1 && !open.length && isLineElement(node as Element)) open.push({ element: node as Element, start: text.length });
    if (node.firstChild) {
      node = node.firstChild;
      continue;
    }
    while (node && node !== pre && !node.nextSibling) {
      const top = open.at(-1);
      if (top && top.element === node) {
        open.pop();
        close(top.element, top.start);
      }
      node = node.parentNode;
    }
    if (node && node !== pre) {
      const top = open.at(-1);
      if (top && top.element === node) {
        open.pop();
        close(top.element, top.start);
      }
      node = node.nextSibling;
    } else node = null;
  }
  return text;
}

/** Rewrites a `<pre>` as plain text plus its detected language, ready for the fenced-code rule. */
export function normalizeCodeBlock(pre: Element): void {
  const language = detectLanguage(pre);
  const text = codeText(pre);
  pre.textContent = text;
  if (language) pre.setAttribute(LANGUAGE_ATTRIBUTE, language);
}
