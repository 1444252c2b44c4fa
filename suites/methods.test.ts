/**
 * Methods the spec does not define (§4 defines GET and POST on /widgets, GET and DELETE on
 * /widgets/{widgetId}): rule MAL-5. Each must change nothing, and RFC 9110 asks for 405 with
 * an Allow header. DELETE on /widgets is never sent: a server that took it for "delete them
 * all" would destroy widgets the suite did not create. PUT and PATCH on /widgets only with
 * --allow-collection-writes, for the same reason: no list proves an account empty (a list may
 * hide widgets, and another client may create one meanwhile). Without it, MAL-5 is judged on
 * the suite's own widget's URL (through the ledger's door, as a delete is).
 */
import { createOrFail, describeDifferences, differingFields, expectNotListed, retrieveRemovingIf, statusClass, type Json } from '../src/harness/checks.ts';
import { rule, type RuleContext } from '../src/harness/rule.ts';
import { requireKept, requireRetrievable } from '../src/harness/prerequisites.ts';
import type { ApiResponse } from '../src/harness/api.ts';
import { preview } from '../src/schema.ts';
import { CollectionWriteRefused } from '../src/harness/api.ts';

/** The methods §4 defines on each path, as an Allow header must name them. */
const COLLECTION_METHODS = ['GET', 'POST'];
const ITEM_METHODS = ['GET', 'DELETE'];

/** The methods of an Allow header, upper-cased (RFC 9110 §10.2.1: a comma-separated list of method tokens). */
function allowed(res: ApiResponse): string[] {
  return (res.headers.allow ?? '').split(',').map((m) => m.trim().toUpperCase()).filter((m) => m !== '');
}

/** Fails unless the answer is 405 with an Allow header naming every method the spec defines on the path. */
function expect405WithAllow(t: RuleContext, res: ApiResponse, request: string, defined: readonly string[]): void {
  const allow = allowed(res);
  const missing = defined.filter((m) => !allow.includes(m));
  t.check(res.status === 405 && res.headers.allow !== undefined && missing.length === 0, () => ({
    expected: `405 Method Not Allowed for ${request}, with an Allow header naming ${defined.join(' and ')} (RFC 9110 §15.5.6)`,
    received: `${res.status} (${statusClass(res.status)}) with ${res.headers.allow === undefined ? 'no Allow header' : `Allow: ${res.headers.allow}${missing.length ? ` (missing ${missing.join(', ')})` : ''}`}`,
    exchanges: [res.exchange],
  }));
}

/** The methods the spec does not define on a widget, each judged by what it answers and what it changes. */
const UNDEFINED_ON_ITEM = ['POST', 'PUT', 'PATCH'] as const;
type UndefinedOnItem = (typeof UNDEFINED_ON_ITEM)[number];

/** The widget a 2xx answer shows, or undefined. */
const shownBy = (r: ApiResponse): Json | undefined => (r.status >= 200 && r.status < 300 ? (r.json as Json | undefined) : undefined);

/** Thrown by the proof's judge when the owner's retrieve shows no widget: nothing is sent, and the tests that needed it skip. */
class NotShown extends Error {}

/** What an undefined method on the suite's own widget met: the widget, what the owner's retrieve just before showed (the write's proof), and the answer. */
interface SentOnWidget {
  readonly widget: Json & { id: string };
  readonly was: Json;
  readonly res: ApiResponse;
}

const sentOnWidget = new Map<UndefinedOnItem, Promise<SentOnWidget>>();

/**
 * The method sent once on a widget made for it, for both tests that judge it: what it answers
 * (405 with Allow) and what it changes. The owner's retrieve the write is proven on, read first,
 * is what the widget was before it. Named the same whichever test sends it (a rerun with the seed
 * sends the same requests).
 */
function sendOnWidget(t: RuleContext, method: UndefinedOnItem): Promise<SentOnWidget> {
  let sent = sentOnWidget.get(method);
  if (sent === undefined) {
    sent = (async () => {
      const slot = UNDEFINED_ON_ITEM.indexOf(method);
      const widget = await createOrFail(t, { name: t.shared(slot, 'MAL-5').name, description: 'before' });
      let before: ApiResponse | undefined;
      const res = await t.api.sendUndefinedMethod(method, widget.id, { name: t.shared(UNDEFINED_ON_ITEM.length + slot, 'MAL-5').name, description: 'after' }, (proof) => {
        before = proof;
        requireRetrievable(t, t.api, widget.id, proof, 'the owner\'s retrieve of a widget just created');
        if (shownBy(proof) === undefined) throw new NotShown(`the owner's retrieve of a widget just created answered ${proof.status} (CRUD-4 judges that)`);
      });
      if (before === undefined) throw new Error(`${method} on a widget was answered without the owner's proof being read: a problem of the suite (please report it)`);
      return { widget, was: shownBy(before)!, res };
    })();
    sentOnWidget.set(method, sent);
  }
  return sent;
}

/** The method's exchange for a test that judges it, or a skip when it could not be sent on a widget its owner retrieves. */
async function sentFor(t: RuleContext, method: UndefinedOnItem): Promise<SentOnWidget> {
  try {
    return await sendOnWidget(t, method);
  } catch (error) {
    if (error instanceof NotShown) return t.skip(error.message);
    throw error;
  }
}

for (const method of UNDEFINED_ON_ITEM) {
  rule('MAL-5', `${method} on a widget changes nothing`, async (t) => {
    // Compared with the owner's own retrieve just before, so that only the undefined method is
    // judged (what create or retrieve get wrong is CRUD's).
    const { widget, was, res } = await sentFor(t, method);
    // The owner's retrieve after it is the proof its own delete is sent on, when the widget is as it was.
    const after = await retrieveRemovingIf(t.api, widget.id, (shown) => {
      const is = shownBy(shown);
      return is !== undefined && differingFields(was, is).length === 0;
    });
    await requireKept(t, t.api, widget.id, after, `the owner's retrieve after ${method} /widgets/{id} answered ${res.status}`);
    const is = shownBy(after);
    const changed = is === undefined ? [] : differingFields(was, is);
    t.check(is !== undefined && changed.length === 0, () => ({
      expected: `widget ${preview(widget.id)} still retrieved as before ${method} /widgets/{id}, which the spec does not define`,
      received: `${method} answered ${res.status}; the retrieve then answered ${after.status}${is && changed.length ? `, changed: ${describeDifferences(was, is, 'before', 'after', changed)}` : ''}`,
      exchanges: [res.exchange, after.exchange],
    }));
  });

  rule('MAL-5', `${method} on a widget answers 405 with an Allow header`, async (t) => {
    const { res } = await sentFor(t, method);
    expect405WithAllow(t, res, `${method} /widgets/{id}`, ITEM_METHODS);
  });
}

/**
 * PUT or PATCH on /widgets, or a skip saying why not: sent only when the user passed
 * --allow-collection-writes, since a server could apply them to every widget of the account.
 */
async function onCollection(t: RuleContext, method: 'PUT' | 'PATCH', body: Json): Promise<ApiResponse> {
  if (!t.settings.allowCollectionWrites) {
    return t.skip(`${method} /widgets not sent: a server that implements it may replace or change every widget of the account, a user's and ones its list hides too; --allow-collection-writes (destructive on such a server) lets MAL-5 judge it. ${method} on the suite's own widget is still judged`);
  }
  try {
    return await t.api.sendUndefinedMethod(method, undefined, body);
  } catch (error) {
    if (error instanceof CollectionWriteRefused) return t.skip(error.message);
    throw error;
  }
}

for (const method of ['PUT', 'PATCH'] as const) {
  rule('MAL-5', `${method} on /widgets creates nothing`, async (t) => {
    const name = t.name();
    const res = await onCollection(t, method, { name });
    await expectNotListed(t, t.api, performance.now(), (w) => w.name === name, `no widget named ${preview(name)} after ${method} /widgets answered ${res.status}`, [res.exchange]);
  });

  rule('MAL-5', `${method} on /widgets answers 405 with an Allow header`, async (t) => {
    const res = await onCollection(t, method, { name: t.name() });
    expect405WithAllow(t, res, `${method} /widgets`, COLLECTION_METHODS);
  });
}
