/**
 * Tables as GFM pipe tables, with spans laid out on a grid. Tables that cannot be pipe tables
 * (nested tables, code blocks, cells holding whole sections) become their cells' content in
 * reading order instead of raw HTML or a mangled grid.
 *
 * The Joplin GFM plugin's table rule is not used: it reads `table.rows`, which linkedom does not
 * implement, so every table came out as its cells run together ("AB12"), and it keeps tables with
 * lists as raw HTML.
 */
import type TurndownService from 'turndown';
import { tagOf } from './walk';

// Cell Markdown is stored per cell node as turndown converts it; the table rule then lays it out.
// Turndown converts children before their parent, so every cell is done by the time its table is.
const cellMarkdown = new WeakMap<object, string>();
// A cell with more lines than this is a section, not a value: the table is shown as blocks.
const MAX_CELL_LINES = 6;
const MAX_SPAN = 64;

function rowsOf(table: Element): Element[] {
  const rows: Element[] = [];
  for (let child = table.firstElementChild; child; child = child.nextElementSibling) {
    const tag = tagOf(child);
    if (tag === 'tr') rows.push(child);
    else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') {
      for (let row = child.firstElementChild; row; row = row.nextElementSibling) if (tagOf(row) === 'tr') rows.push(row);
    }
  }
  return rows;
}

function cellsOf(row: Element): Element[] {
  const cells: Element[] = [];
  for (let cell = row.firstElementChild; cell; cell = cell.nextElementSibling) {
    const tag = tagOf(cell);
    if (tag === 'td' || tag === 'th') cells.push(cell);
  }
  return cells;
}

function span(cell: Element, name: string): number {
  const value = Number.parseInt(cell.getAttribute(name) ?? '1', 10);
  return Number.isFinite(value) && value >= 1 ? Math.min(value, MAX_SPAN) : 1;
}

/** Cell Markdown on one line: GFM cells cannot hold newlines, and `|` would end the cell. */
function inline(markdown: string): string {
  return markdown.trim().replace(/(?<!\s)\s*\n\s*/g, '<br>').replace(/\|/g, '\\|');
}

function asBlocks(rows: Element[]): string {
  const blocks: string[] = [];
  for (const row of rows) for (const cell of cellsOf(row)) {
    const text = (cellMarkdown.get(cell) ?? '').trim();
    if (text) blocks.push(text);
  }
  return blocks.length ? `\n\n${blocks.join('\n\n')}\n\n` : '';
}

function asGrid(rows: Element[]): string {
  const grid: string[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    let column = 0;
    for (const cell of cellsOf(row)) {
      const line = grid[r] ?? [];
      while (line[column] !== undefined) column++;
      const colspan = span(cell, 'colspan');
      const rowspan = span(cell, 'rowspan');
      // The value goes in the first cell of the span; the rest stay empty but keep columns aligned.
      for (let dr = 0; dr < rowspan && r + dr < grid.length; dr++) {
        const target = grid[r + dr] ?? [];
        for (let dc = 0; dc < colspan; dc++) target[column + dc] = dr === 0 && dc === 0 ? inline(cellMarkdown.get(cell) ?? '') : '';
      }
      column += colspan;
    }
  });
  const width = Math.max(...grid.map((line) => line.length));
  // Spacer rows (Doxygen puts an empty one between members) say nothing; the header row stays.
  const kept = grid.filter((line, r) => r === 0 || line.some((cell) => cell.replace(/[\s\u00a0]/g, '') !== ''));
  const lines = kept.map((line) => `| ${Array.from({ length: width }, (_, i) => line[i] || ' ').join(' | ')} |`);
  // GFM needs a header row; a table without one shows its first row there.
  lines.splice(1, 0, `|${' --- |'.repeat(width)}`);
  return `\n\n${lines.join('\n')}\n\n`;
}

function shouldBeBlocks(table: Element, rows: Element[]): boolean {
  if (table.getElementsByTagName('table').length || table.getElementsByTagName('pre').length) return true;
  let width = 0;
  for (const row of rows) {
    const cells = cellsOf(row);
    width = Math.max(width, cells.length);
    for (const cell of cells) if ((cellMarkdown.get(cell) ?? '').trim().split('\n').length > MAX_CELL_LINES) return true;
  }
  // A one-column table is a layout box (a callout, a code frame), not tabular data.
  return width <= 1;
}

/** Adds the table rules to a turndown service. */
export function tableRules(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      cellMarkdown.set(node, content);
      return '';
    },
  });
  service.addRule('tableParts', { filter: ['tr', 'thead', 'tbody', 'tfoot', 'colgroup', 'col'], replacement: () => '' });
  service.addRule('tableCaption', {
    filter: 'caption',
    replacement: (content, node) => {
      cellMarkdown.set(node, content);
      return '';
    },
  });
  service.addRule('table', {
    filter: 'table',
    replacement: (_content, node) => {
      const rows = rowsOf(node);
      const cells = rows.flatMap(cellsOf);
      if (!cells.some((cell) => (cellMarkdown.get(cell) ?? '').trim())) return '';
      let caption = '';
      for (let child = node.firstElementChild; child; child = child.nextElementSibling) {
        if (tagOf(child) === 'caption') caption = (cellMarkdown.get(child) ?? '').trim();
      }
      // A first row that is one heading ("Macros" over Doxygen's member tables) titles the table.
      const first = rows[0] ? cellsOf(rows[0]) : [];
      const title = first.length === 1 && rows.length > 1 ? (cellMarkdown.get(first[0] as Element) ?? '').trim() : '';
      const heading = /^#{1,6} /.test(title) && !title.includes('\n') ? title : '';
      const bodyRows = heading ? rows.slice(1) : rows;
      const body = shouldBeBlocks(node, bodyRows) ? asBlocks(bodyRows) : asGrid(bodyRows);
      const head = [heading, caption].filter(Boolean).join('\n\n');
      return head ? `\n\n${head}${body}` : body;
    },
  });
}
