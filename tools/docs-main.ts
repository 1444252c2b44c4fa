// `npm run docs` (tools/bin/docs.mjs): the entry that rewrites the generated blocks (tools/docs.ts).
import { syncDocs } from './docs.ts';

syncDocs();
