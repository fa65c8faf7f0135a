/**
 * DOM globals in src/ — the one layering rule ESLint does not check (it needs the type checker): src/ is bound
 * without the DOM lib and every name lib.dom.d.ts declares that then resolves to nothing is a violation. The import
 * rules of the layers are ESLint rules (eslint.config.js), tested in test/unit/lint.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Violation {
  /** Repository-relative path with forward slashes. */
  file: string;
  line: number;
  message: string;
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
