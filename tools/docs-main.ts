// `npm run docs` (bin/widget-docs.mjs): the entry that rewrites the generated blocks (tools/docs.ts).
import { syncDocs } from './docs.ts';

syncDocs();
