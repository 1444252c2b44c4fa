/**
 * `npm run docs`: rewrites the generated blocks of README.md and docs/*.md from the code they
 * describe (the options, the exit codes, the rule catalogue), so no documented table can drift
 * from what the suite does. A block sits between `<!-- generated:NAME -->` and
 * `<!-- end generated:NAME -->`; test/unit/docs.test.ts fails while any block is out of date.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { optionRows } from '../src/config.ts';
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

/** Rewrites every file's generated blocks and says which files changed. */
export function syncDocs(): void {
  const changed = documentationFiles().filter((file) => {
    const path = join(PROJECT_ROOT, file);
    const before = readFileSync(path, 'utf8');
    const after = regenerate(before, file);
    if (after !== before) writeFileSync(path, after);
    return after !== before;
  });
  process.stdout.write(changed.length === 0 ? 'docs: every generated block is up to date\n' : `docs: rewrote ${changed.join(', ')}\n`);
}
