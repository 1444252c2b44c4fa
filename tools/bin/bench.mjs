#!/usr/bin/env node
// `npm run bench`: times the suite against the reference server with and without latency (tools/bench.ts).
import { run } from '../../bin/run.mjs';

await run('tools/bench.ts');
