/**
 * The suites' `rule(…)` calls as TypeScript's parser reads them: the ids each declares tests of
 * (a literal id, or for a call in a loop, `rule(c.rule, …)`, the `rule: 'ID'` entries of the data
 * it loops over), and whether its body uses the second account. For the catalogue's static checks
 * (test/unit/catalogue.test.ts) and the contributing walkthrough's (test/unit/contributing.test.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../../src/paths.ts';

const SUITES = join(PROJECT_ROOT, 'suites');

/** One `rule(…)` call of a suite: the ids it declares tests of, and whether its body uses the second account. */
export interface RuleCall {
  readonly file: string;
  /** The first argument as written. */
  readonly first: string;
  readonly ids: readonly string[];
  /** The first argument was neither a literal id nor `<x>.rule` over data: the coverage checks cannot read it. */
  readonly unresolved: boolean;
  readonly usesSecond: boolean;
  /** Its body asks whether the run has a second account (`secondToken`) before using it. */
  readonly asksSecond: boolean;
}

/** A TypeScript file as TypeScript's parser reads it. */
export function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** Calls `each` on `node` and every node under it. */
export function visit(node: ts.Node, each: (node: ts.Node) => void): void {
  each(node);
  node.forEachChild((child) => visit(child, each));
}

function literalText(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

/** `rule: 'ID'` entries of object literals in a suite and in the suite-local modules it imports (the data a loop runs over). */
function ruleEntries(path: string, seen = new Set<string>()): Set<string> {
  const ids = new Set<string>();
  if (seen.has(path)) return ids;
  seen.add(path);
  const source = parse(path);
  visit(source, (node) => {
    if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'rule') {
      const id = literalText(node.initializer);
      if (id !== undefined) ids.add(id);
    }
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.startsWith('.')) {
      const target = resolve(dirname(path), node.moduleSpecifier.text);
      // Only the suites' own data modules: the harness and src/ hold no test declarations.
      if (!relative(SUITES, target).startsWith('..')) for (const id of ruleEntries(target, seen)) ids.add(id);
    }
  });
  return ids;
}

/** Whether `body` (a rule's test function) reads `<its context>.second`, and whether it reads `secondToken` (asking whether the run has one). */
function secondAccountUse(body: ts.Node | undefined): { usesSecond: boolean; asksSecond: boolean } {
  const use = { usesSecond: false, asksSecond: false };
  if (!body || !(ts.isArrowFunction(body) || ts.isFunctionExpression(body))) return use;
  const context = body.parameters[0]?.name;
  visit(body, (node) => {
    if (!ts.isPropertyAccessExpression(node)) return;
    if (node.name.text === 'secondToken') use.asksSecond = true;
    if (node.name.text === 'second' && context && ts.isIdentifier(context) && ts.isIdentifier(node.expression) && node.expression.text === context.text) use.usesSecond = true;
  });
  return use;
}

/** Every `rule(…)` call of a suite file (not `x.rule(…)`), its first argument resolved to ids. */
export function ruleCalls(path: string): RuleCall[] {
  const source = parse(path);
  const file = relative(PROJECT_ROOT, path);
  const calls: RuleCall[] = [];
  let data: Set<string> | undefined;
  visit(source, (node) => {
    if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'rule') return;
    const [arg, , body] = node.arguments;
    const first = arg?.getText(source) ?? '';
    const literal = literalText(arg);
    const overData = arg !== undefined && ts.isPropertyAccessExpression(arg) && arg.name.text === 'rule' && ts.isIdentifier(arg.expression);
    if (overData) data ??= ruleEntries(path);
    const ids = literal !== undefined ? [literal] : overData ? [...(data ?? [])] : [];
    calls.push({ file, first, ids, unresolved: literal === undefined && !overData, ...secondAccountUse(body) });
  });
  return calls;
}
