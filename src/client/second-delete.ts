/**
 * The profile's "second delete of the same id" (WidgetApi.removeAgain; DEL-3 judges it: the id
 * names no widget now): the delete rule's one exception for an id found absent (ledger.ts
 * secondDeleteVerdict). A server may give a freed id to another widget, so it goes out only
 * inside a window in which no write of the suite is in flight, after a retrieve in that window
 * answered 404 or 410. Otherwise nothing is sent, the profile notes why, and the reason is returned.
 */
import { UnprovenDeleteError } from '../errors.ts';
import type { ApiResponse } from '../http/client.ts';
import type { ApiHooks, SecondDelete } from './api-options.ts';
import type { DeleteVerdict } from './ledger.ts';
import type { ProfileObserver } from './observe.ts';

/** What the second delete needs of the account that sends it. */
export interface SecondDeleteSteps {
  /** The delete rule on the ledger's facts alone, `quiet` saying whether a window is there to ask for (no request). */
  readonly before: (quiet: boolean) => DeleteVerdict;
  /** The run's window without writes of the suite (WalkGate.quiet), if it has one. */
  readonly window: ApiHooks['quiet'];
  /** The DELETE through the door, proven inside the window (door.ts write with `again`). */
  readonly send: () => Promise<ApiResponse>;
  /** The profile's situation of the delete, read inside the window before it is sent. */
  readonly situation: () => string;
  readonly observer: ProfileObserver;
  readonly id: string;
}

/** A second DELETE of an id the account already deleted, or why it was not sent. */
export async function removeAgain(steps: SecondDeleteSteps): Promise<SecondDelete> {
  const { window, observer } = steps;
  // The facts the ledger holds first: no request is spent on a delete that could not go out anyway.
  const before = steps.before(window !== undefined);
  let outcome: SecondDelete;
  if (!before.send) outcome = { notSent: before.reason };
  else if (!window) outcome = { notSent: 'no window without writes of the suite' };
  else outcome = await window(() => inWindow(steps));
  if ('notSent' in outcome) observer.notSent({ op: 'delete', situation: 'after-delete', reason: outcome.notSent });
  return outcome;
}

/** Inside the quiet window: through the door like every write (the ledger's facts again, its retrieve, the rule), the DELETE when the rule says so. */
async function inWindow(steps: SecondDeleteSteps): Promise<SecondDelete> {
  const situation = steps.situation();
  try {
    const response = await steps.send();
    steps.observer.observe('delete', situation, response, { id: steps.id });
    return { response };
  } catch (error) {
    if (error instanceof UnprovenDeleteError) return { notSent: error.reason };
    throw error;
  }
}
