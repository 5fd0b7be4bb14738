import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The store boundary (docs/design.md, "The store"): only lib/store/ touches the database. Outside
 * it, code calls the store's functions and gets records back; it never holds a table, a
 * collection, a where-clause or a transaction, and never calls a method of the database.
 *
 * Read by the compiler, not by pattern: a member of any value whose type Dexie declares is a
 * breach, whatever the variable is called (`db.pages`, `this.db.jobs`, `table.where`, `tx.table`),
 * and a use the pattern would miss (a table handle passed in under another name) is caught too.
 */
const ROOT = path.resolve(__dirname, '../..');
const CHECKED = ['lib/', 'entrypoints/', 'components/', 'cli/'];

function program(): ts.Program {
  const configPath = path.join(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const roots = parsed.fileNames.filter((f) => CHECKED.some((dir) => path.relative(ROOT, f).startsWith(dir)));
  return ts.createProgram(roots, { ...parsed.options, noEmit: true });
}

/** Whether Dexie's own declarations define this type (or any part of an intersection or union). */
function fromDexie(type: ts.Type, seen = new Set<ts.Type>()): boolean {
  if (seen.has(type)) return false;
  seen.add(type);
  if (type.isUnionOrIntersection()) return type.types.some((t) => fromDexie(t, seen));
  const symbol = type.aliasSymbol ?? type.getSymbol();
  return (symbol?.declarations ?? []).some((d) => /[\\/]node_modules[\\/]dexie[\\/]/.test(d.getSourceFile().fileName));
}

/** Every import of Dexie and every member of a Dexie-typed value in the files `include` admits. */
function breaches(prog: ts.Program, include: (rel: string) => boolean): string[] {
  const checker = prog.getTypeChecker();
  const found: string[] = [];
  for (const source of prog.getSourceFiles()) {
    const rel = path.relative(ROOT, source.fileName).split(path.sep).join('/');
    if (!include(rel)) continue;
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text === 'dexie') {
        found.push(`${rel}: imports dexie`);
      }
      if ((ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) && fromDexie(checker.getTypeAtLocation(node.expression))) {
        // One breach per line, named by the innermost member (`db.pages`, not the whole chain).
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        const where = `${rel}:${line + 1}: `;
        const last = found.at(-1);
        if (!last?.startsWith(where)) found.push(`${where}${node.getText(source).slice(0, 60)}`);
        else if (node.getText(source).length < last.length - where.length) found[found.length - 1] = `${where}${node.getText(source)}`;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The engine's code (lib/ outside the store) and the CLI: they take a `Store`, whichever it is. */
const ENGINE = (rel: string) => (rel.startsWith('lib/') && !rel.startsWith('lib/store/')) || rel.startsWith('cli/');
/** What only the extension may name: the IndexedDB store's type, its instance and its makers. */
const INDEXEDDB_ONLY = new Set(['ScoutDb', 'db', 'createDb', 'scratchDb', 'discardDb']);

/** Every name of `INDEXEDDB_ONLY` a source imports from lib/store/db, as `file: name`. */
function indexedDbNames(rel: string, text: string): string[] {
  const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const specifier = ts.isImportDeclaration(node) || (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) ? (ts.isImportDeclaration(node) ? node.moduleSpecifier : node.arguments[0]) : undefined;
    if (specifier && ts.isStringLiteral(specifier) && /(^|\/)store\/db$/.test(specifier.text)) {
      if (ts.isImportDeclaration(node)) {
        const bindings = node.importClause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) if (INDEXEDDB_ONLY.has((el.propertyName ?? el.name).text)) found.push(`${rel}: ${(el.propertyName ?? el.name).text}`);
        if (bindings && ts.isNamespaceImport(bindings)) found.push(`${rel}: * as ${bindings.name.text}`);
      } else found.push(`${rel}: import('${specifier.text}')`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the store boundary', () => {
  it('nothing outside lib/store touches a table, a query or the database', () => {
    const outsideStore = (rel: string) => CHECKED.some((dir) => rel.startsWith(dir)) && !rel.startsWith('lib/store/');
    expect(breaches(program(), outsideStore)).toEqual([]);
  }, 120_000);

  it('the check finds a table touched outside the store', () => {
    // The check itself must be able to fail: a source that reads a table directly is reported.
    const file = path.join(ROOT, 'lib/__boundary-probe.ts');
    const host = ts.createCompilerHost({ strict: true, skipLibCheck: true, esModuleInterop: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true });
    const text = "import { db } from './store/db';\nexport const n = () => db.pages.count();\n";
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (name, lang, ...rest) =>
      path.resolve(name) === file ? ts.createSourceFile(name, text, lang) : read(name, lang, ...rest);
    host.fileExists = ((exists) => (name: string) => path.resolve(name) === file || exists(name))(host.fileExists.bind(host));
    const prog = ts.createProgram([file], { strict: true, skipLibCheck: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true }, host);
    const hits = breaches(prog, (rel) => rel === 'lib/__boundary-probe.ts');
    expect(hits).toEqual(['lib/__boundary-probe.ts:2: db.pages']);
  }, 60_000);
  it('the engine and the CLI never name the IndexedDB store: they run on whichever Store they are given', () => {
    const found = program()
      .getSourceFiles()
      .map((source) => ({ rel: path.relative(ROOT, source.fileName).split(path.sep).join('/'), text: source.text }))
      .filter(({ rel }) => ENGINE(rel))
      .flatMap(({ rel, text }) => indexedDbNames(rel, text));
    expect(found).toEqual([]);
  }, 120_000);

  it('the engine check finds the IndexedDB store named, statically or by a dynamic import', () => {
    const probe = "import { type ScoutDb, scratchDb } from '../store/db';\nimport type { PageRecord } from '../store/db';\nexport const m = () => import('../lib/store/db');\n";
    expect(indexedDbNames('lib/x/probe.ts', probe)).toEqual(['lib/x/probe.ts: ScoutDb', 'lib/x/probe.ts: scratchDb', "lib/x/probe.ts: import('../lib/store/db')"]);
  });
});
