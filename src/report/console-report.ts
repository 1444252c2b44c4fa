/**
 * The run's findings as a CI log shows them, rendered from the run report (so they say what every
 * other format says): each failure once, with its evidence (expected and received, the redacted
 * exchanges in short, the last request's curl and what became of the widget it names, the replay
 * and rerun commands), a second attempt as one line under it,
 * then one line for each known (baselined) failure, warning, inconclusive rule and suite error,
 * each marked for what it is: never ✓, and FAIL only for a failure that fails the run. Every
 * line is bounded (LINE_MAX characters, "…, full text in conformance.md") and every block too:
 * the rest is in the reports. No JSON is dumped. Server text is escaped for a terminal
 * (console.ts consoleSafe) before colour, which is the suite's own, is added.
 */
import { formatExchange, type Exchange } from '../shared/exchange.ts';
import { consoleSafe } from './console.ts';
import { idInUrl } from './exchange-ids.ts';
import type { FailureReport, RuleReport, RunReport, TestReport } from './model.ts';
import { cutShortNote } from './verdict.ts';

/** The longest line the console prints; longer text is cut and points at the reports. */
export const LINE_MAX = 300;
/** Failing tests shown in full per rule (evidence, exchanges, replay); the next few in one line each; the rest counted. */
const TESTS_SHOWN = 1;
const TESTS_LISTED = 2;
/** The widest line of a replay command: it is split at its options into lines this long, each ending in `\`. */
const REPLAY_WIDTH = 160;
/** Exchanges shown per failure (the last ones: the failing request is usually the last). */
const EXCHANGES_SHOWN = 2;
/** Lines of an expected/received/note text shown. */
const TEXT_LINES = 4;

/** Colour of the suite's own marks and words; none unless asked (colour.ts decides). */
export interface Paint {
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly magenta: (s: string) => string;
  readonly bold: (s: string) => string;
}

const plain = (s: string): string => s;
/** No colour. */
export const NO_PAINT: Paint = { red: plain, green: plain, yellow: plain, magenta: plain, bold: plain };

/** ANSI colours. */
export const ANSI_PAINT: Paint = {
  red: (s) => `\u001b[31m${s}\u001b[39m`,
  green: (s) => `\u001b[32m${s}\u001b[39m`,
  yellow: (s) => `\u001b[33m${s}\u001b[39m`,
  magenta: (s) => `\u001b[35m${s}\u001b[39m`,
  bold: (s) => `\u001b[1m${s}\u001b[22m`,
};

/** One line of text, escaped for a terminal and cut at `max` characters with a pointer to the reports. */
export function boundedLine(text: string, max = LINE_MAX, where = 'conformance.md'): string {
  // Escaped first (a CR shows as \x0d), then folded into one line at its newlines.
  const safe = consoleSafe(text).replace(/\n/g, ' ⏎ ').replace(/\t/g, ' ');
  const tail = `…, full text in ${where}`;
  if (safe.length <= max) return safe;
  // Never cut a surrogate pair in two.
  return `${safe.slice(0, max - tail.length).replace(/[\uD800-\uDBFF]$/, '')}${tail}`;
}

/** Up to `lines` lines of a multi-line text, each bounded, indented; the rest counted. */
function textBlock(label: string, text: string, indent: string, lines = TEXT_LINES): string[] {
  const all = text.split(/\r\n|\r|\n/).filter((l) => l.trim() !== '');
  if (all.length === 0) return [`${indent}${label}: (empty)`];
  const shown = all.slice(0, lines).map((l, i) => boundedLine(`${indent}${i === 0 ? `${label}: ` : ' '.repeat(label.length + 2)}${l.trim()}`));
  if (all.length > lines) shown.push(`${indent}${' '.repeat(label.length + 2)}(${all.length - lines} more lines in conformance.md)`);
  return shown;
}

/** An exchange in two or three lines: the request line (and its body, in one line), the answer's status line and body, in one line each. */
function exchangeLines(x: Exchange, indent: string): string[] {
  const lines = formatExchange(x, '').split('\n');
  const request = lines[0] ?? '';
  const requestBody = lines.filter((l) => l.startsWith('> ') && lines.indexOf(l) > 0 && !/^> [\w-]+: /.test(l)).map((l) => l.slice(2)).join(' ');
  const out = [boundedLine(`${indent}${request}`)];
  if (requestBody.trim() !== '') out.push(boundedLine(`${indent}> body: ${requestBody.trim()}`, LINE_MAX, 'conformance.html'));
  const status = lines.find((l) => l.startsWith('< HTTP ') || l.startsWith('< no response'));
  if (status) out.push(boundedLine(`${indent}${status}`));
  const at = lines.indexOf('<');
  if (at >= 0) {
    const body = lines.slice(at + 1).map((l) => l.replace(/^< /, '')).join(' ').replace(/\s+/g, ' ').trim();
    if (body !== '') out.push(boundedLine(`${indent}< body: ${body}`, LINE_MAX, 'conformance.html'));
  }
  return out;
}

/** What became of a widget of the run by the end: kept (--keep-failing), left (not proven gone), or deleted. */
type Fate = (id: string) => 'kept' | 'left' | 'deleted';

/** The fate of each widget by the run's cleanup account (cleanup.kept and cleanup.leftovers name every id not deleted). */
function fateOf(report: RunReport): Fate {
  const kept = new Set((report.cleanup.kept ?? []).map((k) => k.id));
  const left = new Set(report.cleanup.leftovers.map((l) => l.id));
  return (id) => (kept.has(id) ? 'kept' : left.has(id) ? 'left' : 'deleted');
}

/**
 * What a curl command of a failure will meet when pasted now: the widget its request names, when
 * it is one of the run's, was deleted by the run (or kept, or left), so the answer differs from
 * the run's unless it was kept. Said from the run's own records (the failure's runWidgets, the
 * cleanup's kept and leftovers), never from what the server answered.
 */
function widgetNote(f: FailureReport, request: Exchange, fate: Fate, replay: boolean): string | undefined {
  const id = idInUrl(request.request.url);
  if (id === undefined || !(f.runWidgets ?? []).includes(id)) return undefined;
  const shown = JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id);
  const again = !replay ? '' : '; the replay command below runs the test again, its widgets made afresh';
  switch (fate(id)) {
    case 'kept': return `(the widget it names, ${shown}, was kept by --keep-failing: the command meets it as the run left it)`;
    case 'left': return `(the widget it names, ${shown}, was not proven gone at cleanup: see the Cleanup line${again})`;
    case 'deleted': return `(the widget it names, ${shown}, was deleted by the run: sent now, the request gets the answer for a deleted widget${again})`;
  }
}

/** The evidence of one failure: expected, received, note, the last exchanges, the replay of the last request. */
function failureLines(f: FailureReport, indent: string, fate: Fate = () => 'deleted', replay = false): string[] {
  const out: string[] = [];
  if (f.expected === undefined && f.received === undefined) out.push(...textBlock('message', f.message, indent));
  if (f.expected !== undefined) out.push(...textBlock('expected', f.expected, indent));
  if (f.received !== undefined) out.push(...textBlock('received', f.received, indent));
  if (f.note) {
    // A command in the note (a property's `replay: npm test -- … --seed N`) is shown whole, never folded away.
    const lines = f.note.split(/\r\n|\r|\n/);
    const commands = lines.filter((l) => /^(replay|rerun): /.test(l.trim()));
    const rest = lines.filter((l) => !commands.includes(l)).join('\n');
    if (rest.trim() !== '') out.push(...textBlock('note', rest, indent, 2));
    for (const c of commands) out.push(boundedLine(`${indent}${c.trim()}`));
  }
  const xs = f.exchanges ?? [];
  if (xs.length > 0) {
    const from = Math.max(0, xs.length - EXCHANGES_SHOWN);
    out.push(`${indent}exchange${xs.length > EXCHANGES_SHOWN ? `s (last ${EXCHANGES_SHOWN} of ${xs.length}; all in conformance.html)` : xs.length > 1 ? 's' : ''}:`);
    for (const x of xs.slice(from)) out.push(...exchangeLines(x, `${indent}  `));
    const curl = f.curl?.[xs.length - 1];
    if (curl) {
      out.push(`${indent}curl (the last request; tokens from the environment):`, ...replayLines(curl, `${indent}  `));
      const note = widgetNote(f, xs[xs.length - 1]!, fate, replay);
      if (note) out.push(boundedLine(`${indent}  ${note}`));
    }
  }
  return out;
}

/** Splits a shell command at the spaces outside quotes that precede an option (`--x`) or a pipe. */
function shellWords(command: string): string[] {
  const parts: string[] = [];
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (quote === '"' && c === '\\') i += 1;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === ' ' && (command.startsWith(' --', i) || command.startsWith(' | ', i))) {
      parts.push(command.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(command.slice(start));
  return parts;
}

/**
 * A replay command whole (a cut command would not run), in lines of at most REPLAY_WIDTH
 * characters joined by `\`: split only between options, outside quotes. A single option longer
 * than that (a long body) is cut, and the full command is in conformance.md.
 */
export function replayLines(command: string, indent: string): string[] {
  const flat = command.replace(/\s*\\\n\s*/g, ' ');
  const lines: string[] = [];
  let current = '';
  for (const word of shellWords(flat)) {
    if (current !== '' && current.length + 1 + word.length > REPLAY_WIDTH) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(current);
  const cut = lines.some((l) => consoleSafe(l).length > LINE_MAX - indent.length - 4);
  const shown = lines.map((l, i) => boundedLine(`${indent}${i === 0 ? '' : '  '}${l}${i < lines.length - 1 ? ' \\' : ''}`));
  return cut ? [...shown, `${indent}(cut: the whole command is in conformance.md)`] : shown;
}

/** The rerun command E's work attaches to a test or a failure, when there is one. */
function rerunOf(t: TestReport): string | undefined {
  const own = (t as { rerun?: unknown }).rerun;
  if (typeof own === 'string') return own;
  for (const f of t.failures ?? []) {
    const r = (f as { rerun?: unknown }).rerun;
    if (typeof r === 'string') return r;
  }
  return undefined;
}

/** What the second attempt showed, in one line, or nothing when the rule was not rechecked. */
export function secondAttemptLine(rule: RuleReport): string | undefined {
  const a = rule.secondAttempt;
  if (!a) return undefined;
  if (rule.intermittent) return `intermittent: ${rule.outcome === 'fail' ? 'failed' : 'warned'} on the first attempt, ${a.outcome === 'pass' ? 'passed' : a.outcome} on the second (same seed); still a ${rule.outcome === 'fail' ? 'failure' : 'warning'}`;
  if (a.outcome === rule.outcome) return `same on the second attempt (same seed)`;
  return `second attempt (same seed): ${a.outcome}`;
}

/** One failed rule, once: its heading, then each failing test's evidence (the first TESTS_SHOWN), then the second attempt. */
function failureBlock(rule: RuleReport, paint: Paint, fate: Fate): string[] {
  const failing = rule.tests.filter((t) => t.outcome === 'fail');
  const out = [`${paint.red('✗ FAIL')} ${boundedLine(`${rule.id} (${rule.level}, ${rule.section}): ${rule.statement}`)}`];
  for (const t of failing.slice(0, TESTS_SHOWN)) {
    out.push(boundedLine(`    test: ${t.title}`));
    const failures = t.failures ?? [];
    if (failures.length === 0) out.push(...textBlock('message', (t.errors ?? []).join('\n') || `${rule.id} failed`, '      '));
    for (const f of failures.slice(0, 1)) out.push(...failureLines(f, '      ', fate, t.replay !== undefined));
    if (failures.length > 1) out.push(`      (${failures.length - 1} more failure${failures.length === 2 ? '' : 's'} of this test in conformance.md)`);
    // The one command that reproduces the failure, then the rerun with the whole report.
    if (t.replay) out.push(boundedLine(`      replay: ${t.replay.command}`));
    const rerun = rerunOf(t);
    if (rerun) out.push(boundedLine(`      rerun: ${rerun}`));
  }
  // The next failing tests in one line each: what they received, and their replay.
  for (const t of failing.slice(TESTS_SHOWN, TESTS_SHOWN + TESTS_LISTED)) {
    const f = t.failures?.[0];
    const replay = t.replay ? ` (replay: ${t.replay.command})` : '';
    out.push(`${boundedLine(`    also: ${t.title}${f?.received !== undefined ? `: received ${f.received.split('\n')[0]}` : ''}`, Math.max(120, LINE_MAX - replay.length))}${consoleSafe(replay)}`);
  }
  const rest = failing.length - TESTS_SHOWN - TESTS_LISTED;
  if (rest > 0) out.push(`    (${rest} more failing test${rest === 1 ? '' : 's'} of ${rule.id} in conformance.md and conformance.html)`);
  const second = secondAttemptLine(rule);
  if (second) out.push(`    ${rule.intermittent ? paint.yellow(second) : second}`);
  return out;
}

/** The first thing said against a rule, in one line: what it received, its warning, its error. */
function firstWords(rule: RuleReport): string {
  for (const t of rule.tests) {
    const f = t.failures?.[0];
    if (t.outcome === rule.outcome && f) return f.received !== undefined ? `${t.title}: received ${f.received}` : `${t.title}: ${f.message}`;
    const w = t.warnings?.[0] ?? t.errors?.[0];
    if (t.outcome === rule.outcome && w) return w;
  }
  return rule.statement;
}

/** A warning without the rule's id, level and statement it opens with: the line names the rule already. */
function withoutStatement(rule: RuleReport, warning: string): string {
  const at = warning.indexOf(rule.statement);
  if (!warning.startsWith(rule.id) || at < 0) return warning;
  return warning.slice(at + rule.statement.length).replace(/^\s*\|\s*/, '');
}

/** The run's findings, each rule once in the section its outcome puts it in. */
export function renderFindings(report: RunReport, paint: Paint = NO_PAINT): string[] {
  const out: string[] = [];
  const failed = report.rules.filter((r) => r.outcome === 'fail' && !r.baselined);
  const known = report.rules.filter((r) => r.outcome === 'fail' && r.baselined);
  const warned = report.rules.filter((r) => r.outcome === 'warn');
  const inconclusive = report.rules.filter((r) => r.outcome === 'inconclusive');
  const errored = report.rules.filter((r) => r.outcome === 'error');
  if (failed.length > 0) {
    out.push(`Failures (${failed.length}; each once, every exchange in conformance.html):`);
    const fate = fateOf(report);
    for (const r of failed) out.push(...failureBlock(r, paint, fate));
  }
  if (known.length > 0) {
    out.push(`Known failures (in the baseline, not failing the run): ${known.map((r) => r.id).join(', ')}`);
    for (const r of known) {
      out.push(`  ${paint.magenta('~ KNOWN')} ${boundedLine(`${r.id.padEnd(7)} ${r.level.padEnd(6)} ${firstWords(r)}`)}`);
      const second = secondAttemptLine(r);
      if (second) out.push(`      ${second}`);
    }
  }
  if (warned.length > 0) {
    out.push('Warnings (SHOULD; --strict makes them fail):');
    for (const r of warned) {
      const warnings = r.tests.flatMap((t) => t.warnings ?? []).map((w) => withoutStatement(r, w));
      const distinct = [...new Set(warnings)];
      const more = warnings.length > 1 ? ` (${warnings.length} warnings in all${distinct.length < warnings.length ? `, ${distinct.length} distinct` : ''}: conformance.md)` : '';
      out.push(`  ${paint.yellow('! WARN')} ${boundedLine(`${r.id.padEnd(7)} ${r.level.padEnd(6)} ${distinct[0] ?? firstWords(r)}`, LINE_MAX - more.length - 9)}${more}`);
      const second = secondAttemptLine(r);
      if (second) out.push(`      ${second}`);
    }
  }
  if (inconclusive.length > 0) {
    // Most often a broken rule they depend on; a test that observed nothing, or a problem of the suite, says so in its own note.
    const why = inconclusive.every((r) => (r.inconclusive?.dependsOn.length ?? 0) > 0) ? 'something they depend on is broken' : 'each says why';
    out.push(`Inconclusive (no verdict: ${why}):`);
    for (const r of inconclusive) out.push(boundedLine(`  ${r.id.padEnd(7)} ${r.level.padEnd(6)} ${(r.inconclusive?.note ?? firstWords(r)).split('\n')[0] ?? ''}`));
  }
  if (errored.length > 0) {
    out.push('Suite errors (no verdict):');
    for (const r of errored) out.push(boundedLine(`  ${r.id.padEnd(7)} ${r.level.padEnd(6)} ${r.tests.filter((t) => t.outcome === 'error').map((t) => (t.errors?.[0] ?? t.title).split('\n')[0]).join('; ')}`));
  }
  const cut = report.verdictDetail.cutShort;
  if (cut.length > 0) {
    out.push('Passed, but cut short (not a full verdict):');
    for (const c of cut) out.push(boundedLine(`  ${paint.yellow('⏱')} ${c.rule.padEnd(7)} ${cutShortNote(c.runs)}: ${c.test}`));
  }
  return out;
}

/** The verdict line every run ends with: the verdict's label (verdict.ts), its word coloured. */
export function verdictLine(report: RunReport, paint: Paint = NO_PAINT, suffix = ''): string {
  const v = report.verdictDetail;
  const colour = v.kind === 'conformant' ? paint.green : v.kind === 'not-conformant' ? paint.red : v.kind === 'partial' ? paint.yellow : paint.magenta;
  const rest = consoleSafe(v.label.slice(v.headline.length));
  return `Verdict: ${colour(paint.bold(v.headline))}${boundedLine(`${rest}${suffix}`, 900)}`;
}
