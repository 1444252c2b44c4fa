/**
 * What the client saw of one answer, and what it chose not to send: recorded by the client
 * (client/api.ts), tallied into the interoperability profile by the report (report/profile-facts.ts).
 */
import type { Exchange } from './exchange.ts';

export type Operation = 'list' | 'create' | 'retrieve' | 'delete';

/**
 * What the request was, as the client saw it when it sent it: `ok`, `existing` and `valid` are
 * the ordinary cases; the rest name the condition (no-credential, unknown-id, malformed, …).
 */
export interface Observation {
  readonly op: Operation;
  readonly situation: string;
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly json: unknown;
  readonly jsonError?: string;
  /** The body was larger than the cap and only its first part was read (a list walk's page). */
  readonly truncated?: true;
  readonly exchange: Exchange;
  /** A list's limit as sent (absent: none sent). */
  readonly limit?: string;
  /** A list that followed a cursor. */
  readonly paged?: boolean;
  /** A create's body as sent, when it was a JSON value. */
  readonly sent?: unknown;
  /** A retrieve's or delete's id as sent in the path. */
  readonly id?: string;
}

/**
 * A request the suite did not send, and why: withheld for data safety (a second delete of the
 * same id) or impossible here (an id without letters has no other case). The profile says so on
 * the entries it would have shown, instead of a bare "not observed".
 */
export interface Unsent {
  readonly op: Operation;
  readonly situation: string;
  readonly reason: string;
}
