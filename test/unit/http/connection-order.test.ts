/** What answers over numbered connections show of a request in flight (src/http/connection-order.ts): taken by the server, and connections answered at once. */
import { describe, expect, it } from 'vitest';
import { answeredAtOnce, answerSeen, connectionOrder } from '../../../src/http/connection-order.ts';

describe('connection order', () => {
  it('an answer on a connection opened after a waiting request\'s own shows that request taken, from then on; one on an older connection, its own, or one of no number shows nothing', () => {
    const onTwo = connectionOrder({ id: 2 });
    const unknown = connectionOrder({ id: undefined });
    const unsaid = connectionOrder(undefined);
    const waiting = [onTwo, unknown, unsaid];
    for (const id of [1, 2, undefined]) answerSeen(waiting, id, 10);
    expect(waiting.map((r) => r.takenAt)).toEqual([undefined, undefined, undefined]);
    answerSeen(waiting, 3, 20);
    answerSeen(waiting, 4, 30);
    expect(waiting.map((r) => r.takenAt)).toEqual([20, undefined, undefined]);
  });

  it('connections answered at once: one after another (each closed before the next was answered), one; in turn, as many as took turns', () => {
    const oneAtATime = connectionOrder({ id: 9 });
    for (const [id, at] of [[1, 1], [1, 2], [2, 3], [2, 4], [3, 5]] as const) answerSeen([oneAtATime], id, at);
    expect(answeredAtOnce(oneAtATime)).toBe(1);
    const inTurn = connectionOrder({ id: 9 });
    for (const [id, at] of [[1, 1], [2, 2], [3, 3], [1, 4], [2, 5], [4, 6]] as const) answerSeen([inTurn], id, at);
    // 1 and 2 spanned 1-4 and 2-5, with 3 between: three at once; 4 came after them all.
    expect(answeredAtOnce(inTurn)).toBe(3);
    expect(answeredAtOnce(connectionOrder({ id: 1 })), 'nothing answered').toBe(0);
  });
});
