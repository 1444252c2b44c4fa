/** The shape of a faulty server: the reference service with one fault, and the rule it must be caught on. */
import type { TestServer } from '../serve.ts';

export interface FaultCase {
  /** Stable, kebab-case: the self-test titles carry it. */
  readonly name: string;
  /** The rule the suite must fail (or warn, for a SHOULD rule) on this server. */
  readonly rule: string;
  readonly description: string;
  make(): TestServer;
}
