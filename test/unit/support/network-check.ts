/**
 * The walls around the write door, read with TypeScript's own parser: which module may reach the
 * network, evaluate code or take a writer. One module (src/http/transport.ts) opens connections;
 * the HTTP client alone opens it and hands its writer to the ledger's door alone; only the
 * modules that set a run up open a door. Nothing in src/ or suites/ names the global `fetch`
 * (or XMLHttpRequest, WebSocket, EventSource), `require`, `eval` or `Function`, imports a module
 * not on the lists below, imports a module whose name is computed, or uses `globalThis` as a
 * value its members could be read from by a computed name.
 *
 * Every list is an allow-list: a module the suite does not use yet is refused until it is added
 * here, which is the review a new way onto the network needs. What a static reading cannot see:
 * a module that reaches the network through reflection on an arbitrary object
 * (`someObject[computed]`), or a library that compiles strings into code; the allow-lists keep
 * both to the modules and packages named here.
 */
import ts from 'typescript';

/** One way around the door, found in a file. */
export interface Finding {
  readonly file: string;
  readonly line: number;
  readonly what: string;
}

/** Who may import a module's values, and which of them. */
interface Allowance {
  /** Project paths (or folders, ending in "/") whose modules may import it; "*" for every module. */
  readonly importers: readonly string[];
  /** The named bindings they may import; undefined for any named binding (never a namespace or default). */
  readonly names?: readonly string[];
  /** True when a default import is allowed too (a package whose API is its default export). */
  readonly defaultImport?: boolean;
}

/** Node's modules and packages a module of src/ or suites/ may import, by specifier (without `node:`). */
const EXTERNAL: Readonly<Record<string, readonly Allowance[]>> = {
  // The network: the transport alone; the reference server serves (it never sends), with exactly what it needs.
  undici: [{ importers: ['src/http/transport.ts'], names: ['Agent', 'request'] }],
  http: [{ importers: ['src/reference/server.ts'], names: ['createServer'] }],
  https: [{ importers: ['src/reference/server.ts'], names: ['createServer'] }],
  http2: [],
  net: [],
  tls: [],
  dgram: [],
  dns: [],
  'dns/promises': [],
  // Processes and code from text: the token command runner starts the user's command; the memory
  // valve reads V8's gc() once; the CLI loads vitest to run the suites.
  child_process: [{ importers: ['src/client/token-command.ts'], names: ['spawn'] }],
  vm: [{ importers: ['src/http/memory-valve.ts'], names: ['runInNewContext'] }],
  v8: [{ importers: ['src/http/memory-valve.ts'], names: ['setFlagsFromString'] }],
  worker_threads: [],
  cluster: [],
  inspector: [],
  repl: [],
  module: [],
  wasi: [],
  'vitest/node': [{ importers: ['src/cli/run/'] }],
  // vi (importActual, stubGlobal …) loads and replaces modules at run time: never in the suite itself.
  vitest: [{ importers: ['*'], names: ['afterAll', 'afterEach', 'beforeAll', 'beforeEach', 'describe', 'expect', 'inject', 'test'] }],
  // Plain libraries and Node modules with no way onto the network.
  fs: [{ importers: ['*'] }],
  'fs/promises': [{ importers: ['*'] }],
  path: [{ importers: ['*'] }],
  os: [{ importers: ['*'] }],
  crypto: [{ importers: ['*'] }],
  url: [{ importers: ['*'] }],
  util: [{ importers: ['*'] }],
  zlib: [{ importers: ['*'] }],
  events: [{ importers: ['*'] }],
  buffer: [{ importers: ['*'] }],
  timers: [{ importers: ['*'] }],
  'timers/promises': [{ importers: ['*'] }],
  perf_hooks: [{ importers: ['*'] }],
  // Which test's code is running (harness/test-scope.ts), for accounting and evidence; no way onto the network.
  async_hooks: [{ importers: ['src/harness/test-scope.ts'], names: ['AsyncLocalStorage'] }],
  'fast-check': [{ importers: ['*'], defaultImport: true }],
  'ajv/dist/2020.js': [{ importers: ['*'], defaultImport: true }],
  'ajv-formats': [{ importers: ['*'], defaultImport: true }],
  dotenv: [{ importers: ['*'] }],
};

/** Exports of the project's own modules that only some modules may import (the door's capabilities). */
const RESTRICTED: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  // The connections: opened by the HTTP client alone.
  'src/http/transport.ts': { openWire: ['src/http/client.ts'] },
  // A client's writer: taken by the door alone.
  'src/http/client.ts': { takeWriter: ['src/client/door.ts'] },
  // A door over a client: opened with the accounts, by the modules that set a run up.
  'src/client/door.ts': { openDoor: ['src/client/accounts.ts'] },
  'src/client/accounts.ts': { openAccounts: ['src/harness/context.ts', 'src/cli/run/runner-accounts.ts', 'src/cli/cleanup/journal.ts'] },
};

/** Globals that reach the network, load modules or turn text into code. */
const FORBIDDEN_GLOBALS = new Set(['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'require', 'eval', 'Function', 'WebAssembly', 'Reflect']);

/** The global object's names. */
const GLOBAL_OBJECTS = new Set(['globalThis', 'global']);

/** Modules that keep state on the global object under a symbol (one run context per worker). */
const GLOBAL_SLOT_MODULES = new Set(['src/harness/context.ts', 'src/harness/renewal.ts']);

/**
 * Property names that lead to a module loader, a native binding or the Function constructor
 * (`process.getBuiltinModule('node:http')`, `(() => {}).constructor('return fetch')`).
 */
const FORBIDDEN_PROPERTIES = new Set(['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen', 'mainModule', 'constructor', '__proto__', 'importActual', 'importMock']);

/** The specifier without `node:`. */
const bare = (specifier: string): string => specifier.replace(/^node:/, '');

/** The project path a relative specifier of `from` names (posix, no `./`). */
function resolveRelative(from: string, specifier: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

const allowedFor = (file: string, importers: readonly string[]): boolean => importers.some((i) => i === '*' || i === file || (i.endsWith('/') && file.startsWith(i)));

/** The value bindings an import or re-export takes from its module (type-only ones are erased and harmless). */
interface Taken {
  readonly names: string[];
  readonly namespace: boolean;
  readonly defaultImport: boolean;
}

function takenBy(node: ts.ImportDeclaration | ts.ExportDeclaration): Taken | undefined {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    // A bare `import 'x'` runs the module: as much as a namespace import.
    if (!clause) return { names: [], namespace: true, defaultImport: false };
    if (clause.isTypeOnly) return undefined;
    const names: string[] = [];
    let namespace = false;
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespace = true;
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) if (!el.isTypeOnly) names.push((el.propertyName ?? el.name).text);
    return { names, namespace, defaultImport: clause.name !== undefined };
  }
  if (node.isTypeOnly) return undefined;
  const clause = node.exportClause;
  if (!clause || ts.isNamespaceExport(clause)) return { names: [], namespace: true, defaultImport: false };
  return { names: clause.elements.filter((el) => !el.isTypeOnly).map((el) => (el.propertyName ?? el.name).text), namespace: false, defaultImport: false };
}

/** What is wrong with taking `taken` from `specifier` in `file`, if anything. */
function importProblem(file: string, specifier: string, taken: Taken): string | undefined {
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    const target = resolveRelative(file, specifier);
    const restricted = RESTRICTED[target];
    if (!restricted) return undefined;
    if (taken.namespace || taken.defaultImport) return allowedFor(file, Object.values(restricted).flat()) ? undefined : `imports all of ${target}, which holds ${Object.keys(restricted).join(', ')}: only named imports of it are allowed here`;
    const refused = taken.names.filter((name) => restricted[name] !== undefined && !allowedFor(file, restricted[name]!));
    return refused.length === 0 ? undefined : `imports ${refused.join(', ')} from ${target}: only ${refused.map((n) => restricted[n]!.join(' and ')).join('; ')} may`;
  }
  const allowances = EXTERNAL[bare(specifier)];
  if (allowances === undefined) return `imports ${JSON.stringify(specifier)}, which is not on the list of modules the suite may load (test/unit/support/network-check.ts): a new module is reviewed there first`;
  const allowance = allowances.find((a) => allowedFor(file, a.importers));
  if (!allowance) return `imports ${JSON.stringify(specifier)}: ${allowances.length === 0 ? 'no module of the suite may' : `only ${allowances.flatMap((a) => a.importers).join(', ')} may`}`;
  if (taken.namespace) return `imports all of ${JSON.stringify(specifier)} (a namespace, a bare import or export *): only named imports of it are allowed`;
  if (taken.defaultImport && !allowance.defaultImport) return `imports the default export of ${JSON.stringify(specifier)}, the whole module: only named imports of it are allowed`;
  const refused = allowance.names === undefined ? [] : taken.names.filter((n) => !allowance.names!.includes(n));
  return refused.length === 0 ? undefined : `imports ${refused.join(', ')} from ${JSON.stringify(specifier)}: only ${allowance.names!.join(', ')} may be imported here`;
}

/** True for an identifier that names something other than a variable being read (a property, a member, a label). */
function isNotAReference(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return true;
  if ((ts.isPropertyAssignment(parent) || ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) || ts.isMethodSignature(parent) || ts.isGetAccessor(parent) || ts.isSetAccessor(parent) || ts.isEnumMember(parent)) && parent.name === id) return true;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent) || ts.isNamespaceImport(parent)) return true;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return true;
  if (ts.isModuleDeclaration(parent)) return true;
  return false;
}

/** The expression inside parentheses, `as`, `satisfies`, `!` and type assertions. */
function unwrapped(node: ts.Expression): ts.Expression {
  let e = node;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  return e;
}

/** The text of a string literal or a template without substitutions, else undefined. */
function literalText(node: ts.Node | undefined): string | undefined {
  return node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

/** Every way around the door in one file of src/ or suites/ (`file` is its project path, posix). */
export function checkSource(file: string, text: string): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const add = (node: ts.Node, what: string): void => {
    findings.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
  };
  const visit = (node: ts.Node): void => {
    // Types are erased: nothing in them runs.
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
    if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined) {
      const specifier = literalText(node.moduleSpecifier)!;
      const taken = takenBy(node);
      const problem = taken === undefined ? undefined : importProblem(file, specifier, taken);
      if (problem) add(node, problem);
      return;
    }
    if (ts.isImportEqualsDeclaration(node)) {
      if (!node.isTypeOnly) add(node, '`import … = require(…)` loads a module at run time: use an import declaration');
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const specifier = literalText(node.arguments[0]);
      if (specifier === undefined) add(node, 'a dynamic import() of a module whose name is computed');
      else {
        const problem = importProblem(file, specifier, { names: [], namespace: true, defaultImport: false });
        if (problem) add(node, `a dynamic import(): ${problem}`);
      }
    }
    if (ts.isIdentifier(node) && !isNotAReference(node)) {
      if (FORBIDDEN_GLOBALS.has(node.text)) add(node, `names ${node.text}, which reaches the network, loads a module or runs text as code`);
      if (GLOBAL_OBJECTS.has(node.text) && !GLOBAL_SLOT_MODULES.has(file)) {
        const parent = node.parent;
        const member = ts.isPropertyAccessExpression(parent) && parent.expression === node ? parent.name.text : ts.isElementAccessExpression(parent) && parent.expression === node ? literalText(parent.argumentExpression) : undefined;
        if (member === undefined) add(node, `uses ${node.text} as a value: any global, fetch among them, could be read from it by a computed name`);
        else if (FORBIDDEN_GLOBALS.has(member)) add(node, `reads ${member} from ${node.text}`);
      }
    }
    if (ts.isPropertyAccessExpression(node) && FORBIDDEN_PROPERTIES.has(node.name.text)) add(node, `reads .${node.name.text}, a way to a module loader, a native binding or the Function constructor`);
    if (ts.isElementAccessExpression(node)) {
      const key = literalText(node.argumentExpression);
      if (key !== undefined && FORBIDDEN_PROPERTIES.has(key)) add(node, `reads [${JSON.stringify(key)}], a way to a module loader, a native binding or the Function constructor`);
      const of = unwrapped(node.expression);
      if (key === undefined && ts.isIdentifier(of) && of.text === 'process') add(node, 'reads a computed member of process (process.getBuiltinModule, process.binding …)');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return findings;
}
