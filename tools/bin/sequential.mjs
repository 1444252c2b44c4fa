#!/usr/bin/env node
// The bench's plain sequential checker: replays a recorded run's requests one after another (tools/sequential.ts).
import { run } from '../../bin/run.mjs';

await run('tools/sequential-main.ts');
