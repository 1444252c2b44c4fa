/**
 * Malformed create requests (§4.2, §7): rules MAL-1..4. Each case must be refused with an
 * Error object and a 4xx (never a 5xx), and must create nothing: the account's list,
 * walked after the refusal, shows no widget carrying the case's marker.
 */
import { carriesTag } from '../src/harness/marker.ts';
import { expectErrorObject, expectNotListed, expectSchema, isJsonMediaType, jsonBody, removeWhenDone, statusClass } from '../src/harness/checks.ts';
import { explainedBy } from '../src/harness/failure.ts';
import { rule, type RuleContext } from '../src/harness/rule.ts';
import type { ApiResponse } from '../src/harness/api.ts';
import { MALFORMED_CASES, type MalformedCase } from './data/malformed-cases.ts';
import { MEMBER_NAME_CASES, RECEIVER_CHOICE_CASES } from './data/member-names.ts';

/** The malformed bodies whose refusal MAL-1..3 judge, and whose status MAL-4 judges. */
const REFUSED_CASES: readonly MalformedCase[] = [...MALFORMED_CASES, ...MEMBER_NAME_CASES];

const refusals = new Map<string, Promise<{ marker: string; res: ApiResponse }>>();

/**
 * A case's create, sent once for the two tests that judge its answer: its own (MAL-1..3: an
 * Error object, and nothing created) and MAL-4's (which 4xx). Its marker is named the same
 * whichever of them sends it (a rerun with the seed sends the same requests).
 */
function refusalOf(t: RuleContext, c: MalformedCase): Promise<{ marker: string; res: ApiResponse }> {
  let sent = refusals.get(c.id);
  if (sent === undefined) {
    const marker = t.shared(REFUSED_CASES.indexOf(c), c.rule).name;
    sent = t.api.create(undefined, { raw: c.body(marker) }).then((res) => ({ marker, res }));
    refusals.set(c.id, sent);
  }
  return sent;
}

for (const c of REFUSED_CASES) {
  rule(c.rule, `${c.outcome} with an Error object and a 4xx, and creates nothing [${c.id}]`, async (t) => {
    const { marker, res } = await refusalOf(t, c);
    expectErrorObject(t, res, `a create with a malformed body (${c.id})`);
    await expectNotListed(t, t.api, performance.now(), (w) => carriesTag(w, marker), `no widget carrying ${marker} after the create was refused with ${res.status}`, [res.exchange]);
  });
}

for (const c of RECEIVER_CHOICE_CASES) {
  rule('MAL-3', `${c.outcome}, never a 5xx [${c.id}]`, async (t) => {
    const marker = t.name();
    const res = await t.api.create(undefined, { raw: c.body(marker) });
    if (res.status < 200 || res.status > 299) return void expectErrorObject(t, res, `a create with a body RFC 8259 leaves to the receiver (${c.id})`);
    const allowed = c.names(marker);
    const name = (res.json as { name?: unknown } | undefined)?.name;
    t.check(typeof name === 'string' && allowed.includes(name), () => ({
      expected: `the created widget named ${allowed.map((n) => JSON.stringify(n)).join(' or ')}`,
      received: `name ${JSON.stringify(name)}`,
      exchanges: [res.exchange],
    }));
    // Done with it: deleted on its owner's retrieve, which tells CRUD-4 whether the widget is still found.
    await removeWhenDone(t, t.api, res);
  });
}

rule('MAL-4', 'malformed bodies that are refused answer 400 or 422', async (t) => {
  // The answers MAL-1..3's tests judge too: each case's create is sent once, by whichever asks first.
  const responses = await Promise.all(REFUSED_CASES.map(async (c) => ({ c, res: (await refusalOf(t, c)).res })));
  // Which 4xx a refusal is, is this rule's; a body accepted (2xx), a redirect or a 5xx is the case's
  // own rule (MAL-1..3) failing, not a second fault.
  const other = responses.filter(({ res }) => res.status >= 400 && res.status < 500 && res.status !== 400 && res.status !== 422);
  t.check(other.length === 0, () => ({
    expected: 'status 400 or 422 for every malformed body refused with a 4xx',
    received: other.map(({ c, res }) => `${c.id}: ${res.status}`).join(', '),
    exchanges: other.slice(0, 3).map(({ res }) => res.exchange),
  }));
});

for (const contentType of ['text/plain', null] as const) {
  const label = contentType === null ? 'with no Content-Type' : `as ${contentType}`;
  rule('MAL-4', `a valid JSON body sent ${label} is accepted, or refused with an Error object (415 recommended)`, async (t) => {
    const res = await t.api.create({ name: t.name() }, { contentType });
    // Accepting the body is a valid choice (RULES.md: lenient Content-Type): the answer is judged
    // either way, and an acceptance is within the rule.
    const accepted = res.status >= 200 && res.status < 300;
    t.check(accepted || res.status === 415, () => ({
      expected: `acceptance, or 415 Unsupported Media Type for a body sent ${label}`,
      received: `${res.status} (${statusClass(res.status)})`,
      exchanges: [res.exchange],
    }));
    if (accepted) return;
    // The refusal's status is this rule's own; what an Error object looks like is FMT-1's and
    // FMT-2's, so a server whose Error objects are wrong everywhere is blamed there once.
    explainedBy(['FMT-1', 'FMT-2'], t.rule, () => {
      t.check(isJsonMediaType(res.headers['content-type']), () => ({
        expected: 'the refusal as an Error object sent as application/json',
        received: `Content-Type: ${res.headers['content-type'] ?? '(none)'}`,
        exchanges: [res.exchange],
      }));
      expectSchema(t, 'error', jsonBody(t, res, 'the Error object of the refusal'), res, 'the refusal');
    });
  });
}
