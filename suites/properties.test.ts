/**
 * Property-based round trips (§2, §4.1–§4.3): PROP-1 and PROP-2, with fast-check.
 * A server may limit the length and characters of names and descriptions (RULES.md), so a
 * generated value is either accepted and comes back exactly, code unit for code unit,
 * through create, retrieve and the list, or refused with an Error object and nothing
 * created. Ordinary values (short printable ASCII) must be accepted. Whether a refusal's body
 * is an Error object is FMT-2's to judge (see harness/property-refusals.ts): PROP-1 checks the 4xx.
 *
 * Every widget carries the run marker in the field that is not generated, and each run
 * deletes what it created (shrinking included); the runner's sweep catches any leftover.
 */
import fc from 'fast-check';
import { describeString, hardDescription, hardString, ORDINARY_DESCRIPTION_MAX, ORDINARY_NAME_MAX, ordinaryDescription, ordinaryName } from '../src/harness/arbitraries.ts';
import { asExamples, HARD_EXAMPLES, ORDINARY_EXAMPLES, ordinaryBody, valuesPerRun, type Ordinary } from '../src/harness/property-inputs.ts';
import { createdWidget, retrieveRemovingIf, sameDescription } from '../src/harness/checks.ts';
import { requireFaithfulRetrieve, requireSameWidget, requireStringField, requireStringIds, widgetOf } from '../src/harness/prerequisites.ts';
import { idOf, UnprovenDeleteError } from '../src/harness/api.ts';
import { carriesTag } from '../src/harness/marker.ts';
import { checkProperty } from '../src/harness/property.ts';
import { expectRefusal } from '../src/harness/property-refusals.ts';
import { rule, type RuleContext } from '../src/harness/rule.ts';
import type { ApiResponse } from '../src/harness/api.ts';
import { findInWalk, requireComplete } from '../src/harness/snapshots.ts';
import { recordLag, settleOrDescribe } from '../src/harness/settle.ts';
import type { WalkResult } from '../src/harness/api.ts';

type Field = 'name' | 'description';

/** The body for one generated value: the generated field, and the other field carrying a fresh marker. */
function bodyFor(t: RuleContext, field: Field, value: string): { body: Record<string, string>; tag: string } {
  const tag = t.name();
  return { body: field === 'name' ? { name: value, description: tag } : { name: tag, description: value }, tag };
}

async function deleteAccepted(t: RuleContext, responses: readonly ApiResponse[]): Promise<void> {
  await Promise.all(
    responses.map((res) => {
      const id = (res.json as { id?: unknown } | undefined)?.id;
      // A widget the suite cannot prove its own now (a retrieve that drops the marker's field) is left to the final sweep.
      return res.status >= 200 && res.status < 300 && typeof id === 'string'
        ? t.api.remove(id).catch((error: unknown) => { if (!(error instanceof UnprovenDeleteError)) throw error; })
        : undefined;
    }),
  );
}

/** Exactly the value sent; for a description, an empty one may come back as none (see sameDescription). */
function roundTripped(field: Field, got: unknown, sent: string): boolean {
  return field === 'description' ? sameDescription(got, sent) : got === sent;
}

/** PROP-1 for one field: accepted values round-trip exactly; refused ones leave nothing behind. */
function roundTrip(field: Field, arbitrary: fc.Arbitrary<string>): void {
  rule('PROP-1', `generated ${field}s are accepted and come back exactly through create, retrieve and list, or refused with nothing created`, async (t) => {
    await checkProperty<[string[]]>(t, field, [valuesPerRun(arbitrary)], async (values) => {
      const sent = values.map((value) => ({ value, ...bodyFor(t, field, value) }));
      const responses = await Promise.all(sent.map(({ body }) => t.api.create(body)));
      const createdAt = performance.now();
      /** Ids whose delete was decided on their retrieve (sent, or refused by the delete rule and left to the sweep); the finally below deletes the rest. */
      const decided = new Set<string>();
      try {
        const accepted: Array<{ id: string; value: string; created: Record<string, unknown> }> = [];
        for (const [i, res] of responses.entries()) {
          const { value } = sent[i]!;
          if (res.status >= 200 && res.status < 300) {
            const created = createdWidget(t, res, 'a create of a generated value');
            requireStringField(t, created, field, res, 'the created Widget');
            t.check(roundTripped(field, created[field], value), () => ({
              expected: `the create response's ${field} exactly as sent: ${describeString(value)}`,
              received: describeString(created[field]),
              exchanges: [res.exchange],
            }));
            accepted.push({ id: created.id, value, created });
          } else {
            expectRefusal(t, res, `a create whose ${field} is ${describeString(value)}`);
          }
        }
        let walk = await t.listAfter(t.api, performance.now());
        // A list that catches up late: looked at again (settle.ts); within --list-settle-ms it is accepted.
        const unlisted = (w: WalkResult): boolean => accepted.some(({ id }) => findInWalk(w, (x) => idOf(x) === id) === undefined);
        let late = '';
        if (accepted.length > 0 && walk.end.kind === 'complete') {
          if (!unlisted(walk)) recordLag('create', 'immediate', walk);
          else {
            const settled = await settleOrDescribe(t, t.api, 'create', createdAt, (w) => !unlisted(w));
            if (settled.accepted) walk = settled.walk;
            else late = `; ${settled.note}`;
          }
        }
        for (const { id, value } of accepted) {
          const listed = findInWalk(walk, (w) => idOf(w) === id);
          // Absent from a walk that stopped early, or from one with ids of the wrong type (FMT-3's), proves nothing: inconclusive, not a failure.
          if (!listed) requireComplete(t, walk, `find widget ${id} in the list`);
          if (!listed) requireStringIds(t, walk, `find widget ${id} in the list`);
          if (listed) requireStringField(t, listed.widget, field, walk.pages[listed.page - 1]!.response, `widget ${id} in the list`);
          t.check(listed !== undefined && roundTripped(field, listed.widget[field], value), () => ({
            expected: `widget ${id} in the list with the ${field} exactly as sent: ${describeString(value)}`,
            received: listed ? `${describeString(listed.widget[field])} on page ${listed.page}` : `not in the list${late}`,
            exchanges: listed ? [walk.pages[listed.page - 1]!.response.exchange] : [],
          }));
        }
        for (const [i, res] of responses.entries()) {
          if (res.status >= 200 && res.status < 300) continue;
          const { tag } = sent[i]!;
          const found = findInWalk(walk, (w) => carriesTag(w, tag));
          t.check(found === undefined, () => ({
            expected: `nothing created by the refused create (${res.status}) of ${describeString(sent[i]!.value)}`,
            received: `a widget carrying ${tag} on page ${found?.page}`,
            exchanges: [res.exchange],
          }));
        }
        requireComplete(t, walk, `find the ${field}s in the list`);
        // Each accepted widget's retrieve, judged, is the proof its delete is sent on (WidgetApi.retrieveThenRemove).
        const judged = await Promise.allSettled(accepted.map(async ({ id, value, created }) => {
          const res = await retrieveRemovingIf(t.api, id, (shown) => {
            const got = widgetOf(shown);
            if (got) requireStringField(t, got, field, shown, 'the retrieved Widget');
            const asSent = got !== undefined && roundTripped(field, got[field], value);
            if (asSent) decided.add(id);
            return asSent;
          });
          const got = widgetOf(res);
          // Another widget at the id (CRUD-3), or a retrieve that changes every widget's field (CRUD-4), is not this value's finding.
          if (!got || !roundTripped(field, got[field], value)) requireSameWidget(t, t.api, created, got);
          if (got && !roundTripped(field, got[field], value)) await requireFaithfulRetrieve(t, t.api, created, got, [field]);
          t.check(got !== undefined && roundTripped(field, got[field], value), () => ({
            expected: `retrieve of ${id} to give the ${field} exactly as sent: ${describeString(value)}`,
            received: got ? describeString(got[field]) : `status ${res.status}`,
            exchanges: [res.exchange],
          }));
        }));
        // The first failure in the order the values were sent, as when they were judged one after another.
        const failed = judged.find((r) => r.status === 'rejected');
        if (failed) throw failed.reason;
      } finally {
        await deleteAccepted(t, responses.filter((res) => !decided.has(String((res.json as { id?: unknown } | undefined)?.id))));
      }
    }, { examples: asExamples(HARD_EXAMPLES[field]) });
  });
}

roundTrip('name', hardString);
roundTrip('description', hardDescription);

/** The server's own words for a refusal (an Error object's message), as `: "…"`, or nothing. */
function errorMessage(res: ApiResponse): string {
  const message = (res.json as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message !== '' ? `: "${message.slice(0, 200)}"` : '';
}

rule('PROP-2', 'ordinary input is accepted: names of 1 to 32 and descriptions of 0 to 64 printable ASCII characters, no space at the ends', async (t) => {
  const ordinary = fc.record({ name: ordinaryName, description: ordinaryDescription });
  await checkProperty<[Ordinary[]]>(t, 'ordinary', [valuesPerRun(ordinary)], async (values) => {
    // Each value's body, the run marker in every one (ordinaryBody says where).
    const bodies = values.map((value, i) => ordinaryBody(value, i, t.name()));
    const responses = await Promise.all(bodies.map((body) => t.api.create(body)));
    try {
      for (const [i, res] of responses.entries()) {
        t.check(res.status >= 200 && res.status < 300, () => ({
          // Says how long the refused values were and what the suite assumes, as every PROP-2 failure does (checks.ts).
          expected: `a 2xx for a create of ordinary input: a name of ${bodies[i]!.name.length} printable ASCII characters (${describeString(bodies[i]!.name)}), a description of ${(bodies[i]!.description ?? '').length} (${describeString(bodies[i]!.description)}); the suite assumes every server accepts names of 1 to ${ORDINARY_NAME_MAX} and descriptions of 0 to ${ORDINARY_DESCRIPTION_MAX} printable ASCII characters (no space at the ends)`,
          received: `${res.status}${errorMessage(res)}`,
          exchanges: [res.exchange],
        }));
      }
    } finally {
      await deleteAccepted(t, responses);
    }
  }, { examples: asExamples(ORDINARY_EXAMPLES) });
});
