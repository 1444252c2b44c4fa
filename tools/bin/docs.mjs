#!/usr/bin/env node
// `npm run docs`: rewrites the generated tables of README.md and docs/ from the code (tools/docs.ts).
import { run } from '../../bin/run.mjs';

await run('tools/docs-main.ts');
