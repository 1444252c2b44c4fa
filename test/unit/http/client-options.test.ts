/** Every client of a run gets its options from one function, under the names the settings use. */
import { describe, expect, it } from 'vitest';
import { clientOptions, type ClientSettings } from '../../../src/http/client-options.ts';

const SETTINGS: ClientSettings = {
  timeoutMs: 1234,
  concurrency: 3,
  concurrencyGiven: true,
  maxRetries: 2,
  maxRetryWaitMs: 5000,
  maxRateLimitWaitMs: 7000,
  maxRate: 40,
  headers: { 'X-Tenant': '42' },
  secretHeaders: 'X-Tenant',
};

describe('clientOptions', () => {
  it('passes every setting on under its own name', () => {
    const options = clientOptions(SETTINGS, { baseUrl: 'http://h/v1', secrets: ['s3cr3t-token'], deadline: 99, ca: 'PEM' });
    for (const key of ['timeoutMs', 'concurrency', 'maxRetries', 'maxRetryWaitMs', 'maxRateLimitWaitMs', 'maxRate', 'headers', 'secretHeaders'] as const) {
      expect(options[key], key).toEqual(SETTINGS[key]);
    }
    expect(options).toMatchObject({ baseUrl: 'http://h/v1', secrets: ['s3cr3t-token'], deadline: 99, ca: 'PEM', adaptConcurrency: false });
  });

  it('adapts the slots to latency only when --concurrency was not given', () => {
    expect(clientOptions({ ...SETTINGS, concurrencyGiven: false }, { baseUrl: 'http://h/v1', secrets: [], deadline: 1 }).adaptConcurrency).toBe(true);
  });

  it('leaves out what was not set', () => {
    const { maxRate: _r, headers: _h, secretHeaders: _s, ...bare } = SETTINGS;
    const options = clientOptions(bare, { baseUrl: 'http://h/v1', secrets: [], deadline: 1 });
    expect(Object.keys(options).filter((k) => ['maxRate', 'headers', 'secretHeaders', 'ca', 'tokens'].includes(k))).toEqual([]);
  });
});
