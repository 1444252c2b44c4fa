/**
 * Debian's Chromium (/usr/bin/chromium), headless, driven by playwright-core: how the
 * self-tests look at a report as a person would. playwright-core's own browser download cannot
 * work on this closed network, so the browser is the system package (`.ci/run` installs it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM, chromiumProblem } from './preflight.mjs';

export { CHROMIUM };

/**
 * Flags for a closed network: without the background-networking ones Chromium keeps trying
 * (and failing) to reach Google's services. playwright-core adds --headless itself.
 */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Throws a clear message when the browser is not installed. */
export function requireChromium(): void {
  const problem = chromiumProblem();
  if (problem !== undefined) throw new Error(problem);
}

/**
 * Runs `use` with a fresh headless Chromium context (its own new, empty profile folder) of the
 * given viewport; the browser is closed and the profile removed afterwards, whatever happens.
 */
export async function withChromium<T>(viewport: { width: number; height: number }, use: (context: BrowserContext) => Promise<T>): Promise<T> {
  requireChromium();
  const profile = mkdtempSync(join(tmpdir(), 'wcs-chromium-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport,
      timeout: 60_000,
      serviceWorkers: 'block',
    });
    return await use(context);
  } finally {
    await context?.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  }
}
