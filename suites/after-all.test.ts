/**
 * Requests of the suite that can break the server's later answers, sent after every other test of
 * the run (run-vitest.ts runs this file last in either file order, and the files one after
 * another), so that what they break cannot change another rule's verdict (issue 30).
 *
 * A create whose name holds bytes that are not UTF-8 (0xFF never occurs in UTF-8) asks for an
 * Error object: FMT-4 judges it. A server may instead accept it: RFC 8259 §8.1 binds the sender to
 * UTF-8 and §8.2 leaves what a receiver does with text that is not UTF-8 open (docs/mutants.md), so
 * accepting the bytes breaks no rule by itself, and FMT-4 then has no Error object to judge. What
 * the server does next is judged: one list of the account follows. A server that stored the bytes
 * as they came (Sinatra does) and then answers 500 to every list of the account breaks PAGE-6 (a
 * list without limit answers a valid page, whatever the account holds): that failure is PAGE-6's
 * evidence, naming the create that poisoned the account (FMT-4's, the bytes it sent) and the
 * first 500 after it, so such a server is never called conformant.
 */
import { rule } from '../src/harness/rule.ts';
import { preview } from '../src/schema.ts';

/** The bytes after the name's text: never valid UTF-8. */
const NOT_UTF8 = Buffer.from([0xff, 0xfe]);
const SHOWN = 'bytes FF FE';

type Json = Record<string, unknown>;

rule('FMT-4', 'the Error object for a create whose body is not UTF-8 has a non-empty code and message', async (t) => {
  // A create like any other, through the ledger's door: journalled before it is sent, with the
  // name it carries (the run marker), so a server that stores it (as Express, hapi, gin or chi do,
  // with U+FFFD in place of the bytes) has it deleted at cleanup under the usual proof.
  const name = t.name();
  const res = await t.api.create({ name }, { raw: Buffer.concat([Buffer.from(`{"name":"${name}`), NOT_UTF8, Buffer.from('"}')]) });
  if (res.status >= 200 && res.status < 300) {
    // Accepted: whether the account still answers is what the stored bytes decide. One list says it.
    const list = await t.api.list();
    const accepted = `the server accepted a name that is not UTF-8 (${SHOWN}) with ${res.status}`;
    if (list.status < 200 || list.status >= 300 || list.jsonError !== undefined) {
      // The list's failure is the list rule's, and the create that caused it is named with it.
      t.evidence('PAGE-6', {
        expected: 'a list without limit answered with a valid page (§4.1), whatever widgets the account holds',
        received: `${list.status}${list.jsonError === undefined ? '' : ` (${list.jsonError})`} to the first list after a create that poisoned the account`,
        note: `the create that poisoned it: FMT-4's check sent a name whose text ends in the ${SHOWN}, which are not UTF-8; ${accepted} (the first exchange below), and the next list of the account, the one at the end, answered ${list.status}. Sent after every other test of the run, so no other rule's verdict met the account this create changed; the widget it made carries the run marker`,
        exchanges: [res.exchange, list.exchange],
      });
    }
    return t.skip(`${accepted}: no Error object for FMT-4 to judge${list.status >= 200 && list.status < 300 && list.jsonError === undefined ? `, and a list of the account still answered ${list.status} with JSON` : `; the list that then answered ${list.status} is PAGE-6's failure`}`);
  }
  const body = res.json as Json | undefined;
  const isError = res.status >= 400 && body !== null && typeof body === 'object' && !Array.isArray(body) && typeof body.code === 'string' && typeof body.message === 'string';
  // Whether a refusal of this undocumented case carries an Error object is the server's choice.
  if (!isError) return t.skip(`a create whose body is not UTF-8 answered ${res.status} without an Error object (code and message strings): nothing for FMT-4 to judge`);
  const empty = (['code', 'message', 'request_id'] as const).filter((field) => typeof body[field] === 'string' && (body[field] as string).trim() === '');
  t.check(empty.length === 0, () => ({
    expected: 'an Error object whose code and message (and request_id, when present) are not empty',
    received: `empty ${empty.join(', ')}: ${preview(body)}`,
    exchanges: [res.exchange],
  }));
});
