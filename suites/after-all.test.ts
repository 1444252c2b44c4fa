/**
 * Requests of the suite that can break the server's later answers, sent after every other test of
 * the run (run-vitest.ts runs this file last in either file order, and the files one after
 * another), so that what they break cannot change another rule's verdict (issue 30). What they
 * break is reported under the rule that sent them, with what the server accepted.
 *
 * A create whose name holds bytes that are not UTF-8 (0xFF never occurs in UTF-8) asks for an
 * Error object: FMT-4 judges it. A server may instead store the bytes as they are (Sinatra does)
 * and then fail every answer that holds the widget: every list of the account answered 500. No
 * MUST rule is failed for it: RFC 8259 §8.1 binds the sender to UTF-8 and §8.2 leaves what a
 * receiver does with text that is not UTF-8 open (docs/mutants.md), so accepting the bytes is
 * lenient, not against the spec; and the 500s that follow come from input only this check sends,
 * after the rules of the lists have judged. It is FMT-4's finding (a SHOULD: the Error object such
 * a create should get), naming the create the server accepted and what a list then answered.
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
    if (list.status >= 200 && list.status < 300 && list.jsonError === undefined) {
      return t.skip(`the server accepted a name that is not UTF-8 (${SHOWN}) with ${res.status}, and a list of the account still answered ${list.status} with JSON: no Error object for FMT-4 to judge`);
    }
    t.fail({
      expected: `a create whose name is not UTF-8 (${SHOWN}) refused with an Error object (RFC 8259 §8.1), or, once accepted, an account whose list still answers`,
      received: `the server accepted a name that is not UTF-8 (${SHOWN}) with ${res.status}, and then answered ${list.status}${list.jsonError === undefined ? '' : ` (${list.jsonError})`} to a list of the account`,
      note: 'sent after every other test of the run, so no other rule\'s verdict met the account this create changed; the widget it made carries the run marker',
      exchanges: [res.exchange, list.exchange],
    });
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
