/**
 * What an account's answers show of the choices the spec leaves open, handed to the run's
 * interoperability profile (report/profile-facts.ts), and the requests the suite did not send.
 * Recording only: nothing here may change what a check sees, so a hook that throws is ignored.
 */
import type { ApiResponse } from '../http/client.ts';
import type { Observation, Unsent } from '../shared/observation.ts';
import type { ApiHooks } from './api-options.ts';

/** What an observation carries beside the answer. */
export type ObservedExtra = { limit?: string; paged?: boolean; sent?: unknown; id?: string };

/** The profile's two hooks, made safe to call from any operation. */
export class ProfileObserver {
  constructor(private readonly hooks: Pick<ApiHooks, 'observe' | 'unsent'>) {}

  /** True when the run records the profile (some observations cost work to prepare). */
  get recording(): boolean {
    return this.hooks.observe !== undefined;
  }

  /** Files the answer under the situation the request tested; never throws. */
  observe(op: Observation['op'], situation: string, res: ApiResponse, extra: ObservedExtra = {}): void {
    const observe = this.hooks.observe;
    if (!observe) return;
    try {
      observe({ op, situation, status: res.status, headers: res.headers, json: res.json, ...(res.jsonError === undefined ? {} : { jsonError: res.jsonError }), ...(res.truncated ? { truncated: true as const } : {}), exchange: res.exchange, ...extra });
    } catch {
      // Recording must never change what a check sees.
    }
  }

  /** Tells the profile that a request of this kind was not sent, and why (see Unsent); never throws. */
  notSent(unsent: Unsent): void {
    try {
      this.hooks.unsent?.(unsent);
    } catch {
      // Recording must never change what a check sees.
    }
  }
}
