/**
 * conformance.html as a person sees it: the suite runs against a faulty server whose strings
 * are hostile (markup in a widget name and in every Error message), then the report it wrote
 * is opened in Debian's headless Chromium (file://). The page must fetch nothing but itself,
 * show the hostile strings as text without running them, put the verdict and the failing
 * rule's expectation, answer and exchange in the first screen, and log no error. All four
 * reports must exist and carry no token.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { HttpError, ReferenceService, type Reply, type WidgetJson } from '../../src/reference/service.ts';
import type { WidgetInput } from '../../src/reference/store.ts';
import type { FailureReport, RunReport } from '../../src/report/model.ts';
import { runAgainst } from '../servers/serve.ts';
import { serve, TOKENS } from '../servers/support.ts';
import { ALL_BUT_PROPERTIES } from '../support/families.ts';
import { requireChromium, withChromium } from '../support/chromium.ts';
import { explain, type SuiteRun } from '../support/suite-runner.ts';

/** Markup a hostile server might send: each would run or restructure the page if not escaped. */
const IMG = '<img src=x onerror="window.__pwned=1">';
const SCRIPT = '<script>window.__pwned=1</script>';
const BREAKOUT = '</pre><h1>injected</h1>';
const HOSTILE = `${IMG} ${SCRIPT} ${BREAKOUT}`;

/** The faults under test: retrieve drops the description (CRUD-4), and names the widget with markup. */
const FAILING_RULE = 'CRUD-4';

/**
 * The reference service with two faults (retrieve answers the widget without its description
 * and with markup appended to its name; a number as name answers 500, so MAL-2's failure shows
 * an Error object in its exchange) whose every Error message also carries markup.
 */
class HostileService extends ReferenceService {
  protected override validateCreate(value: unknown): WidgetInput {
    if (typeof (value as { name?: unknown } | null)?.name === 'number') throw new HttpError(500, 'internal_error', 'cannot read the name');
    return super.validateCreate(value);
  }

  protected override retrieve(account: string, id: string): Reply {
    const reply = super.retrieve(account, id);
    const { description: _dropped, ...rest } = reply.body as WidgetJson;
    return { ...reply, body: { ...rest, name: `${rest.name} ${HOSTILE}` } };
  }

  protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
    super.sendError(res, requestId, new HttpError(error.status, error.code, `${error.message} ${HOSTILE}`, error.headers));
  }
}

const REPORTS = ['junit.xml', 'conformance.json', 'conformance.md', 'conformance.html'] as const;
const VIEWPORT = { width: 1280, height: 900 } as const;
const SCREENSHOT = '/tmp/conformance-report.png';
const FULL_SCREENSHOT = '/tmp/conformance-report-full.png';

describe('conformance.html in headless Chromium, after a run against a hostile, faulty server', () => {
  let run: SuiteRun;
  let report: RunReport;

  beforeAll(async () => {
    requireChromium(); // fail fast, before the suite run, with how to install it
    run = await runAgainst(serve(new HostileService()), ['--only', ALL_BUT_PROPERTIES]);
    expect(run.exitCode, explain(run)).toBe(1);
    report = JSON.parse(readFileSync(join(run.reportDir, 'conformance.json'), 'utf8')) as RunReport;
    expect(report.rules.find((r) => r.id === FAILING_RULE)?.outcome, explain(run)).toBe('fail');
  }, 120_000);

  test('the run writes all four reports, and none holds a token', () => {
    for (const name of REPORTS) {
      const file = join(run.reportDir, name);
      expect(existsSync(file), `${name} written`).toBe(true);
      const text = readFileSync(file, 'utf8');
      for (const token of TOKENS) expect(text.includes(token), `${name} holds no token`).toBe(false);
    }
    for (const token of TOKENS) expect((run.stdout + run.stderr).includes(token), 'the output holds no token').toBe(false);
  });

  test('the page fetches nothing, runs no server string, and shows the verdict and the failure in the first screen', async () => {
    const failure = report.rules.find((r) => r.id === FAILING_RULE)!.tests.flatMap((t) => t.failures ?? [])[0] as FailureReport;
    expect(failure?.expected, 'the failure has an expectation').toBeDefined();
    expect(failure.exchanges?.length, 'the failure has exchanges').toBeGreaterThan(0);
    const html = join(run.reportDir, 'conformance.html');
    const url = pathToFileURL(html).href;

    await withChromium(VIEWPORT, async (context) => {
      const requests: string[] = [];
      const refused: string[] = [];
      const consoleErrors: string[] = [];
      context.on('request', (r) => requests.push(r.url()));
      // Anything but the file itself is refused (and recorded), so nothing can leave the machine.
      await context.route('**/*', async (route) => {
        if (route.request().url() === url) return route.continue();
        refused.push(route.request().url());
        return route.abort('blockedbyclient');
      });
      const page = context.pages()[0] ?? (await context.newPage());
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));

      await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
      await page.waitForTimeout(300); // let any late load (an injected image, a font) show itself
      await page.screenshot({ path: SCREENSHOT });
      await page.screenshot({ path: FULL_SCREENSHOT, fullPage: true });

      // (a) The only request is the file itself: no http(s), no data:, nothing else.
      expect(refused, 'requests other than the report file').toEqual([]);
      expect(requests.filter((u) => u !== url), 'requests other than the report file').toEqual([]);
      const resources = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
      expect(resources, 'resources the page loaded').toEqual([]);
      expect(await page.locator('script, link, img, iframe, object, embed, video, audio, source').count(), 'no element that loads or runs anything').toBe(0);
      const source = readFileSync(html, 'utf8');
      expect(source, 'a Content-Security-Policy that forbids loading anything').toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`);
      const styles = [...source.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? '').join('\n');
      expect(styles, 'the styles fetch no font or image').not.toMatch(/url\(|@import|@font-face/);

      // (b) The hostile strings are text on the page, never markup, and nothing ran.
      expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned), 'window.__pwned').toBeUndefined();
      expect(await page.locator('h1', { hasText: 'injected' }).count(), 'an injected <h1>').toBe(0);
      // innerText: what is rendered as text, not merely present in the DOM.
      const text = await page.innerText('body');
      for (const hostile of [SCRIPT, BREAKOUT, '<img src=x onerror=']) expect(text, 'the hostile string shown as text').toContain(hostile);
      // In the failure's "received" (the widget name the server answered) ...
      expect(failure.received, 'the hostile name is what was received').toContain(SCRIPT);
      expect(text).toContain(failure.received);
      // ... and in an Error message inside a recorded exchange (a 404 of ISO-3's delete).
      expect(text, 'an Error message with markup, shown in an exchange').toMatch(/"message":"[^"]*<img src=x onerror=\\"window\.__pwned=1\\"> <script>window\.__pwned=1<\/script> <\/pre><h1>injected<\/h1>"/);

      // (c) Verdict, failing rule, expectation, answer and exchange: all in the first 1280×900 screen.
      expect(await page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY)).toBe(0);
      const inFirstScreen = async (what: string, locator: ReturnType<typeof page.locator>): Promise<void> => {
        expect(await locator.count(), `${what}: on the page`).toBeGreaterThan(0);
        await expect.poll(() => locator.first().isVisible(), { message: `${what}: visible` }).toBe(true);
        const box = await locator.first().boundingBox();
        expect(box, `${what}: laid out`).not.toBeNull();
        expect(box!.y, `${what}: top within the first screen`).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height, `${what}: bottom within the first ${VIEWPORT.height} px`).toBeLessThanOrEqual(VIEWPORT.height);
        expect(box!.x + box!.width, `${what}: within the ${VIEWPORT.width} px width`).toBeLessThanOrEqual(VIEWPORT.width);
      };
      await inFirstScreen('the verdict', page.getByText('NOT CONFORMANT', { exact: true }));
      // The first failure on the page is the first failing rule of the report, in catalogue order.
      const block = page.locator('details[data-rule]').first();
      expect(await block.getAttribute('data-rule'), 'the first failure shown').toBe(FAILING_RULE);
      await inFirstScreen(`the failing rule ${FAILING_RULE}`, block.locator('summary').getByText(FAILING_RULE, { exact: true }));
      const shownTest = block.locator('.test').first();
      await inFirstScreen('the expectation', shownTest.getByText(failure.expected!, { exact: true }));
      await inFirstScreen('what was received', shownTest.getByText(failure.received!, { exact: true }));
      const exchanges = shownTest.locator('.exchange');
      expect(await exchanges.count(), 'each exchange of the failure shown').toBe(failure.exchanges!.length);
      for (const [i, x] of failure.exchanges!.entries()) {
        const shown = exchanges.nth(i);
        await inFirstScreen(`exchange ${i + 1} (${x.request.method} ${x.request.url})`, shown);
        const shownText = (await shown.innerText()) ?? '';
        expect(shownText).toContain(`> ${x.request.method} ${x.request.url}`);
        if (x.response) {
          expect(shownText).toContain(`< HTTP ${x.response.status}`);
          expect(shownText).toContain(x.response.body.split('\n')[0] ?? '');
        }
      }

      // (d) Nothing went wrong in the page.
      expect(consoleErrors, 'console errors').toEqual([]);
    });
  }, 120_000);
});
