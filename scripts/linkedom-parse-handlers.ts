/**
 * A build-time patch for linkedom 0.18.13 (pinned), applied to its parser after
 * linkedom-raw-class (the same module): `parseFromString` gave htmlparser2 a new object of
 * callbacks per document, each callback a closure over that parse's state. V8 keeps a function's
 * optimised code for the closures made after it, but in a conversion worker (Chromium 156,
 * `--js-flags=--trace-opt`) each page's new `onopentag`, `ontext` and `onclosetag` were optimised
 * again: 16 TurboFan and Maglev compiles of each per crawl of the Python docs, a worker's hottest
 * functions after the tokenizer. Patched, the callbacks are the methods of one class and the
 * parse's state is the instance's fields (htmlparser2 calls them on the object it was given), so
 * every page runs the same functions; what they do, in what order, is unchanged. An element's
 * attributes are visited by for-in, not over a new `Object.keys` array per element (3 % of what
 * conversion allocated).
 */
import { applyReplacements, type Replacements } from './source-patch';

const REPLACEMENTS: Replacements = [
  [
    `const parseFromString = (document, isHTML, markupLanguage) => {
  const {active, registry} = document[CUSTOM_ELEMENTS];

  let node = document;
  let ownerSVGElement = null;
  let parsingCData = false;

  notParsing = false;

  const content = new Parser({
    // <!DOCTYPE ...>
    onprocessinginstruction(name, data) {
      if (name.toLowerCase() === '!doctype')
        document.doctype = data.slice(name.length).trim();
    },

    // <tagName>
    onopentag(name, attributes) {
      let create = true;
      if (isHTML) {
        if (ownerSVGElement) {
          node = append(node, document.createElementNS(SVG_NAMESPACE, name), active);
          node.ownerSVGElement = ownerSVGElement;
          create = false;
        }
        else if (name === 'svg' || name === 'SVG') {
          ownerSVGElement = document.createElementNS(SVG_NAMESPACE, name);
          node = append(node, ownerSVGElement, active);
          create = false;
        }
        else if (active) {
          const ce = name.includes('-') ? name : (attributes.is || '');
          if (ce && registry.has(ce)) {
            const {Class} = registry.get(ce);
            node = append(node, new Class, active);
            delete attributes.is;
            create = false;
          }
        }
      }

      if (create)
        node = append(node, document.createElement(name), false);

      let end = node[END];
      for (const name of keys(attributes))
        attribute(node, end, document.createAttribute(name), attributes[name], active);
    },

    // #text, #comment
    oncomment(data) { append(node, document.createComment(data), active); },
    ontext(text) {
      if (parsingCData) {
        append(node, document.createCDATASection(text), active);
      } else {
        append(node, document.createTextNode(text), active);
      }
    },

    // #cdata
    oncdatastart() { parsingCData = true; },
    oncdataend() { parsingCData = false; },

    // </tagName>
    onclosetag() {
      if (isHTML && node === ownerSVGElement)
        ownerSVGElement = null;
      node = node.parentNode;
    }
  }, {`,
    `const parseFromString = (document, isHTML, markupLanguage) => {
  const {active, registry} = document[CUSTOM_ELEMENTS];

  notParsing = false;

  const content = new Parser(new ParseHandlers(document, isHTML, active, registry), {`,
  ],
  // The class after the function that uses it (parseFromString runs only once the module is
  // loaded), so the ES build's \`export const parseFromString\` and the CommonJS one's
  // \`const parseFromString\` are matched alike.
  [
    `  notParsing = true;

  return document;
};
`,
    `  notParsing = true;

  return document;
};

class ParseHandlers {
  constructor(document, isHTML, active, registry) {
    this.document = document;
    this.isHTML = isHTML;
    this.active = active;
    this.registry = registry;
    this.node = document;
    this.ownerSVGElement = null;
    this.parsingCData = false;
  }

  // <!DOCTYPE ...>
  onprocessinginstruction(name, data) {
    if (name.toLowerCase() === '!doctype')
      this.document.doctype = data.slice(name.length).trim();
  }

  // <tagName>
  onopentag(name, attributes) {
    const {document, active} = this;
    let create = true;
    if (this.isHTML) {
      if (this.ownerSVGElement) {
        this.node = append(this.node, document.createElementNS(SVG_NAMESPACE, name), active);
        this.node.ownerSVGElement = this.ownerSVGElement;
        create = false;
      }
      else if (name === 'svg' || name === 'SVG') {
        this.ownerSVGElement = document.createElementNS(SVG_NAMESPACE, name);
        this.node = append(this.node, this.ownerSVGElement, active);
        create = false;
      }
      else if (active) {
        const ce = name.includes('-') ? name : (attributes.is || '');
        if (ce && this.registry.has(ce)) {
          const {Class} = this.registry.get(ce);
          this.node = append(this.node, new Class, active);
          delete attributes.is;
          create = false;
        }
      }
    }

    if (create)
      this.node = append(this.node, document.createElement(name), false);

    const node = this.node;
    let end = node[END];
    // htmlparser2's attributes are a plain object: for-in visits what Object.keys lists, in its
    // order, without an array of the names per element.
    for (const name in attributes)
      attribute(node, end, document.createAttribute(name), attributes[name], active);
  }

  // #text, #comment
  oncomment(data) { append(this.node, this.document.createComment(data), this.active); }
  ontext(text) {
    if (this.parsingCData) {
      append(this.node, this.document.createCDATASection(text), this.active);
    } else {
      append(this.node, this.document.createTextNode(text), this.active);
    }
  }

  // #cdata
  oncdatastart() { this.parsingCData = true; }
  oncdataend() { this.parsingCData = false; }

  // </tagName>
  onclosetag() {
    if (this.isHTML && this.node === this.ownerSVGElement)
      this.ownerSVGElement = null;
    this.node = this.node.parentNode;
  }
}
`,
  ],
];

/** The patched parser source (after linkedom-raw-class's); throws when linkedom's code is not the one this patch was written for. */
export const parseHandlers = (code: string): string => applyReplacements(code, REPLACEMENTS, 'scripts/linkedom-parse-handlers.ts');
