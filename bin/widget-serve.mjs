#!/usr/bin/env node
// `npm run serve` (`widget-conformance serve` where installed): the reference server on its own (src/reference/serve.ts).
import { run } from './run.mjs';

await run('src/reference/serve.ts');
