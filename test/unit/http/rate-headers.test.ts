import { describe, expect, it } from 'vitest';
import { readRateHint } from '../../../src/http/rate-headers.ts';

const NOW = Date.UTC(2026, 0, 1);

describe('readRateHint: the rate-limit header fields servers send', () => {
  it.each([
    ['the structured RateLimit-Policy of the httpapi draft', { 'ratelimit-policy': '"default";q=100;w=60' }, 100 / 60],
    ['the earlier drafts\' quota;w=window', { 'ratelimit-policy': '40;w=1' }, 40],
    ['the most restrictive of several policies', { 'ratelimit-policy': '"day";q=10000;w=86400, "burst";q=10;w=1' }, 10000 / 86400],
    ['a policy without a window says no rate', { 'ratelimit-policy': '"default";q=100' }, undefined],
    ['a window of 0 is ignored', { 'ratelimit-policy': '100;w=0' }, undefined],
    ['garbage is ignored', { 'ratelimit-policy': 'lots;w=soon' }, undefined],
  ])('%s', (_name, headers, rate) => {
    expect(readRateHint(headers, NOW).rate).toBe(rate);
  });

  it.each([
    ['RateLimit "name";r;t', { ratelimit: '"default";r=0;t=3' }, 0, 3000],
    ['RateLimit limit=, remaining=, reset= (draft 07)', { ratelimit: 'limit=100, remaining=5, reset=2' }, 5, 2000],
    ['RateLimit-Remaining / RateLimit-Reset (drafts 03-06)', { 'ratelimit-remaining': '7', 'ratelimit-reset': '1' }, 7, 1000],
    ['X-RateLimit-Remaining / X-RateLimit-Reset as delta seconds', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '4' }, 0, 4000],
    ['X-RateLimit-Reset as a Unix time (GitHub)', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 30) }, 0, 30_000],
    ['the fewest remaining of several RateLimit members, with its reset', { ratelimit: '"day";r=500;t=80000, "burst";r=1;t=1' }, 1, 1000],
  ])('%s', (_name, headers, remaining, resetMs) => {
    expect(readRateHint(headers, NOW)).toMatchObject({ remaining, resetMs });
  });

  it('a reset further off than a day, a negative or non-numeric count, or an oversized field says nothing', () => {
    expect(readRateHint({ 'x-ratelimit-remaining': '-1', 'x-ratelimit-reset': '999999' }, NOW)).toEqual({});
    expect(readRateHint({ 'ratelimit-policy': `${'9'.repeat(2000)};w=1` }, NOW)).toEqual({});
  });

  it('no fields, no hint', () => {
    expect(readRateHint({ 'content-type': 'application/json' }, NOW)).toEqual({});
  });
});
