/**
 * Nested llms.txt files for sites too big for one. Agents read an llms.txt whole and tools cut
 * what they fetch (Claude Code near 100,000 characters; the Agent-Friendly Documentation checks
 * want a root under 50,000), so when the flat file is over the budget the root keeps its H1,
 * summary and details, and its largest sections move to their own llms.txt files (see
 * nested-paths.ts for where), each listed in the root as one link with a one-line note. Each of
 * those files is a valid llms.txt under the same budget, split deeper when it has to be (see
 * nested-groups.ts for how). Every page stays reachable from the root.
 */
import type { PageLinks } from './link-tree';
import { groupChars, packGroups, splitGroup, type EntryGroup } from './nested-groups';
import { choosePath, folderOf, pageFolders, type PathState } from './nested-paths';
import { renderLlmsTxt, type FileHead } from './render';
import { truncateWords } from './text';
import type { NestedFile } from '../store/records/generate';
import type { LlmsEntry, LlmsSectionModel } from './types';

/** Stored with each version's files, so the store holds its shape (lib/store/records/generate.ts). */
export type { NestedFile };

/** What the layout is built from: the generated model (see GeneratedOutput). */
export interface NestModel {
  title: string;
  summary?: string;
  details: string;
  sections: LlmsSectionModel[];
}

export interface NestOptions {
  /** The site's origin: file paths are on it. */
  origin: string;
  /** Characters each file may have. */
  budget: number;
  /** The pages' links and tables of contents, for splitting a flat folder (see link-tree.ts). */
  links?: PageLinks;
}

// Files nest at most this deep; past it a file may stay over the budget rather than nest forever.
const MAX_DEPTH = 6;
const NOTE_CHARS = 240;

interface FileSpec {
  path: string;
  head: FileHead;
  details: (nested: boolean) => string;
  groups: EntryGroup[];
  parent?: string;
  depth: number;
}

interface Plan {
  path: string;
  groups: EntryGroup[];
  note: string;
}

/** H2 names must differ: the reference parser keeps sections in a dict by name. */
function uniqueNames(groups: EntryGroup[]): string[] {
  const taken = new Set<string>();
  return groups.map((group) => {
    let name = group.name;
    for (let n = 2; taken.has(name.toLowerCase()) || (!group.optional && name.toLowerCase() === 'optional'); n++) name = `${group.name} (${n})`;
    taken.add(name.toLowerCase());
    return name;
  });
}

function noteFor(group: EntryGroup, parts: EntryGroup[]): string {
  const named = (parts.length > 1 ? parts.map((part) => part.name) : group.entries.map((entry) => entry.title)).filter((name) => name !== group.name);
  const count = group.entries.length.toLocaleString('en');
  const shape = parts.length > 1 ? `${count} pages in ${parts.length} parts` : `${count} pages`;
  return truncateWords(`${shape}: ${named.join(', ')}`, NOTE_CHARS);
}

class Layout {
  readonly files: NestedFile[] = [];
  constructor(private readonly model: NestModel, private readonly options: NestOptions, private readonly paths: PathState) {}

  private url(path: string): string {
    return `${this.options.origin}${path}`;
  }

  /** Entry characters per part: the budget less room for a file's head (title, summary, details). */
  private chunkChars(): number {
    return Math.max(500, (this.options.budget - 1000) * 0.9);
  }

  private render(spec: FileSpec, groups: EntryGroup[], plans: Map<EntryGroup, Plan>): string {
    const names = uniqueNames(groups);
    const sections = groups.map((group, i): LlmsSectionModel => {
      const plan = plans.get(group);
      const name = names[i] ?? group.name;
      if (!plan) return { id: name, name, optional: group.optional, entries: group.entries, tokens: 0 };
      const link: LlmsEntry = { key: plan.path, title: group.name, url: this.url(plan.path), pageUrl: this.url(plan.path), description: plan.note, tokens: 0 };
      return { id: name, name, optional: group.optional, entries: [link], tokens: 0 };
    });
    return renderLlmsTxt(spec.head, spec.details(plans.size > 0), sections);
  }

  private plan(group: EntryGroup, folder: string): Plan {
    const groups = splitGroup(group, { origin: this.options.origin, chunkChars: this.chunkChars(), links: this.options.links });
    return { path: choosePath(group, folder, this.paths), groups, note: noteFor(group, groups) };
  }

  /** Writes the file for `spec`, moving its largest groups to child files until it fits, then writes those. */
  build(spec: FileSpec): NestedFile {
    const fullPath = `${folderOf(spec.path)}llms-full.txt`;
    const file: NestedFile = { path: spec.path, url: this.url(spec.path), fullPath, fullUrl: this.url(fullPath), title: spec.head.title, depth: spec.depth, text: '', keys: [], listed: 0 };
    if (spec.head.summary) file.summary = spec.head.summary;
    if (spec.parent) file.parent = spec.parent;
    this.files.push(file);
    let groups = spec.groups;
    const plans = new Map<EntryGroup, Plan>();
    let text = this.render(spec, groups, plans);
    for (let rechunked = false; text.length > this.options.budget && spec.depth < MAX_DEPTH;) {
      const next = groups.filter((group) => !plans.has(group) && group.entries.length > 1).sort((a, b) => groupChars(b.entries) - groupChars(a.entries))[0];
      if (next) {
        plans.set(next, this.plan(next, folderOf(spec.path)));
      } else if (!rechunked && groups.length > 1) {
        // Many small groups that are over the budget even as links: consecutive groups share a
        // file, named by the first and last of them, whose H2s are those groups.
        for (const plan of plans.values()) this.paths.taken.delete(folderOf(plan.path));
        plans.clear();
        groups = packGroups(groups, this.chunkChars());
        rechunked = true;
      } else {
        break;
      }
      text = this.render(spec, groups, plans);
    }
    file.text = text;
    for (const group of groups) {
      const plan = plans.get(group);
      if (!plan) {
        file.keys.push(...group.entries.map((entry) => entry.key));
        file.listed += group.entries.length;
        continue;
      }
      const child = this.build({ path: plan.path, head: this.childHead(group), details: this.childDetails(group, plan.path, spec.path), groups: plan.groups, parent: spec.path, depth: spec.depth + 1 });
      file.keys.push(...child.keys);
    }
    return file;
  }

  private childHead(group: EntryGroup): FileHead {
    const lead = group.entries[0];
    // The group's index page describes the group ("The Python Standard Library" page for its section).
    const summary = lead?.description && lead.title.toLowerCase() === group.name.toLowerCase() ? lead.description : `${group.entries.length.toLocaleString('en')} pages of ${this.model.title}.`;
    return { title: `${this.model.title}: ${group.name}`, summary };
  }

  private childDetails(group: EntryGroup, path: string, parentPath: string): (nested: boolean) => string {
    const count = group.entries.length.toLocaleString('en');
    const full = this.url(`${folderOf(path)}llms-full.txt`);
    return (nested) => `Part of ${this.url(parentPath)}: ${count} pages; their full text is in ${full}.${nested ? ' Its larger parts have their own llms.txt, linked below.' : ''}`;
  }
}

/**
 * The files for the model: the root alone (the flat llms.txt, byte for byte) when it fits in
 * `budget` characters, else the root and its nested files, parents before children (pre-order).
 */
export function nestOutput(model: NestModel, options: NestOptions): NestedFile[] {
  const urls = model.sections.flatMap((section) => section.entries.map((entry) => entry.pageUrl));
  const layout = new Layout(model, options, { origin: options.origin, taken: new Set(['/']), pageFolders: pageFolders(urls, options.origin) });
  const groups = model.sections.map((section): EntryGroup => ({ name: section.name, optional: section.optional, entries: section.entries, slug: section.name }));
  layout.build({
    path: '/llms.txt',
    head: { title: model.title, ...(model.summary ? { summary: model.summary } : {}) },
    details: (nested) => (nested ? `${model.details} Large sections have their own llms.txt, linked below, each with an llms-full.txt beside it.` : model.details),
    groups,
    depth: 0,
  });
  // The root's full text keeps the generator's order (the site's llms-full.txt as generated), whatever the layout.
  const root = layout.files[0];
  if (root) root.keys = model.sections.flatMap((section) => section.entries.map((entry) => entry.key));
  return layout.files;
}
