/**
 * Authentication (§5): rules AUTH-1..5, as a matrix of operations × bad credentials. List
 * and create must answer an Error object (§5, §7 document it for them); retrieve and delete
 * must at least fail, change nothing and reveal nothing.
 */
import type { AuthOverride, WidgetApi } from '../src/harness/api.ts';
import { createdWidget, describeDifferences, differingFields, expectErrorObject, expectNotListed, statusClass, type Json } from '../src/harness/checks.ts';
import { requireKept, requireRetrievable, requireSameWidget } from '../src/harness/prerequisites.ts';
import { rule, type RuleContext } from '../src/harness/rule.ts';
import type { SeededRandom } from '../src/harness/random.ts';
import { Turns } from '../src/harness/turns.ts';
import type { ApiResponse } from '../src/harness/api.ts';
import { preview } from '../src/schema.ts';

/** A way of presenting credentials that must not authenticate. */
interface BadCredential {
  /** Reads in a title after "with": "with no Authorization header". */
  readonly label: string;
  /** The request's Authorization override (a made-up token drawn from the test's seeded stream), and query parameters to add. */
  readonly auth: (api: WidgetApi, random: SeededRandom) => AuthOverride;
  readonly query?: (api: WidgetApi) => Record<string, string>;
  readonly rule: 'AUTH-1' | 'AUTH-2';
  /** False when the variant cannot be built from this token (it would be the valid token itself). */
  readonly applies?: (api: WidgetApi) => boolean;
}

const bearerToken = (api: WidgetApi): string => api.bearer.slice('Bearer '.length);

const BAD_CREDENTIALS: readonly BadCredential[] = [
  // §5: "When authentication fails or is not provided": the not-provided half.
  { label: 'no Authorization header', rule: 'AUTH-1', auth: () => ({ authorization: null }) },
  // §5 names the header as the only carrier; a token in the query string is not credentials.
  {
    label: 'the valid token only as an access_token query parameter', rule: 'AUTH-1',
    auth: () => ({ authorization: null }), query: (api) => ({ access_token: bearerToken(api) }),
  },
  // The failed half: a well-formed bearer token the server never issued.
  { label: 'an unknown bearer token', rule: 'AUTH-2', auth: (_api, random) => ({ authorization: `Bearer wcs-unknown-${random.hex(12)}` }) },
  // A server that takes the second word whatever the scheme would accept this.
  { label: 'the valid token under the Basic scheme', rule: 'AUTH-2', auth: (api) => ({ authorization: `Basic ${bearerToken(api)}` }) },
  { label: 'an empty bearer token', rule: 'AUTH-2', auth: () => ({ authorization: 'Bearer ' }) },
  // Near-miss schemes: a scheme match that is not anchored at both ends (/bearer +(.+)/i,
  // endsWith, includes) accepts these. RFC 9110 §11.1: the scheme is a whole token.
  { label: 'the valid token under the scheme XBearer', rule: 'AUTH-2', auth: (api) => ({ authorization: `XBearer ${bearerToken(api)}` }) },
  { label: 'the valid token under the scheme Bearerx', rule: 'AUTH-2', auth: (api) => ({ authorization: `Bearerx ${bearerToken(api)}` }) },
  // No space at all between scheme and token: RFC 6750 §2.1 needs 1*SP.
  { label: 'the valid token glued to the scheme (Bearer<token>)', rule: 'AUTH-2', auth: (api) => ({ authorization: `Bearer${bearerToken(api)}` }) },
  // Catches prefix matching and comparisons that stop at the known token's length.
  { label: 'the valid token with extra characters appended', rule: 'AUTH-2', auth: (api) => ({ authorization: `${api.bearer}x` }) },
  // Catches comparisons that stop at the presented token's length (known.startsWith(presented)).
  { label: 'the valid token without its last character', rule: 'AUTH-2', auth: (api) => ({ authorization: api.bearer.slice(0, -1) }) },
  // Tokens are opaque: catches case-insensitive comparison. Only for tokens that have letters.
  {
    label: 'the valid token with its letters in the other case', rule: 'AUTH-2',
    applies: (api) => /[a-zA-Z]/.test(bearerToken(api)),
    auth: (api) => ({ authorization: `Bearer ${[...bearerToken(api)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')}` }),
  },
];

/** The request's credentials: the Authorization override and any query parameters. */
function credentials(t: RuleContext, api: WidgetApi, bad: BadCredential): AuthOverride {
  return { ...bad.auth(api, t.random), ...(bad.query ? { query: bad.query(api) } : {}) };
}

function listWith(t: RuleContext, api: WidgetApi, bad: BadCredential): Promise<ApiResponse> {
  return api.list({}, credentials(t, api, bad));
}

function createWith(t: RuleContext, bad: BadCredential, name: string): Promise<ApiResponse> {
  return t.api.create({ name }, { auth: credentials(t, t.api, bad) });
}

/**
 * The create with a bad credential, sent once for the two tests that judge it: its answer
 * (AUTH-1, AUTH-2) and what a refusal leaves behind (AUTH-3), with the name it was sent with.
 */
const refusedCreates = new Map<string, Promise<{ name: string; res: ApiResponse }>>();
function createOnceWith(t: RuleContext, bad: BadCredential): Promise<{ name: string; res: ApiResponse }> {
  let sent = refusedCreates.get(bad.label);
  if (sent === undefined) {
    // The same name whichever of the two tests sends it: AUTH-3's, which looks for it, numbered by the credential's place.
    const name = t.shared(BAD_CREDENTIALS.indexOf(bad), 'AUTH-3').name;
    sent = createWith(t, bad, name).then((res) => ({ name, res }));
    refusedCreates.set(bad.label, sent);
  }
  return sent;
}

/**
 * A widget AUTH-4's tests judge: one for several credentials while none changes it. A retrieve
 * cannot change it, so the retrieve tests hold it together; a delete may (on a server that takes
 * the credential), so each delete test holds it alone, from the owner's retrieve its delete is
 * proven on to the owner's retrieve after, and hands it on only when its delete was refused and
 * that retrieve shows it as before. A widget changed or gone is dropped (the file's cleanup sees
 * to what is left of it) and the next test makes a new one, so each test judges its own request
 * on a widget its owner was shown as created with nothing sent to it since.
 */
interface Held {
  /** The create's answer, which each test judges itself (createdWidget). */
  readonly created: Promise<ApiResponse>;
  /** What the owner's retrieve showed after the last delete test that held it, if one did. */
  shown?: Json;
}

/**
 * Two such widgets, each judged in turn by half the credentials (by their place in the list), so
 * the deletes made one after another are half as many: at 20 ms a response, the file took 0.79 s
 * with a widget per delete, 1.17 s with one widget for all, 0.82 s with two.
 */
class Lane {
  held: Held | undefined;
  /** Widgets made on this lane so far. */
  private made = 0;
  readonly turns = new Turns();

  constructor(private readonly index: number) {}

  /** The widget handed on, or a new one (named the same whichever test makes it: a rerun with the seed sends the same create). */
  heldWidget(t: RuleContext): Held {
    if (this.held === undefined) {
      const shared = t.shared(this.made * LANES + this.index, 'AUTH-4');
      this.made += 1;
      this.held = { created: t.api.create({ name: shared.name, description: `secret ${shared.random.hex(6)}` }) };
    }
    return this.held;
  }
}

const LANES = 2;
const lanes = Array.from({ length: LANES }, (_, i) => new Lane(i));
const laneOf = (bad: BadCredential): Lane => lanes[BAD_CREDENTIALS.indexOf(bad) % LANES]!;

const WIDGET_TO_JUDGE = 'a create of the widget the retrieves and deletes with bad credentials are judged on';

/** Thrown by a proof's judge when the widget handed on is no longer as the last test left it: nothing is sent. */
class NoLongerAsLeft extends Error {}

/**
 * AUTH-4's delete with a bad credential, in its turn: the owner's proof (read first), the
 * delete, and the owner's retrieve after it. A widget handed on that its proof shows otherwise
 * than the last test left it (gone, changed, with nothing sent to it since) is not this test's to
 * judge: it is dropped and the test starts again on a new one.
 */
async function deleteInTurn(t: RuleContext, bad: BadCredential, lane: Lane): Promise<{ widget: Json & { id: string }; before: ApiResponse; res: ApiResponse; after: ApiResponse }> {
  for (;;) {
    const h = lane.heldWidget(t);
    let handOn = false;
    try {
      const widget = createdWidget(t, await h.created, WIDGET_TO_JUDGE);
      let before: ApiResponse | undefined;
      const res = await removeWith(t, bad, widget.id, (proof) => {
        before = proof;
        const was = body(proof);
        if (h.shown !== undefined && (was === undefined || differingFields(h.shown, was).length > 0)) throw new NoLongerAsLeft();
        // A widget its owner cannot retrieve before anything acted on it is CRUD-4's, never this rule's.
        requireRetrievable(t, t.api, widget.id, proof, 'the owner\'s retrieve of the widget it just created');
      });
      if (before === undefined) throw new Error(`the delete with ${bad.label} was answered without the owner's proof being read: a problem of the suite (please report it)`);
      const after = await t.api.retrieve(widget.id);
      const [was, is] = [body(before), body(after)];
      handOn = !(res.status >= 200 && res.status < 300) && was !== undefined && is !== undefined && differingFields(was, is).length === 0;
      if (handOn) h.shown = is;
      return { widget, before, res, after };
    } catch (error) {
      if (!(error instanceof NoLongerAsLeft)) throw error;
    } finally {
      if (!handOn && lane.held === h) lane.held = undefined;
    }
  }
}

function retrieveWith(t: RuleContext, bad: BadCredential, id: string): Promise<ApiResponse> {
  return t.api.retrieve(id, credentials(t, t.api, bad));
}

/** The delete with a bad credential; `judge` reads the owner's retrieve its proof makes (WidgetApi.remove). */
function removeWith(t: RuleContext, bad: BadCredential, id: string, judge?: (proof: ApiResponse) => void): Promise<ApiResponse> {
  return t.api.remove(id, credentials(t, t.api, bad), judge);
}

/** The widget a 2xx answer shows, or undefined. */
const body = (r: ApiResponse): Json | undefined => (r.status >= 200 && r.status < 300 ? (r.json as Json | undefined) : undefined);


/** Skips a test whose credential variant cannot be made from the token under test. */
async function skipIfInapplicable(t: RuleContext, bad: BadCredential): Promise<void> {
  if (bad.applies && !bad.applies(t.api)) await t.skip(`the token under test has no letters, so "${bad.label}" would be the token itself`);
}

for (const bad of BAD_CREDENTIALS) {
  rule(bad.rule, `list with ${bad.label} answers an Error object with a 4xx`, async (t) => {
    await skipIfInapplicable(t, bad);
    expectErrorObject(t, await listWith(t, t.api, bad), `a list with ${bad.label}`);
  });

  rule(bad.rule, `create with ${bad.label} answers an Error object with a 4xx`, async (t) => {
    await skipIfInapplicable(t, bad);
    expectErrorObject(t, (await createOnceWith(t, bad)).res, `a create with ${bad.label}`);
  });

  rule('AUTH-3', `a create refused for ${bad.label} creates nothing`, async (t) => {
    await skipIfInapplicable(t, bad);
    const { name, res } = await createOnceWith(t, bad);
    // An accepted create is AUTH-1/AUTH-2's failure; this rule is about what a refusal leaves behind.
    if (res.status >= 200 && res.status < 300) return t.skip(`the create was not refused (answered ${res.status}); AUTH-1/AUTH-2 report that`);
    await expectNotListed(t, t.api, performance.now(), (w) => w.name === name, `no widget named ${preview(name)} after its create was refused with ${res.status}`, [res.exchange]);
  });

  rule('AUTH-4', `retrieve with ${bad.label} fails and does not reveal the widget`, async (t) => {
    await skipIfInapplicable(t, bad);
    const lane = laneOf(bad);
    const { widget, res } = await lane.turns.together(async () => {
      const widget = createdWidget(t, await lane.heldWidget(t).created, WIDGET_TO_JUDGE);
      return { widget, res: await retrieveWith(t, bad, widget.id) };
    });
    // Only text can be looked for: a name that is not a string (FMT-3's failure) would be turned
    // into text by includes(), which for an array nested 100,000 deep overflows the stack.
    const shows = (value: unknown): boolean => typeof value === 'string' && value.length > 0 && res.text.includes(value);
    const revealed = shows(widget.name) || shows(widget.description);
    t.check(!(res.status >= 200 && res.status < 300) && !revealed, () => ({
      expected: `a non-2xx answer that shows nothing of widget ${preview(widget.id)}`,
      received: `${res.status}${revealed ? ', and the body shows the widget' : ''}`,
      exchanges: [res.exchange],
    }));
  });

  rule('AUTH-4', `delete with ${bad.label} fails and leaves the widget as it was`, async (t) => {
    await skipIfInapplicable(t, bad);
    // Compared with the owner's own retrieve just before (the proof the delete is sent on), so that only the refused delete is judged.
    const lane = laneOf(bad);
    const { widget, before: shownBefore, res, after } = await lane.turns.alone(() => deleteInTurn(t, bad, lane));
    // Gone after a refused delete: that delete's doing only if the owner's store keeps widgets (CRUD-4).
    if (!(res.status >= 200 && res.status < 300)) await requireKept(t, t.api, widget.id, after, `the owner's retrieve after the delete with ${bad.label} answered ${res.status}`);
    const [was, is] = [body(shownBefore), body(after)];
    const changed = was && is ? differingFields(was, is) : [];
    const refused = !(res.status >= 200 && res.status < 300);
    // A refused delete with the widget gone or changed is evidence only while the id names one widget (CRUD-3).
    if (refused && was !== undefined && (is === undefined || changed.length > 0)) requireSameWidget(t, t.api, widget, after.json);
    t.check(refused && (was === undefined || (is !== undefined && changed.length === 0)), () => ({
      expected: `a non-2xx answer, and the owner still retrieves widget ${preview(widget.id)} as before`,
      received: `the delete answered ${res.status}; the owner's retrieve then answered ${after.status}${was && is && changed.length ? `, changed: ${describeDifferences(was, is, 'before', 'after', changed)}` : ''}`,
      exchanges: [res.exchange, after.exchange],
    }));
  });
}

const CHALLENGED = [
  { label: 'a request without credentials', auth: (): AuthOverride => ({ authorization: null }) },
  { label: 'an unknown token', auth: (random: SeededRandom): AuthOverride => ({ authorization: `Bearer wcs-unknown-${random.hex(12)}` }) },
];

for (const c of CHALLENGED) {
  rule('AUTH-5', `${c.label} answers 401 with a WWW-Authenticate: Bearer challenge`, async (t) => {
    const res = await t.api.list({}, c.auth(t.random));
    const challenge = res.headers['www-authenticate'];
    // The header may hold several challenges (RFC 9110 §11.6.1): one of them must be Bearer.
    t.check(res.status === 401 && /(^|,)\s*bearer\b/i.test(challenge ?? ''), () => ({
      expected: '401 with a WWW-Authenticate header naming the Bearer scheme (RFC 6750 §3)',
      received: `${res.status} (${statusClass(res.status)}) with ${challenge === undefined ? 'no WWW-Authenticate header' : `WWW-Authenticate: ${challenge}`}`,
      exchanges: [res.exchange],
    }));
  });
}

rule('AUTH-5', 'a rejected token is never echoed back', async (t) => {
  const presented = `wcs-unknown-${t.random.hex(12)}`;
  const responses = await Promise.all([
    t.api.list({}, { authorization: `Bearer ${presented}` }),
    t.api.create({ name: t.name() }, { auth: { authorization: `Bearer ${presented}` } }),
  ]);
  const echoing = responses.filter((res) => res.text.includes(presented) || Object.values(res.headers).some((v) => v.includes(presented)));
  t.check(echoing.length === 0, () => ({
    expected: `no trace of the presented token ${presented} in the answer`,
    received: `the token appears in ${echoing.length} answer(s)`,
    exchanges: echoing.map((r) => r.exchange),
  }));
});

/**
 * Spellings of valid credentials that the grammar allows (RFC 9110 §11.1: the scheme is
 * case-insensitive; RFC 6750 §2.1: "Bearer" 1*SP b64token). Tabs, trailing junk and other
 * separators are not in the grammar, so they are not asked for.
 */
const LEGAL_SPELLINGS = [
  { label: 'the scheme in lower case (bearer)', spell: (token: string) => `bearer ${token}` },
  { label: 'the scheme in upper case (BEARER)', spell: (token: string) => `BEARER ${token}` },
  { label: 'two spaces between scheme and token', spell: (token: string) => `Bearer  ${token}` },
];

/** The list with the canonical spelling, "Bearer <token>", that every AUTH-6 test compares with: sent once, by whichever asks first. */
let canonicalList: Promise<ApiResponse> | undefined;

for (const legal of LEGAL_SPELLINGS) {
  rule('AUTH-6', `a list with the valid token and ${legal.label} is accepted`, async (t) => {
    // Judged beside the same list with the canonical spelling: only a difference is AUTH-6's
    // (a list that fails either way is another rule's).
    const canonical = await (canonicalList ??= t.api.list({ limit: 1 }));
    if (!(canonical.status >= 200 && canonical.status < 300)) return t.skip(`the same list with "Bearer <token>" answered ${canonical.status}: nothing to compare with (PAGE-6 judges lists)`);
    const res = await t.api.list({ limit: 1 }, { authorization: legal.spell(bearerToken(t.api)) });
    t.check(res.status >= 200 && res.status < 300, () => ({
      expected: `a 2xx page, as for "Bearer <token>" (${canonical.status}): ${JSON.stringify(legal.spell('<token>'))} is a legal spelling of valid credentials (RFC 9110 §11.1, RFC 6750 §2.1)`,
      received: `${res.status} (${statusClass(res.status)})`,
      exchanges: [canonical.exchange, res.exchange],
    }));
  });
}
