/**
 * docs/contributing.md's walkthrough of adding a rule is held to the code: every path it names
 * exists, every command is a script or a file that runs, every flag is an option, every name in
 * code (`RULES`, `secondAccount`, `rule(…)`, `t.check(…)`, `t.api.remove`, `FaultCase`, …) is
 * declared in a file the same step names (or, after `t.`, on the test context rule() gives), and
 * the files it says are used are the ones used: suites declare tests with that `rule`, the fault
 * modules are the ones the self-test and the catalogue checks load, and `npm run docs` writes the
 * catalogue's table where the walkthrough says.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { OPTIONS } from '../../src/config.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { familyOf } from '../../src/rules.ts';
import { blocksIn, GENERATORS } from '../../tools/docs.ts';
import { FAULTS_BY_FAMILY } from '../servers/faults/index.ts';
import { parse, ruleCalls, visit } from './support/suite-calls.ts';

const DOC = readFileSync(join(PROJECT_ROOT, 'docs/contributing.md'), 'utf8');
const START = DOC.indexOf('**Adding a rule**');
const SECTION = DOC.slice(START, DOC.indexOf('**Adding an option:**', START));
/** The intro, then one entry per numbered step. */
const STEPS = SECTION.split(/\n(?=\d\. )/);
const SCRIPTS = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** The code spans of a text, whitespace flattened (a span may wrap). */
function spans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\s+/g, ' ').trim());
}

const isCommand = (span: string) => /^(npm|npx) /.test(span);
const isFlag = (span: string) => /^--[a-z][a-z-]*$/.test(span);
const isPath = (span: string) => !isCommand(span) && !/[\s(]/.test(span) && span.includes('/');
/** `name`, `t.a.b`, `name(…)` or `name: value`: the name path it starts with; undefined for other text. */
function codeName(span: string): string[] | undefined {
  const m = /^([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?=$|\(|:)/.exec(span);
  return m ? m[1]!.split('.') : undefined;
}

/** The families the walkthrough's `<family>` stands for: every family with a module of faults. */
const FAMILIES = Object.keys(FAULTS_BY_FAMILY);

/** The project paths a walkthrough path stands for (one per family for a `<family>` path). */
function pathsOf(span: string): string[] {
  const path = span.replace(/\/$/, '');
  return path.includes('<family>') ? FAMILIES.map((f) => path.replace('<family>', f.toLowerCase())) : [path];
}

/** What a TypeScript file declares: its exported names, and the members of each interface and class. */
interface Declared {
  readonly exported: Set<string>;
  readonly members: Map<string, Map<string, ts.TypeNode | undefined>>;
}

function declared(path: string): Declared {
  const source = parse(path);
  const exported = new Set<string>();
  const members = new Map<string, Map<string, ts.TypeNode | undefined>>();
  const isExported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  visit(source, (node) => {
    if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && node.name && isExported(node)) exported.add(node.name.text);
    if (ts.isVariableStatement(node) && isExported(node)) for (const d of node.declarationList.declarations) exported.add(d.name.getText(source));
    if (ts.isExportSpecifier(node)) exported.add(node.name.text);
    if ((ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) && node.name) {
      const own = new Map<string, ts.TypeNode | undefined>();
      for (const m of node.members) if (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) own.set(m.name.text, (m as { type?: ts.TypeNode }).type);
      members.set(node.name.text, own);
    }
  });
  return { exported, members };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}
const SOURCES = filesUnder(join(PROJECT_ROOT, 'src')).map((path) => ({ path, ...declared(path) }));

/** The members of the interface or class of this name, wherever src/ declares it. */
function membersOf(type: string): Map<string, ts.TypeNode | undefined> | undefined {
  return SOURCES.map((s) => s.members.get(type)).find((m) => m !== undefined);
}

/** Follows `a.b.c` through the declared types from `type`: true when every member exists. */
function hasMemberPath(type: string, path: readonly string[]): boolean {
  let current: string | undefined = type;
  for (const name of path) {
    const members: Map<string, ts.TypeNode | undefined> | undefined = current === undefined ? undefined : membersOf(current);
    if (!members?.has(name)) return false;
    const node: ts.TypeNode | undefined = members.get(name);
    current = node && ts.isTypeReferenceNode(node) ? node.typeName.getText() : undefined;
  }
  return true;
}

/** The type rule() gives its test body, read from rule()'s own signature. */
function contextType(): string {
  const source = parse(join(PROJECT_ROOT, 'src/harness/rule.ts'));
  let type = '';
  visit(source, (node) => {
    if (!ts.isFunctionDeclaration(node) || node.name?.text !== 'rule') return;
    const body = node.parameters.find((p) => p.name.getText(source) === 'body')?.type;
    if (body && ts.isFunctionTypeNode(body)) type = body.parameters[0]?.type?.getText(source) ?? '';
  });
  return type;
}

/** Where each relative import of a file resolves, by imported name. */
function importsOf(path: string): Array<{ names: string[]; target: string }> {
  const source = parse(path);
  return source.statements.filter(ts.isImportDeclaration).flatMap((d) => {
    const spec = (d.moduleSpecifier as ts.StringLiteral).text;
    if (!spec.startsWith('.')) return [];
    const bindings = d.importClause?.namedBindings;
    const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : [];
    return [{ names, target: resolve(dirname(path), spec) }];
  });
}

describe('docs/contributing.md: adding a rule', () => {
  it('walks through the catalogue entry, the test, the fault and the checks, with an example rule', () => {
    expect(STEPS.length).toBe(5);
    expect(SECTION).toMatch(/three files/);
  });

  it('names only paths that exist', () => {
    const missing = STEPS.flatMap(spans).filter(isPath).flatMap(pathsOf).filter((p) => !existsSync(join(PROJECT_ROOT, p)));
    expect(missing).toEqual([]);
  });

  it('names only commands that run: npm scripts of package.json, vitest on files that exist', () => {
    const commands = STEPS.flatMap(spans).filter(isCommand);
    expect(commands.length).toBeGreaterThan(0);
    const wrong = commands.filter((c) => {
      const script = /^npm (?:run (\S+)|(test))$/.exec(c);
      if (script) return SCRIPTS[script[1] ?? script[2]!] === undefined;
      const vitest = /^npx --no-install vitest run --config (\S+) (\S+)(?: -t .+)?$/.exec(c);
      return !vitest || !existsSync(join(PROJECT_ROOT, vitest[1]!)) || !existsSync(join(PROJECT_ROOT, vitest[2]!));
    });
    expect(wrong).toEqual([]);
  });

  it('names only flags the suite has', () => {
    const flags = new Set(OPTIONS.map((o) => o.flag));
    expect(STEPS.flatMap(spans).filter(isFlag).filter((f) => !flags.has(f as `--${string}`))).toEqual([]);
  });

  it('names in code only what the files of the same step declare, or the test context rule() gives (t.…)', () => {
    const context = contextType();
    expect(context).toBe('RuleContext');
    const undeclared = STEPS.flatMap((step) => {
      const files = spans(step).filter((s) => isPath(s) && s.endsWith('.ts')).flatMap(pathsOf).map((p) => declared(join(PROJECT_ROOT, p)));
      return spans(step).filter((s) => !isPath(s) && !isCommand(s)).flatMap((span) => {
        const path = codeName(span);
        if (path === undefined) return [];
        if (path[0] === 't') return hasMemberPath(context, path.slice(1)) ? [] : [span];
        const [name] = path;
        const found = files.some((f) => f.exported.has(name!) || [...f.members.values()].some((m) => m.has(name!)));
        return found ? [] : [span];
      });
    });
    expect(undeclared).toEqual([]);
  });

  it('the rule() it names is the one every suite declares its tests with', () => {
    const ruleModule = join(PROJECT_ROOT, 'src/harness/rule.ts');
    expect(SECTION).toContain('`rule` of `src/harness/rule.ts`');
    const suites = readdirSync(join(PROJECT_ROOT, 'suites')).filter((f) => f.endsWith('.test.ts')).map((f) => join(PROJECT_ROOT, 'suites', f));
    const elsewhere = suites.filter((s) => ruleCalls(s).length > 0 && !importsOf(s).some((i) => i.target === ruleModule && i.names.includes('rule')));
    expect(elsewhere.map((s) => relative(PROJECT_ROOT, s))).toEqual([]);
  });

  it('its example is where it says: PAGE tests in suites/pagination.test.ts, PAGE faults in test/servers/faults/page.ts', () => {
    expect(ruleCalls(join(PROJECT_ROOT, 'suites/pagination.test.ts')).flatMap((c) => c.ids).some((id) => familyOf(id) === 'PAGE')).toBe(true);
    const index = join(PROJECT_ROOT, 'test/servers/faults/index.ts');
    // Every family's fault module is the one the faults' index (and so the self-test) loads.
    const loaded = new Set(importsOf(index).map((i) => relative(PROJECT_ROOT, i.target)));
    expect(FAMILIES.flatMap((f) => pathsOf(`test/servers/faults/${f.toLowerCase()}.ts`)).filter((p) => !loaded.has(p))).toEqual([]);
  });

  it('the self-test and the catalogue checks it names run every fault of the faults index', () => {
    const index = join(PROJECT_ROOT, 'test/servers/faults/index.ts');
    for (const file of ['test/e2e/conformance.test.ts', 'test/unit/catalogue.test.ts']) {
      expect(SECTION, file).toContain(`\`${file}\``);
      expect(importsOf(join(PROJECT_ROOT, file)).some((i) => i.target === index && i.names.includes('ALL_FAULTS')), file).toBe(true);
    }
  });

  it('npm run docs writes the catalogue table where it says: the generated block of docs/rules.md', () => {
    expect(SECTION).toContain('`npm run docs` regenerates the catalogue\'s table in `docs/rules.md`');
    expect(GENERATORS.rules).toBeDefined();
    expect(blocksIn(readFileSync(join(PROJECT_ROOT, 'docs/rules.md'), 'utf8'))).toContain('rules');
  });
});
