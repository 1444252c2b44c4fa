#!/usr/bin/env node
// `npm run bench`: times the suite against the reference server with and without latency (src/cli/bench.ts).
import { runTypeScript } from './load-ts.mjs';

await runTypeScript('src/cli/bench.ts');
