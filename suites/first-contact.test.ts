/**
 * Accounts before their first widget (src/harness/first-contact.ts): the runner lists each
 * account, retrieves an id it made up and deletes it, before any test creates anything. Every
 * other test creates first, so a server that answers 500 (or a page with an empty object) while
 * an account has never held a widget is caught only here. PAGE-6, CRUD-5 and DEL-3 judge the
 * answers, for each account the run has.
 */
import { expectNoIssues, jsonBody } from '../src/harness/checks.ts';
import { explainedBy } from '../src/harness/failure.ts';
import { answered, readFirstContact, type Checked, type FirstAnswer, type FirstContact, type NoAnswer } from '../src/harness/first-contact.ts';
import { rule, type RuleContext } from '../src/harness/rule.ts';
import type { SchemaName } from '../src/schema.ts';
import { OverCapError } from '../src/harness/api.ts';

/** The recorded answers; an error (never a pass) when the runner recorded none. */
function contacts(t: RuleContext): FirstContact[] {
  const recorded = readFirstContact(t.settings.statsDir);
  if (recorded === undefined || recorded.length === 0) throw new Error('the runner recorded no first-contact answers: nothing to judge');
  return recorded;
}

const before = (c: FirstContact): string => `the ${c.account} account before the run created anything`;

/** The answer, or a failure of the rule when the request got none in full (a timeout): a hang is the rule's to judge. */
function answerTo(t: RuleContext, a: FirstAnswer | NoAnswer, expected: string): FirstAnswer {
  if (answered(a)) return a;
  return t.fail({ expected, received: `no complete answer: ${a.noAnswer}` });
}

/** Fails with the issues the runner found checking the body as received against the schema (first-contact.ts checks it, for the rules). */
function expectChecked(t: RuleContext, name: SchemaName, checked: Checked | undefined, res: FirstAnswer, what: string): void {
  if (checked === undefined) throw new Error(`the runner recorded no ${name} schema check of ${what}: a problem of the suite (please report it)`);
  expectNoIssues(t, name, checked.issues, checked.total, res, what);
}

rule('PAGE-6', 'a list of each account before the run created anything in it answers a valid page', async (t) => {
  for (const c of contacts(t)) {
    const res = answerTo(t, c.list, `a 2xx page for a list of ${before(c)}`);
    // Only a prefix of a page over the body cap was read, and no limit was sent to judge its size
    // against: a default page may be that large lawfully, so no rule is known broken (PAGE-1
    // judges over-cap pages of the walks, at the limits they send). A limit of the suite, said as such.
    if (res.truncated) throw new OverCapError(`the list of ${before(c)} was larger than the body cap, so only its first part was read: whether it is a valid page cannot be judged within the cap (${res.jsonError ?? 'cut at the cap'})`);
    t.check(res.status >= 200 && res.status < 300, () => ({
      expected: `a 2xx page for a list of ${before(c)}`,
      received: `${res.status}`,
      exchanges: [res.exchange],
    }));
    jsonBody(t, res, `the page of ${before(c)}`);
    expectChecked(t, 'page', res.checks.page, res, `the page of ${before(c)}`);
    // The page's own fields first; the items must be Widgets too (an empty object is none): the first that is not fails.
    if (res.checks.widget) expectChecked(t, 'widget', res.checks.widget, res, `a Widget on the page of ${before(c)}`);
  }
});

rule('CRUD-5', 'retrieve of an unknown id in each account before the run created anything answers an Error object with a 4xx', async (t) => {
  for (const c of contacts(t)) {
    const res = answerTo(t, c.retrieve, `a 4xx for an unknown id in ${before(c)}`);
    t.check(res.status >= 400 && res.status < 500, () => ({
      expected: `a 4xx for an unknown id in ${before(c)}`,
      received: `${res.status}`,
      exchanges: [res.exchange],
    }));
    // What an Error object looks like is FMT-1's and FMT-2's: a server wrong everywhere is blamed once, there.
    const what = `the Error object for an unknown id in ${before(c)}`;
    explainedBy(['FMT-1', 'FMT-2'], t.rule, () => jsonBody(t, res, what));
    explainedBy(['FMT-2'], t.rule, () => expectChecked(t, 'error', res.checks.error, res, what));
  }
});

rule('DEL-3', 'delete of an unknown id in each account before the run created anything is not a 5xx', async (t) => {
  for (const c of contacts(t)) {
    // No delete is sent unless the retrieve showed the made-up id absent (CRUD-5 judges that answer).
    if (c.remove === undefined) continue;
    const res = answerTo(t, c.remove, `a status below 500 for a delete of an unknown id in ${before(c)} (an error or a success, the spec leaves it open)`);
    t.check(res.status < 500, () => ({
      expected: `a status below 500 for a delete of an unknown id in ${before(c)} (an error or a success, the spec leaves it open)`,
      received: `${res.status}`,
      exchanges: [res.exchange],
    }));
  }
});
