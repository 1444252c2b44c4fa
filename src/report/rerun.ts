/**
 * The commands the suite prints for a user to paste: the one that reruns exactly one test (the
 * run's target, the test's rule and title, the same seed and runs, and every setting the outcome
 * depends on), the one that replays a failing test from its replay file, and the suite command
 * they start with. That command never fetches a package: `node <the checkout's bin>` where the run
 * came from a checkout of the suite, `npx --no-install widget-conformance` where the package is
 * installed (it runs the project's own copy, or fails without installing anything: pasted where
 * the package is absent, a plain `npx widget-conformance` would ask the public registry for that
 * name, and install whatever is published under it without asking when there is no terminal).
 * Never `npm test`: npm echoes a script's arguments, and in an installing project it runs that
 * project's tests. Tokens never appear on a command: the suite reads them from WIDGET_TOKEN and
 * WIDGET_SECOND_TOKEN.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { redactUrlCredentials } from '../shared/redact.ts';
import { displayPath, PROJECT_ROOT, userDirectory } from '../paths.ts';
import { shQuote } from './curl.ts';

/** The command a package install runs the suite with: the project's own copy, never the registry's. */
export const INSTALLED_COMMAND = 'npx --no-install widget-conformance';

/** The suite command for a checkout's bin (as the user reaches it), or for an installed package when there is none. */
export function suiteCommand(checkoutBin: string | undefined): string {
  return checkoutBin === undefined ? INSTALLED_COMMAND : `node ${word(checkoutBin)}`;
}

/** The suite command of this process for the user in `directory`: its checkout's bin when it runs from one (src/ beside it), else the installed package's. */
export function localSuiteCommand(directory: string = userDirectory(process.env)): string {
  const checkout = existsSync(join(PROJECT_ROOT, 'src'));
  return suiteCommand(checkout ? displayPath(join(PROJECT_ROOT, 'bin', 'widget-conformance.mjs'), directory) : undefined);
}

/** What of a run a rerun command repeats. */
export interface RerunSettings {
  /** The suite command the line starts with (suiteCommand). */
  readonly command: string;
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
export function replayCommand(command: string, path: string): string {
  return `${command} replay ${word(path)}`;
}

/**
 * The rerun command of one test. `rules` are the rules to select (the test's own, and for
 * evidence seen by another rule's test, that test's rule too), `title` the test to run.
 */
export function rerunCommand(settings: RerunSettings, rules: readonly string[], filter?: string): string {
  const words = [settings.command];
  if (settings.baseUrl !== undefined) words.push('--base-url', word(redactUrlCredentials(settings.baseUrl)));
  if (settings.withoutSecondToken) words.push('--without-second-token');
  words.push('--only', word([...new Set(rules)].join(',')), ...(filter === undefined ? [] : ['--test', shQuote(filter)]), '--seed', String(settings.seed), '--runs', String(settings.runs));
  if (settings.strict) words.push('--strict');
  for (const [flag, value] of settings.extra ?? []) words.push(flag, word(value));
  return words.join(' ');
}
