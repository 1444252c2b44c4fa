#!/usr/bin/env node
// `npm run bench`: times the suite against the reference server with and without latency (src/cli/bench.ts).
import { run } from './run.mjs';

await run('src/cli/bench.ts');
