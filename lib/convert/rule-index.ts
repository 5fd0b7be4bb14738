/**
 * Turndown's rule lookup, indexed by tag. Turndown (7.2) tries every rule's filter on every node
 * in order, and each filter reads `nodeName` afresh and lower-cases it: ~25 rules × every node of
 * the page, a new string each time. The built-in `code` rule's filter also asks
 * every node for its `previousSibling`, which linkedom finds by scanning the parent's children.
 * This lookup picks the same rule turndown would: the first in turndown's order whose filter
 * matches, then keep rules, then remove rules, else the default (the blank rule first for blank
 * nodes). Only the rules that can match a tag are tried, in that order, and the list per tag is
 * built once.
 */
import type TurndownService from 'turndown';

type Rule = TurndownService.Rule;

/** What turndown's `Rules` object holds (its `_keep` and `_remove` lists are not in its types). */
interface RuleSet {
  options: TurndownService.Options & { rules?: Record<string, Rule> };
  array: Rule[];
  _keep?: Rule[];
  _remove?: Rule[];
  blankRule: Rule;
  defaultRule: Rule;
  forNode(node: HTMLElement): Rule;
}

/**
 * The tags that turndown's built-in function filters can match (read from its 7.2 source): these
 * rules are skipped for every other tag. A function filter not named here is tried on every node.
 */
const BUILT_IN_TAGS: Record<string, string[]> = {
  indentedCodeBlock: ['pre'],
  fencedCodeBlock: ['pre'],
  inlineLink: ['a'],
  referenceLink: ['a'],
  code: ['code'],
};

/**
 * Replaces `service.rules.forNode` with a lookup by tag. Call after every rule is added.
 * `functionTags` names the tags of the caller's own function filters, by rule object.
 */
export function indexRules(service: TurndownService, functionTags = new Map<Rule, string[]>()): void {
  const rules = service.rules as unknown as RuleSet;
  const tagsOf = new Map(functionTags);
  const builtIns = rules.options.rules ?? {};
  for (const [name, tags] of Object.entries(BUILT_IN_TAGS)) {
    const rule = builtIns[name];
    if (rule) tagsOf.set(rule, tags);
  }
  const ordered = [...rules.array, ...(rules._keep ?? []), ...(rules._remove ?? [])];
  // Keyed by nodeName as read: lower-casing it for every node made (and hashed) a new string.
  const byName = new Map<string, Rule[]>();
  const candidates = (name: string): Rule[] => {
    const tag = name.toLowerCase();
    const list: Rule[] = [];
    for (const rule of ordered) {
      const { filter } = rule;
      if (typeof filter === 'function') {
        const tags = tagsOf.get(rule);
        if (!tags || tags.includes(tag)) list.push(rule);
      } else if (typeof filter === 'string' ? filter === tag : (filter as string[]).includes(tag)) {
        // A tag filter always matches: nothing after it can be chosen.
        list.push(rule);
        break;
      }
    }
    byName.set(name, list);
    return list;
  };
  const { options } = rules;
  rules.forNode = (node: HTMLElement): Rule => {
    if ((node as HTMLElement & { isBlank?: boolean }).isBlank) return rules.blankRule;
    const name = node.nodeName;
    for (const rule of byName.get(name) ?? candidates(name)) {
      const { filter } = rule;
      if (typeof filter !== 'function' || filter.call(rule, node, options)) return rule;
    }
    return rules.defaultRule;
  };
}
