/** --help and the option rows docs/options.md shows: made from the option table, never written by hand. */
import { EXIT_CODES } from '../exit-codes.ts';
import { OPTIONS, type OptionDef } from './options.ts';

/** The subcommands of `widget-conformance`, as --help lists them (bin/widget-conformance.mjs dispatches them). */
export const SUBCOMMANDS = [
  { name: 'replay', args: 'FILE', does: 'runs one failing test again from its replay file (reports/replay/*.json): one line, exit 1 when it fails again' },
  { name: 'cleanup', args: '[options]', does: 'deletes widgets left behind by killed runs' },
  { name: 'compare', args: 'RUN… --out DIR', does: 'lines up runs rule by rule (matrix.html, matrix.md)' },
  { name: 'verify', args: 'DIR', does: 'checks that a report bundle is whole and unaltered' },
  { name: 'serve', args: '[options]', does: 'runs the reference server (--latency, --rate-limit: slow or limited)' },
] as const;

const SUBCOMMAND_WIDTH = Math.max(...SUBCOMMANDS.map(({ name, args }) => `widget-conformance ${name} ${args}`.length));

/** One row per option, as --help and the generated options table in docs/options.md show it. */
export interface OptionRow {
  readonly usage: string;
  readonly env: string;
  readonly fallback: string;
  readonly description: string;
}

/** Every option's row: its flag with argument, variable, default and description (with its range). */
export function optionRows(): OptionRow[] {
  return OPTIONS.map((def) => ({ usage: usageOf(def), env: def.env ?? '', fallback: defaultOf(def), description: `${def.description}${rangeOf(def)}` }));
}

/** The --help text: every option with its variable, default and meaning, then the exit codes. */
export function helpText(): string {
  const rows = optionRows().map((r) => [r.usage, r.env, r.fallback] as const);
  const flagWidth = Math.max(...rows.map(([flag]) => flag.length));
  const envWidth = Math.max(...rows.map(([, env]) => env.length));
  const line = ([flag, env, fallback]: readonly [string, string, string]) =>
    `  ${flag.padEnd(flagWidth)}  ${env.padEnd(envWidth)}  ${fallback}`.trimEnd();

  return [
    'Usage: widget-conformance [options]           (in a checkout of the suite: npm test -- [options])',
    ...SUBCOMMANDS.map(({ name, args, does }) => `       ${`widget-conformance ${name} ${args}`.padEnd(SUBCOMMAND_WIDTH)}  ${does}`),
    '       (each subcommand takes --help; in a checkout of the suite: npm run <subcommand> -- …)',
    '',
    'Checks a Widget Service deployment against the conformance rules.',
    'Without --base-url the suite runs against its embedded reference server.',
    '',
    line(['Option', 'Variable', 'Default']),
    ...optionRows().flatMap((row, i) => [line(rows[i]!), `      ${row.description}`]),
    '',
    'Settings are taken from flags first, then environment variables, then a .env',
    'file in the directory you ran the command from, then the defaults. Empty variables',
    'count as unset. Relative paths (--report-dir, --baseline) are taken from that',
    'directory too: under npm, the one npm was started in (even with npm --prefix).',
    '',
    'Exit codes:',
    ...EXIT_CODES.map(({ code, meaning }) => `  ${String(code).padEnd(3)}  ${meaning}`),
    '',
  ].join('\n');
}

/** How an option is written on the command line: `-h, --help`, `--runs <n>`. */
export function usageOf(def: OptionDef): string {
  const names = def.short ? `${def.short}, ${def.flag}` : def.flag;
  return 'arg' in def ? `${names} <${def.arg}>` : names;
}

function rangeOf(def: OptionDef): string {
  return def.kind === 'int' && def.max !== undefined ? ` (${def.min} to ${def.max})` : '';
}

function defaultOf(def: OptionDef): string {
  if (def.defaultText !== undefined) return def.defaultText;
  if (def.kind === 'flag') return '';
  if (def.kind === 'bool') return def.default ? 'on' : 'off';
  return String(def.default);
}
