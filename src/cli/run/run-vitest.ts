/**
 * Runs the scenario suites through vitest's Node API (vitest's own CLI rejects the suite's
 * flags). One worker, tests of a file concurrent: the worker's single HTTP client then
 * bounds requests in flight across the whole run, as --concurrency promises.
 */
import { join, sep } from 'node:path';
import { BaseSequencer, createVitest, type TestSpecification, type Vitest } from 'vitest/node';
import type { SuiteSettings } from '../../harness/settings.ts';
import { codePath, PROJECT_ROOT, SUITES_GLOB } from '../../paths.ts';
import type { TestProgress } from './progress-reporter.ts';
import { ADAPTIVE_MAX_SLOTS } from '../../http/client.ts';
import { propertyTimeBound, SHRINK_BUDGET } from '../../harness/property.ts';

export interface VitestRunOptions {
  readonly settings: SuiteSettings;
  /** Test files to run (paths relative to the project root); all suites when empty. */
  readonly files?: readonly string[];
  /** Runs only the tests whose titles match (--only). */
  readonly testNamePattern?: RegExp;
  /** Called with the instance as soon as it exists, so a signal can cancel the run. */
  readonly onStart?: (vitest: Vitest) => void;
  /** The tests' part of the run's progress line (progress-reporter.ts): vitest's only reporter. */
  readonly progress: TestProgress;
}

/**
 * The order of the suite files: by name (or reversed, --file-order reverse), never by what an
 * earlier run left in vitest's results cache (its default sequencer puts the files that failed
 * last time first, then the slowest): no earlier run may decide this one's verdict.
 */
export function fileOrder(order: string | undefined): typeof BaseSequencer {
  return class FixedOrder extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = [...files].sort((a, b) => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0));
      const ordered = order === 'reverse' ? sorted.reverse() : sorted;
      // The format rules judge the answers every other file recorded (harness/exchange-checks.ts),
      // so their file runs after those, in either order; requests that can break the server's
      // later answers run after every file (one worker runs the files one after another): they
      // cannot change another rule's verdict.
      const late = (f: TestSpecification): boolean => FORMAT_FILE.test(f.moduleId);
      const last = (f: TestSpecification): boolean => LAST_FILE.test(f.moduleId);
      return [...ordered.filter((f) => !late(f) && !last(f)), ...ordered.filter(late), ...ordered.filter(last)];
    }
  };
}

/** The format rules' suite file, run after every other but the last (suites/format.test.ts, or its compiled form). */
const FORMAT_FILE = /[\\/]format\.test\.[jt]s$/;

/** The suite file run after every other (suites/after-all.test.ts, or its compiled form). */
const LAST_FILE = /[\\/]after-all\.test\.[jt]s$/;

/** Paths of the compiled product modules (dist/src/…): none exist when the TypeScript itself runs. */
function compiledProductCode(): RegExp {
  const prefix = join(PROJECT_ROOT, 'dist', 'src') + sep;
  return new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}

/** Runs vitest on suites/ and resolves when the run has finished (the instance is still open: close it). */
export async function runSuites(options: VitestRunOptions): Promise<Vitest> {
  const { settings } = options;
  // A test may make many requests, each bounded by the per-request timeout and the retry budget;
  // a property test runs as long as its budget allows, then shrinks, and ends its last run.
  const propertyTest = propertyTimeBound(settings) + SHRINK_BUDGET.ms + settings.timeoutMs * 10;
  const testTimeout = Math.max(60_000, settings.timeoutMs * 30 + settings.maxRetryWaitMs * (settings.maxRetries + 1), propertyTest);
  const vitest = await createVitest(
    'test',
    {
      root: PROJECT_ROOT,
      config: false,
      watch: false,
      // The compiled suites under dist/ when a bin runs this (an installed package has no other).
      include: [SUITES_GLOB],
      setupFiles: [codePath('src/harness/setup.ts')],
      provide: { suiteSettings: settings },
      // No junit reporter: the runner writes junit.xml from its own report (report/junit.ts), valid
      // for CI tools and honest about tests that never ran. No default reporter either: the
      // runner prints each finding once at the end (summary.ts); during the tests, progress only.
      reporters: [options.progress],
      pool: 'threads',
      maxWorkers: 1,
      isolate: false,
      sequence: { concurrent: true, shuffle: false, sequencer: fileOrder(settings.fileOrder) },
      // No results cache (node_modules/.vite/vitest/…/results.json): nothing of an earlier run is read or written.
      cache: false,
      // The HTTP client's limiter is what bounds requests in flight; tests only need to keep it busy.
      maxConcurrency: Math.max(8, (settings.concurrencyGiven ? settings.concurrency : Math.max(settings.concurrency, ADAPTIVE_MAX_SLOTS)) * 4),
      testTimeout,
      hookTimeout: testTimeout,
      passWithNoTests: false,
      // Transformed modules are cached on disk between runs (node_modules/.experimental-vitest-cache).
      experimental: { fsModuleCache: true },
      // The compiled product code under dist/src/ is plain ES modules: Node loads it natively, as
      // it loads node_modules, instead of vite's module runner transforming each of its files in
      // the worker. Only the suite files go through vitest's runner. Measured on the full run
      // against the embedded server: about 8% less wall and CPU time, 15 MiB less peak memory.
      server: { deps: { external: [compiledProductCode()] } },
      ...(options.testNamePattern ? { testNamePattern: options.testNamePattern } : {}),
    },
    { logLevel: 'warn' },
  );
  // Handed over before the run starts, so that a signal during the run can cancel it.
  options.onStart?.(vitest);
  await vitest.start([...(options.files ?? [])]);
  return vitest;
}
