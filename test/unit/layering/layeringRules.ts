/**
 * The import rules of the layers (DESIGN.md "Import rules"), checked with the TypeScript parser — comments and
 * strings that merely look like imports are not imports.
 */
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportRef {
  specifier: string;
  typeOnly: boolean;
  line: number;
}

export interface Violation {
  /** Repository-relative path with forward slashes. */
  file: string;
  line: number;
  message: string;
}

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

/** Every module reference in a file: static imports/exports, `import type`, `import('x')` types, dynamic import(), require(). */
export function scanImports(fileName: string, text: string): ImportRef[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const refs: ImportRef[] = [];
  const add = (node: ts.Node, specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (specifier && ts.isStringLiteralLike(specifier))
      refs.push({ specifier: specifier.text, typeOnly, line: lineOf(source, node) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      let typeOnly = false;
      if (clause) {
        const named = clause.namedBindings;
        typeOnly =
          clause.isTypeOnly ||
          (!clause.name &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((element) => element.isTypeOnly));
      }
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly));
      add(node, node.moduleSpecifier, typeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node, node.argument.literal as ts.Expression, true);
    } else if (ts.isCallExpression(node)) {
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if ((isDynamicImport || isRequire) && node.arguments.length > 0) add(node, node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

const UI_PACKAGES = [
  'electron',
  'react',
  'react-dom',
  'zustand',
  'recharts',
  'jsdom',
  '@testing-library/react',
  '@testing-library/dom',
];
const NODE_BUILTINS = new Set(builtinModules);

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function isUiPackage(specifier: string): boolean {
  return UI_PACKAGES.includes(packageName(specifier));
}

function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || NODE_BUILTINS.has(packageName(specifier));
}

/** Repository-relative target of a relative specifier ('src/bridge/index'), or null for packages. */
function resolveRelative(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
}

function inside(target: string, folder: string): boolean {
  return target === folder || target.startsWith(`${folder}/`);
}

/** Files of main/ that are allowed to import 'electron' (everything else there must run in plain Node). */
function mayImportElectron(file: string): boolean {
  return file === 'main/electron.ts' || file === 'main/preload.ts' || file.startsWith('main/electron/');
}

/** Import-rule violations of one file. `file` is repository-relative with forward slashes. */
export function checkFileImports(file: string, text: string): Violation[] {
  const violations: Violation[] = [];
  const flag = (ref: ImportRef, message: string) => violations.push({ file, line: ref.line, message });
  for (const ref of scanImports(file, text)) {
    const target = resolveRelative(file, ref.specifier);
    if (inside(file, 'src')) {
      if (isUiPackage(ref.specifier))
        flag(ref, `src/ must not import "${ref.specifier}" (src/ is pure Node: no Electron, React or UI packages)`);
      if (target && (inside(target, 'main') || inside(target, 'renderer') || inside(target, 'test'))) {
        flag(ref, `src/ must not import ${target} (src/ imports neither main/ nor renderer/)`);
      }
    } else if (inside(file, 'renderer')) {
      if (target && inside(target, 'src')) {
        const allowedFolder = inside(target, 'src/bridge') || inside(target, 'src/contract');
        if (!allowedFolder || !ref.typeOnly) {
          flag(
            ref,
            `renderer/ may only \`import type\` from src/bridge or src/contract, not ${ref.typeOnly ? '' : 'runtime code from '}${target}`,
          );
        }
      }
      if (target && inside(target, 'main'))
        flag(ref, `renderer/ must not import ${target} (talk to main/ through the bridge)`);
      if (packageName(ref.specifier) === 'electron')
        flag(ref, 'renderer/ must not import "electron" (use the InspectorApi client)');
      if (isNodeBuiltin(ref.specifier) && !ref.typeOnly)
        flag(ref, `renderer/ must not import the Node builtin "${ref.specifier}"`);
    } else if (inside(file, 'main')) {
      if (packageName(ref.specifier) === 'electron' && !ref.typeOnly && !mayImportElectron(file)) {
        flag(
          ref,
          `${file} must not import "electron" (only main/electron.ts, main/preload.ts and main/electron/ may; the rest also runs in plain Node)`,
        );
      }
      if (target && inside(target, 'renderer')) flag(ref, `main/ must not import ${target}`);
    }
  }
  return violations;
}

/** Repository-relative paths of the .ts/.tsx files under `folder`. */
export function listSourceFiles(root: string, folder: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(child);
    }
  };
  walk(folder);
  return found.sort();
}

export function checkImportRules(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const folder of ['src', 'main', 'renderer']) {
    for (const file of listSourceFiles(root, folder)) {
      if (folder === 'src' && file.endsWith('.tsx')) {
        violations.push({ file, line: 1, message: 'src/ holds no .tsx files (no React in src/)' });
      }
      violations.push(...checkFileImports(file, readFileSync(path.join(root, file), 'utf8')));
    }
  }
  return violations;
}

let domNames: Set<string> | undefined;

/** Every global name lib.dom.d.ts declares (window, document, HTMLElement, localStorage...). */
function domGlobalNames(): Set<string> {
  if (domNames) return domNames;
  const libFile = path.join(path.dirname(ts.getDefaultLibFilePath({})), 'lib.dom.d.ts');
  const source = ts.createSourceFile(libFile, readFileSync(libFile, 'utf8'), ts.ScriptTarget.Latest, false);
  domNames = new Set();
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) domNames.add(declaration.name.text);
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement)) &&
      statement.name
    ) {
      domNames.add(statement.name.text);
    }
  }
  return domNames;
}

function isDeclarationName(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isShorthandPropertyAssignment(parent)) return false;
  return (
    (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
    (ts.isQualifiedName(parent) && parent.right === node) ||
    ((ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isFunctionExpression(parent) ||
      ts.isClassDeclaration(parent) ||
      ts.isClassExpression(parent) ||
      ts.isInterfaceDeclaration(parent) ||
      ts.isTypeAliasDeclaration(parent) ||
      ts.isEnumDeclaration(parent) ||
      ts.isEnumMember(parent) ||
      ts.isModuleDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isGetAccessorDeclaration(parent) ||
      ts.isSetAccessorDeclaration(parent) ||
      ts.isBindingElement(parent) ||
      ts.isTypeParameterDeclaration(parent) ||
      ts.isImportSpecifier(parent) ||
      ts.isExportSpecifier(parent) ||
      ts.isImportClause(parent) ||
      ts.isNamespaceImport(parent) ||
      ts.isLabeledStatement(parent) ||
      ts.isBreakOrContinueStatement(parent)) &&
      (parent as { name?: ts.Node }).name === node) ||
    (ts.isBindingElement(parent) && parent.propertyName === node) ||
    (ts.isImportSpecifier(parent) && parent.propertyName === node) ||
    (ts.isExportSpecifier(parent) && parent.propertyName === node) ||
    (ts.isLabeledStatement(parent) && parent.label === node) ||
    (ts.isBreakOrContinueStatement(parent) && parent.label === node)
  );
}

/** The checker answers an unresolvable type name with a placeholder symbol that has no declarations. */
function isUnresolved(symbol: ts.Symbol | undefined): boolean {
  return symbol === undefined || (symbol.declarations?.length ?? 0) === 0;
}

/**
 * Uses of DOM globals in `files` (absolute paths). The files are bound WITHOUT the DOM lib; every reference to a
 * name lib.dom.d.ts declares (window, document, HTMLElement, localStorage...) that then resolves to nothing is a
 * violation — including `globalThis.window`. Only those names are resolved, so this costs far less than a full
 * type check (tsc reports other type errors).
 */
export function findDomGlobalUses(root: string, files: readonly string[]): Violation[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    esModuleInterop: true,
    jsx: ts.JsxEmit.ReactJSX,
  });
  const checker = program.getTypeChecker();
  const dom = domGlobalNames();
  const violations: Violation[] = [];
  const checked = new Set(files.map((file) => path.resolve(file)));
  for (const source of program.getSourceFiles()) {
    if (!checked.has(path.resolve(source.fileName))) continue;
    const report = (node: ts.Node, name: string) =>
      violations.push({
        file: path.relative(root, source.fileName).split(path.sep).join('/'),
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
        message: `src/ must not use the DOM global "${name}" (src/ runs in plain Node)`,
      });
    const visit = (node: ts.Node): void => {
      if (
        ts.isPropertyAccessExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'globalThis'
      ) {
        const name = node.name.text;
        if (dom.has(name) && isUnresolved(checker.getSymbolAtLocation(node.name))) report(node, name);
      } else if (ts.isIdentifier(node) && dom.has(node.text) && !isDeclarationName(node)) {
        const symbol = ts.isShorthandPropertyAssignment(node.parent)
          ? checker.getShorthandAssignmentValueSymbol(node.parent)
          : checker.getSymbolAtLocation(node);
        if (isUnresolved(symbol)) report(node, node.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return violations;
}

export function formatViolations(violations: readonly Violation[]): string {
  return violations.map((violation) => `${violation.file}:${violation.line}: ${violation.message}`).join('\n');
}
