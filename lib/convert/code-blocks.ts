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

/** The language recorded on a `<pre>`, its `<code>`, or the wrappers highlighters put around it. */
export function detectLanguage(pre: Element): string {
  const code = pre.firstElementChild && tagOf(pre.firstElementChild) === 'code' ? pre.firstElementChild : null;
  const parent = pre.parentElement;
  for (const element of [code, pre, parent, parent?.parentElement]) {
    const language = element ? languageOf(element) : undefined;
    if (language) return NO_LANGUAGE.has(language.toLowerCase()) ? '' : language.replace(/[^\w+#.-]/g, '');
  }
  return '';
}

/** The code inside a `<pre>`, without line numbers or buttons, with `<br>` read as a newline. */
export function codeText(pre: Element): string {
  let hasBreaks = false;
  walkElements(pre, (element) => {
    const tag = tagOf(element);
    if (tag === 'br') hasBreaks = true;
    if (tag === 'button' || tag === 'svg' || element.getAttribute('aria-hidden') === 'true') return 'remove';
    return CODE_CHROME.test(namesOf(element)) ? 'remove' : undefined;
  });
  if (!hasBreaks) return pre.textContent ?? '';
  let text = '';
  // Rare enough (old generators, some CMSs) that a plain forward node walk is fine here.
  let node: Node | null = pre.firstChild;
  while (node) {
    if (node.nodeType === 3) text += node.nodeValue ?? '';
    else if (node.nodeName === 'BR') text += '\n';
    if (node.firstChild) {
      node = node.firstChild;
      continue;
    }
    while (node && node !== pre && !node.nextSibling) node = node.parentNode;
    node = node && node !== pre ? node.nextSibling : null;
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
