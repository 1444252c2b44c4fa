#!/usr/bin/env node
// `npm run soak`: the whole suite many times in a row against the reference server (tools/soak.ts).
import { run } from '../../bin/run.mjs';

await run('tools/soak.ts');
