/**
 * The command that reruns exactly one test: the run's target, the test's rule and title, the
 * same seed and runs, and every setting the outcome depends on. `npx widget-conformance`, which
 * runs the suite both in its own checkout and in a project that installed it (never `npm test`:
 * npm echoes a script's arguments, and in an installing project it runs that project's tests).
 * Tokens never appear on it: the suite reads them from WIDGET_TOKEN and WIDGET_SECOND_TOKEN.
 */
import { redactUrlCredentials } from '../http/redact.ts';
import { shQuote } from './curl.ts';

/** What of a run a rerun command repeats. */
export interface RerunSettings {
  /** The base URL; undefined for the embedded reference server. */
  readonly baseUrl?: string;
  readonly seed: number;
  readonly runs: number;
  readonly strict: boolean;
  /** The run had no second account (and was told to go on without one). */
  readonly withoutSecondToken: boolean;
  /** Settings that change what a test sees, when not their defaults: flag and value. */
  readonly extra?: ReadonlyArray<readonly [flag: string, value: string]>;
  /** The run sent --header / WIDGET_HEADERS headers: they come from the environment or .env again. */
  readonly headers?: boolean;
}

/** A shell word: as it is when it holds only characters sh takes literally, single-quoted otherwise. */
export function word(text: string): string {
  return /^[A-Za-z0-9_.,:/@%+=-]+$/.test(text) ? text : shQuote(text);
}

/** The test-name filter that matches `title` and no other: the whole title, anchored, as a /regex/. */
export function exactTitleFilter(title: string): string {
  return `/^${title.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`;
}

/** The test-name filter that picks `title` alone among `siblings` (the titles of its rule's tests in the run). */
export function titleFilter(title: string, rule: string, siblings: readonly string[]): string {
  const rest = title.startsWith(`${rule} `) ? title.slice(rule.length + 1) : title;
  // A substring reads best; an anchored expression when another title of the rule holds the same text.
  if (!siblings.some((s) => s !== title && s.includes(rest))) return rest;
  return exactTitleFilter(title);
}

/** The command that replays a failing test from its replay file (`path`, as the user names it: relative to their directory or absolute). */
export function replayCommand(path: string): string {
  return ['npx', 'widget-conformance', 'replay', word(path)].join(' ');
}

/**
 * The rerun command of one test. `rules` are the rules to select (the test's own, and for
 * evidence seen by another rule's test, that test's rule too), `title` the test to run.
 */
export function rerunCommand(settings: RerunSettings, rules: readonly string[], filter?: string): string {
  const words = ['npx', 'widget-conformance'];
  if (settings.baseUrl !== undefined) words.push('--base-url', word(redactUrlCredentials(settings.baseUrl)));
  if (settings.withoutSecondToken) words.push('--without-second-token');
  words.push('--only', word([...new Set(rules)].join(',')), ...(filter === undefined ? [] : ['--test', shQuote(filter)]), '--seed', String(settings.seed), '--runs', String(settings.runs));
  if (settings.strict) words.push('--strict');
  for (const [flag, value] of settings.extra ?? []) words.push(flag, word(value));
  return words.join(' ');
}
