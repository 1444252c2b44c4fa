/**
 * `npm run docs`: rewrites the generated blocks of README.md and docs/*.md from the code they
 * describe (the options, the exit codes, the rule catalogue), so no documented table can drift
 * from what the suite does. A block sits between `<!-- generated:NAME -->` and
 * `<!-- end generated:NAME -->`; test/unit/docs.test.ts fails while any block is out of date.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPTIONS, optionRows, type OptionDef } from '../src/config.ts';
import { EXIT_CODES } from '../src/exit-codes.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { RULES } from '../src/rules.ts';

/** A Markdown table cell: pipes escaped, line breaks folded. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

const code = (text: string): string => (text === '' ? '' : `\`${text}\``);

/** The generators, by block name. */
export const GENERATORS: Readonly<Record<string, () => string>> = {
  options: () => table(['flag', 'variable', 'default', 'meaning'], optionRows().map((r) => [code(r.usage), code(r.env), r.fallback, r.description])),
  'exit-codes': () => table(['code', 'meaning'], EXIT_CODES.map((e) => [String(e.code), e.meaning])),
  rules: () => table(['id', 'level', 'section', 'statement'], RULES.map((r) => [r.id, r.level, r.section, r.statement])),
};

const BLOCK = /(<!-- generated:([\w-]+) -->)\n?([\s\S]*?)\n?(<!-- end generated:\2 -->)/g;

/** The Markdown files that may hold generated blocks, relative to the project root. */
export function documentationFiles(root = PROJECT_ROOT): string[] {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

/** `text` with every generated block rewritten; throws on a block no generator knows. */
export function regenerate(text: string, file: string): string {
  return text.replace(BLOCK, (_all, open: string, name: string, _body: string, close: string) => {
    const generate = GENERATORS[name];
    if (generate === undefined) throw new Error(`${file}: no generator for the block "${name}" (known: ${Object.keys(GENERATORS).join(', ')})`);
    return `${open}\n${generate()}\n${close}`;
  });
}

/** The names of the generated blocks in `text`. */
export function blocksIn(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((m) => m[2]!);
}

/** How .env.example says what a variable accepts beyond its description. */
function envRange(def: OptionDef): string {
  if (def.kind === 'bool') return ': true/false, yes/no, on/off, 1/0';
  if (def.kind !== 'int' || def.max === undefined) return '';
  return def.min === -(2 ** 31) && def.max === 2 ** 31 - 1 ? ', a 32-bit integer' : `, ${def.min} to ${def.max}`;
}

/**
 * .env.example, whole, from OPTIONS: each variable under its description and default, so the
 * file cannot say of an option what --help and docs/options.md do not (test/unit/config.test.ts).
 */
export function envExample(): string {
  const rows = new Map(optionRows().map((r, i) => [OPTIONS[i], r]));
  const lines = [
    '# Widget Service conformance suite: copy to .env and fill in what you need.',
    '# Command-line flags override environment variables, which override this file.',
    '# Empty values count as unset, so the defaults below apply.',
  ];
  for (const def of OPTIONS) {
    if (!def.env) continue;
    const fallback = rows.get(def)?.fallback ?? '';
    lines.push('');
    if (def.envNote) lines.push(`# ${def.envNote}`);
    lines.push(`# ${def.description}${envRange(def)}${fallback ? ` (default: ${fallback})` : ''}`, `${def.env}=`);
  }
  return `${lines.join('\n')}\n`;
}

/** Rewrites every file's generated blocks (and .env.example) and says which files changed. */
export function syncDocs(): void {
  const envFile = join(PROJECT_ROOT, '.env.example');
  const envChanged = readFileSync(envFile, 'utf8') !== envExample();
  if (envChanged) writeFileSync(envFile, envExample());
  const changed = documentationFiles().filter((file) => {
    const path = join(PROJECT_ROOT, file);
    const before = readFileSync(path, 'utf8');
    const after = regenerate(before, file);
    if (after !== before) writeFileSync(path, after);
    return after !== before;
  });
  if (envChanged) changed.push('.env.example');
  process.stdout.write(changed.length === 0 ? 'docs: every generated block is up to date\n' : `docs: rewrote ${changed.join(', ')}\n`);
}
