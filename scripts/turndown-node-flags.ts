/**
 * A build-time patch for turndown 7.2.5 (pinned), beside the linkedom ones: turndown decorates
 * every node it converts, text nodes included, with four properties (`isBlock`, `isCode`,
 * `isBlank`, `flankingWhitespace`), each through `new Node(...)`, which also allocates an object
 * it throws away. On linkedom's objects the added properties grow every node's property store: a
 * page of 20,000 nodes left about a megabyte of garbage, and a CPU profile of conversion in Node
 * showed turndown's `Node` as 3.5 % of the time on its own. Its blank check reads the whole
 * `textContent` of every element (each element's subtree again: quadratic in the nesting depth)
 * and, for blank ones, walks the subtree 27 more times, once per tag of two lists; its tag checks
 * scan those lists with `indexOf` for every node; each element's children are copied into a new
 * array; every converted piece goes through a regular expression to trim its leading newlines;
 * each element's Markdown is joined from its children's, a copy at every level of nesting; the
 * whitespace collapse rewrites every text node, changed or not; and the end of the page is
 * trimmed by a pattern tried at every run of whitespace in it.
 *
 * Patched, the Markdown is the same (tests/unit/turndown-node-flags.test.ts compares the two on
 * tricky inputs; bench/convert-digest.ts on every page of the matrix):
 * - elements keep `isBlock`, `isCode` and `isBlank`, the flags rules may read; `flankingWhitespace`,
 *   read by turndown alone, is a local value; text nodes, which no rule is given, are not decorated
 *   (their one flag, `isCode`, is their parent's);
 * - the blank check walks the subtree once and stops at the first text, void element or element
 *   meaningful when blank that makes it not blank: the same conjunction, in one pass;
 * - tag lists are Sets; children are followed by `nextSibling` (each taken before its node is
 *   converted, so a rule that removes its own node does not end the walk);
 * - leading newlines are counted, not matched; an element whose text neither starts nor ends with
 *   whitespace has no flanking whitespace, without the regular expression that splits its edges;
 * - an element's content is its pieces concatenated (V8 links them; the text is copied once, when
 *   the first reader flattens it) instead of joined into a fresh copy at each level, and is kept
 *   as two strings, the last piece and the ones before it, not an array per element (the
 *   separator between pieces depends only on the last one's trailing newlines, all in that piece);
 * - no read past a string's or an array's end (popping an empty array, a character at -1): V8
 *   drops a function's optimised code at the first such read and compiles it again;
 * - text with no run to collapse (no tab, return, newline or double space) is left as it is,
 *   not replaced and written back; the page's end is trimmed by `trimEnd`, the same characters as `\s`.
 * Rules that read another node's `flankingWhitespace`, or a text node's flags, would see nothing:
 * none of turndown's, the GFM plugin's or lib/convert's do.
 */
import { applyReplacements, type Replacements } from './source-patch';

/** Turndown's `is(node, list)` test for one tag list, by a Set of it instead of `indexOf`. */
const tagSet = (test: string, list: string): [string, string] => [
  `function ${test}(node) {\n  return is(node, ${list});\n}`,
  `var ${list}Set = new Set(${list});\nfunction ${test}(node) {\n  return ${list}Set.has(node.nodeName);\n}`,
];

const REPLACEMENTS: Replacements = [
  [
    `      var text = node.data.replace(/[ \\r\\n\\t]+/g, ' ');
      if ((!prevText || / $/.test(prevText.data)) && !keepLeadingWs && text[0] === ' ') {
        text = text.substr(1);
      }

      // \`text\` might be empty at this point.
      if (!text) {
        node = remove(node);
        continue;
      }
      node.data = text;`,
    `      var data = node.data;
      // Most text holds no run to collapse: single spaces between words stay as they are.
      var text = /[\\r\\n\\t]|  /.test(data) ? data.replace(/[ \\r\\n\\t]+/g, ' ') : data;
      if ((!prevText || prevText.data.charCodeAt(prevText.data.length - 1) === 32) && !keepLeadingWs && text.charCodeAt(0) === 32) {
        text = text.substr(1);
      }

      // \`text\` might be empty at this point.
      if (!text) {
        node = remove(node);
        continue;
      }
      if (text !== data) node.data = text;`,
  ],
  [
    `function trimLeadingNewlines(string) {
  return string.replace(/^\\n*/, '');
}`,
    `function trimLeadingNewlines(string) {
  var start = 0;
  while (start < string.length && string.charCodeAt(start) === 10) start++;
  return start === 0 ? string : string.slice(start);
}`,
  ],
  tagSet('isBlock', 'blockElements'),
  tagSet('isVoid', 'voidElements'),
  tagSet('isMeaningfulWhenBlank', 'meaningfulWhenBlankElements'),
  [
    `function Node(node, options) {
  node.isBlock = isBlock(node);
  node.isCode = node.nodeName === 'CODE' || node.parentNode.isCode;
  node.isBlank = isBlank(node);
  node.flankingWhitespace = flankingWhitespace(node, options);
  return node;
}
function isBlank(node) {
  return !isVoid(node) && !isMeaningfulWhenBlank(node) && /^\\s*$/i.test(node.textContent) && !hasVoid(node) && !hasMeaningfulWhenBlank(node);
}
function flankingWhitespace(node, options) {
  if (node.isBlock || options.preformattedCode && node.isCode) {
    return {
      leading: '',
      trailing: ''
    };
  }`,
    `function Node(node) {
  node.isBlock = isBlock(node);
  node.isCode = node.nodeName === 'CODE' || node.parentNode.isCode;
  node.isBlank = isBlank(node);
  return node;
}
// getElementsByTagName's match for an upper-case tag: the HTML element's nodeName, or a foreign
// element named so exactly.
function namedIn(set, element) {
  return set.has(element.nodeName) || set.has(element.localName);
}
function isBlank(node) {
  if (isVoid(node) || isMeaningfulWhenBlank(node)) return false;
  var current = node.firstChild;
  while (current) {
    var type = current.nodeType;
    if (type === 3 || type === 4) {
      if (/\\S/.test(current.data)) return false;
    } else if (type === 1) {
      if (namedIn(voidElementsSet, current) || namedIn(meaningfulWhenBlankElementsSet, current)) return false;
      if (current.firstChild) {
        current = current.firstChild;
        continue;
      }
    }
    while (current !== node && !current.nextSibling) current = current.parentNode;
    current = current === node ? null : current.nextSibling;
  }
  return true;
}
var NO_FLANKING_WHITESPACE = Object.freeze({
  leading: '',
  trailing: ''
});
function flankingWhitespace(node, options) {
  if (node.isBlock || options.preformattedCode && node.isCode) {
    return NO_FLANKING_WHITESPACE;
  }`,
  ],
  [
    `  var edges = edgeWhitespace(node.textContent);`,
    `  var text = node.textContent;
  // Most inline elements have no whitespace at either end: every part of edgeWhitespace's match is empty.
  if (text.length === 0 || (!/\\s/.test(text.charAt(0)) && !/\\s/.test(text.charAt(text.length - 1)))) return NO_FLANKING_WHITESPACE;
  var edges = edgeWhitespace(text);`,
  ],
  [
    `function process(parentNode) {
  var self = this;
  return reduce.call(parentNode.childNodes, function (output, node) {
    node = new Node(node, self.options);
    var replacement = '';
    if (node.nodeType === 3) {
      replacement = node.isCode ? node.nodeValue : self.escape(node.nodeValue);
    } else if (node.nodeType === 1) {
      replacement = replacementForNode.call(self, node);
    }
    join(output, replacement);
    return output;
  }, []);
}`,
    `function process(parentNode) {
  // join's pieces as two strings: \`tail\`, the last piece (every trailing newline of the Markdown
  // so far is in it), and \`head\`, the pieces before it concatenated.
  var head = '';
  var tail = '';
  var isCode = parentNode.isCode;
  var next;
  for (var node = parentNode.firstChild; node; node = next) {
    next = node.nextSibling;
    var replacement = '';
    if (node.nodeType === 3) {
      replacement = isCode ? node.nodeValue : this.escape(node.nodeValue);
    } else if (node.nodeType === 1) {
      replacement = replacementForNode.call(this, Node(node));
    }
    var s1 = trimTrailingNewlines(tail);
    var s2 = trimLeadingNewlines(replacement);
    var nls = Math.max(tail.length - s1.length, replacement.length - s2.length);
    var separator = '\\n\\n'.substring(0, nls);
    if (s2) {
      head += s1 + separator;
      tail = s2;
    } else if (separator) {
      head += s1;
      tail = separator;
    }
  }
  return head + tail;
}`,
  ],
  [
    `function replacementForNode(node) {
  var rule = this.rules.forNode(node);
  var content = process.call(this, node).join('');
  var whitespace = node.flankingWhitespace;`,
    `function replacementForNode(node) {
  var whitespace = flankingWhitespace(node, this.options);
  var rule = this.rules.forNode(node);
  var content = process.call(this, node);`,
  ],
  [
    `function join(output, replacement) {
  var tail = output.pop() || '';
  var s1 = trimTrailingNewlines(tail);
  var s2 = trimLeadingNewlines(replacement);
  var nls = Math.max(tail.length - s1.length, replacement.length - s2.length);
  var separator = '\\n\\n'.substring(0, nls);
  if (s1) output.push(s1);
  if (separator) output.push(separator);
  if (s2) output.push(s2);
}`,
    `function join(text, replacement) {
  var s1 = trimTrailingNewlines(text);
  var s2 = trimLeadingNewlines(replacement);
  var nls = Math.max(text.length - s1.length, replacement.length - s2.length);
  return s1 + '\\n\\n'.substring(0, nls) + s2;
}`,
  ],
  [
    `      join(output, rule.append(self.options));`,
    `      output = join(output, rule.append(self.options));`,
  ],
  [
    `  return output.join('').replace(/^[\\t\\r\\n]+/, '').replace(/[\\t\\r\\n\\s]+$/, '');`,
    `  var markdown = output;
  var start = 0;
  for (var code = markdown.charCodeAt(0); code === 9 || code === 10 || code === 13; code = ++start < markdown.length ? markdown.charCodeAt(start) : 0);
  // trimEnd strips what \\s matches (\\t, \\r and \\n among them); the pattern tried every whitespace run of the page as the end.
  return markdown.slice(start).trimEnd();`,
  ],
];

/** The patched source; throws when turndown's code is not the one this patch was written for. */
export const nodeFlags = (code: string): string => applyReplacements(code, REPLACEMENTS, 'scripts/turndown-node-flags.ts', 'turndown');

/** Turndown's builds this patch applies to: the CommonJS and ES modules, for Node and for browsers. */
export const TURNDOWN_MODULE = /[\\/]turndown[\\/]lib[\\/]turndown(?:\.browser)?\.(?:cjs|es)\.js$/;

