/**
 * Every regular expression written in Scout's own source, found with the TypeScript compiler
 * (not a regex over the source): literals, and `RegExp(...)` / `new RegExp(...)` whose pattern is
 * a string literal. Used by redos.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface FoundPattern {
  /** `lib/convert/markdown.ts:157`, relative to the repository. */
  where: string;
  source: string;
  flags: string;
}

/** Source files under `dirs` (folders or files, relative to `root`) ending in .ts or .tsx, declaration files aside. */
function sourceFiles(root: string, dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const dir of dirs) {
    if (statSync(join(root, dir)).isDirectory()) walk(join(root, dir));
    else out.push(join(root, dir));
  }
  return out.sort();
}

/** Text of a string literal or a template without substitutions; undefined for anything else. */
function literalText(node: ts.Node | undefined): string | undefined {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  return undefined;
}

export function findPatterns(root: string, dirs: string[]): FoundPattern[] {
  const found: FoundPattern[] = [];
  for (const file of sourceFiles(root, dirs)) {
    const text = readFileSync(file, 'utf8');
    const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    const where = (node: ts.Node): string =>
      `${relative(root, file)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node)) {
        const slash = node.text.lastIndexOf('/');
        found.push({ where: where(node), source: node.text.slice(1, slash), flags: node.text.slice(slash + 1) });
      } else if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'RegExp'
      ) {
        const source = literalText(node.arguments?.[0]);
        if (source !== undefined) {
          found.push({ where: where(node), source, flags: literalText(node.arguments?.[1]) ?? '' });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}
