#!/usr/bin/env node
// `npm run serve`: the reference server on its own (src/reference/serve.ts).
import { run } from './run.mjs';

await run('src/reference/serve.ts');
