/**
 * Every regular expression written in Scout's own source, found with the TypeScript compiler
 * (not a regex over the source): literals, and `RegExp(...)` / `new RegExp(...)` whose pattern is
 * a constant (literals, templates and concatenations of them); the others are listed apart, as
 * patterns built at run time. Used by redos.test.ts.
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

/**
 * The string a constant expression spells: string literals, templates, `+`, `[…].join(…)` and
 * `const` names of the same file whose value is one of those; undefined for anything else (a
 * pattern built at run time).
 */
function constantText(node: ts.Node | undefined, consts: Map<string, ts.Expression>, depth = 0): string | undefined {
  if (!node || depth > 20) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isParenthesizedExpression(node)) return constantText(node.expression, consts, depth + 1);
  if (ts.isTemplateExpression(node)) {
    let out = node.head.text;
    for (const span of node.templateSpans) {
      const part = constantText(span.expression, consts, depth + 1);
      if (part === undefined) return undefined;
      out += part + span.literal.text;
    }
    return out;
  }
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = constantText(node.left, consts, depth + 1);
    const right = constantText(node.right, consts, depth + 1);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  if (ts.isIdentifier(node)) return constantText(consts.get(node.text), consts, depth + 1);
  if (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 'join' &&
    ts.isArrayLiteralExpression(node.expression.expression)
  ) {
    const parts = node.expression.expression.elements.map((e) => constantText(e, consts, depth + 1));
    const separator = node.arguments[0] === undefined ? ',' : constantText(node.arguments[0], consts, depth + 1);
    if (separator === undefined || parts.some((p) => p === undefined)) return undefined;
    return parts.join(separator);
  }
  return undefined;
}

/** A `RegExp(...)` whose pattern is only known at run time; each must be named in redos.test.ts. */
export interface DynamicPattern {
  where: string;
  code: string;
}

export function findPatterns(root: string, dirs: string[]): { found: FoundPattern[]; dynamic: DynamicPattern[] } {
  const found: FoundPattern[] = [];
  const dynamic: DynamicPattern[] = [];
  for (const file of sourceFiles(root, dirs)) {
    const text = readFileSync(file, 'utf8');
    const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    // Top-level and local `const x = <constant>`: a pattern may be assembled from them.
    const consts = new Map<string, ts.Expression>();
    const collect = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && (node.parent.flags & ts.NodeFlags.Const) !== 0) {
        consts.set(node.name.text, node.initializer);
      }
      ts.forEachChild(node, collect);
    };
    collect(sf);
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
        const source = constantText(node.arguments?.[0], consts);
        const flags = node.arguments?.[1] === undefined ? '' : constantText(node.arguments[1], consts);
        if (source !== undefined && flags !== undefined) found.push({ where: where(node), source, flags });
        else dynamic.push({ where: where(node), code: node.getText(sf) });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { found, dynamic };
}
