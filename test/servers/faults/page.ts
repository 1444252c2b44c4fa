/** Faults of pagination (PAGE): limits, has_more, cursors, and walks under concurrent writes. */
import { ReferenceService, type CursorPosition, type PageJson, type Reply } from '../../../src/reference/service.ts';
import { WidgetStore, type StoredWidget, type WidgetPage } from '../../../src/reference/store.ts';
import { offsetPaged, QuietService, serve } from '../support.ts';
import type { FaultCase } from './case.ts';

export const PAGE_FAULTS: readonly FaultCase[] = [
  {
    name: 'page-keeps-lookahead-item', rule: 'PAGE-1',
    description: 'fetches limit + 1 widgets to learn whether more follow, and forgets to drop the extra one',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        const { items } = super.page(account, afterSeq, limit + 1);
        return { items, lastSeq: items.at(-1)?.seq, hasMore: items.length > limit };
      }
    })() })),
  },
  {
    name: 'limit-ignored', rule: 'PAGE-1',
    description: 'ignores the limit parameter and always answers pages of the default size (20)',
    alsoBreaks: { 'PAGE-8': 'a server that ignores limit accepts limit=abc with a 200' },
    make: () => serve(new (class extends ReferenceService {
      protected override parseLimit(_raw: string | undefined): number {
        return this.defaultLimit;
      }
    })()),
  },
  {
    name: 'has-more-from-full-page', rule: 'PAGE-2',
    description: 'sets has_more when the page is full, but next_cursor only when the store has more: a full last page says has_more true with no cursor',
    inconclusive: { 'PAGE-3': 'PAGE-2' },
    make: () => serve(new (class extends ReferenceService {
      protected override list(account: string, query: URLSearchParams): Reply {
        const { limit, afterSeq } = this.parseListQuery(account, query);
        const page = this.store.page(account, afterSeq, limit);
        const body = this.toPageJson(account, page);
        return { status: 200, body: { ...body, has_more: page.items.length === limit } };
      }
    })()),
  },
  {
    name: 'cursor-skips-boundary-widget', rule: 'PAGE-3',
    description: 'makes next_cursor name the first widget of the next page, then resumes after it: one widget lost at each page boundary',
    inconclusive: { 'PAGE-7': 'PAGE-3' },
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        const { items } = super.page(account, afterSeq, limit + 1);
        const hasMore = items.length > limit;
        const shown = items.slice(0, limit);
        return { items: shown, lastSeq: hasMore ? items[limit]!.seq : shown.at(-1)?.seq, hasMore };
      }
    })() })),
  },
  {
    name: 'has-more-always-false', rule: 'PAGE-4',
    description: 'always answers has_more false (and so no next_cursor), however many widgets follow',
    alsoBreaks: { 'PAGE-3': 'the walk ends after its first page, so it misses widgets' },
    inconclusive: { 'PAGE-7': 'PAGE-3' },
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        return { ...super.page(account, afterSeq, limit), hasMore: false };
      }
    })() })),
  },
  {
    name: 'cursor-never-advances', rule: 'PAGE-5',
    description: "encodes the request's own position in next_cursor instead of the page's end: the same cursor, and page, forever",
    alsoBreaks: { 'PAGE-3': 'a cursor that never advances returns a widget on several pages' },
    inconclusive: { 'PAGE-7': 'PAGE-5' },
    make: () => serve(new (class extends ReferenceService {
      protected override list(account: string, query: URLSearchParams): Reply {
        const { limit, afterSeq } = this.parseListQuery(account, query);
        const page = this.store.page(account, afterSeq, limit);
        return { status: 200, body: this.toPageJson(account, { ...page, lastSeq: afterSeq ?? 0 }) };
      }
    })()),
  },
  {
    name: 'no-limit-500', rule: 'PAGE-6',
    description: 'reads the default limit from an unset setting, so a list without limit fails with a 500',
    inconclusive: { 'FMT-3': 'PAGE-6' },
    make: () => serve(new (class extends QuietService {
      protected override parseLimit(raw: string | undefined): number {
        if (raw === undefined) return Number(process.env.WIDGETS_DEFAULT_PAGE_SIZE_UNSET);
        return super.parseLimit(raw);
      }
    })()),
  },
  {
    name: 'offset-cursors', rule: 'PAGE-7',
    description: 'pages newest first by offset over the widgets that existed at the first page: new widgets cannot shift a walk, but a widget deleted behind the offset makes the next page skip one',
    make: () => serve(offsetPaged({ order: 'newest-first', snapshot: true })),
  },
  {
    name: 'offset-oldest-first', rule: 'PAGE-7', description: 'pages oldest first by plain offset: a widget deleted behind the walk makes the next page skip one',
    make: () => serve(offsetPaged({ order: 'oldest-first' })),
  },
  {
    name: 'offset-newest-first', rule: 'PAGE-7', description: 'pages newest first by plain offset: a widget created during the walk shifts the next page',
    make: () => serve(offsetPaged({ order: 'newest-first' })),
  },
  {
    name: 'invalid-limit-500', rule: 'PAGE-8',
    description: 'passes limit through Number() unchecked, so "abc", "-1" or "1.5" fail deep in the store with a 500',
    make: () => serve(new (class extends QuietService {
      protected override parseLimit(raw: string | undefined): number {
        return raw === undefined ? super.parseLimit(raw) : Math.min(Number(raw), this.maxLimit);
      }
    })()),
  },
  {
    name: 'unsigned-cursor-500', rule: 'PAGE-8',
    description: 'decodes a cursor as base64 JSON without checking it, so a cursor it never issued fails with a 500',
    make: () => serve(new (class extends QuietService {
      protected override decodeCursor(cursor: string): CursorPosition | undefined {
        const [account, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, number];
        return { account, seq };
      }
      protected override encodeCursor(position: CursorPosition): string {
        return Buffer.from(JSON.stringify([position.account, position.seq]), 'utf8').toString('base64url');
      }
    })()),
  },
  {
    name: 'limit-zero-500', rule: 'PAGE-8', description: 'accepts limit=0 and then fails in the store with a 500',
    make: () => serve(new (class extends QuietService {
      protected override parseLimit(raw: string | undefined): number {
        if (raw !== undefined && /^[0-9]+$/.test(raw)) return Math.min(Number(raw), this.maxLimit);
        return super.parseLimit(raw);
      }
    })()),
  },
  {
    name: 'limit-junk-500', rule: 'PAGE-8',
    description: 'reads limit with parseInt and fails with a 500 when digits are followed by anything else ("1x")',
    make: () => serve(new (class extends QuietService {
      protected override parseLimit(raw: string | undefined): number {
        if (raw !== undefined && /^[1-9][0-9]*[^0-9]/.test(raw)) throw new TypeError(`trailing characters after ${Number.parseInt(raw, 10)}`);
        return super.parseLimit(raw);
      }
    })()),
  },
  {
    name: 'short-cursor-500', rule: 'PAGE-8',
    description: 'compares the signature of a cursor without checking its length first: a well-formed cursor shorter than the signature fails with a 500',
    make: () => serve(new (class extends QuietService {
      protected override decodeCursor(cursor: string): CursorPosition | undefined {
        const bytes = Buffer.from(cursor, 'base64url');
        if (bytes.toString('base64url') === cursor && bytes.length < 32) throw new RangeError('Input buffers must have the same byte length');
        return super.decodeCursor(cursor);
      }
    })()),
  },
  {
    name: 'cursor-on-last-page', rule: 'PAGE-9',
    description: 'sends next_cursor on every non-empty page, the last one (has_more false) included',
    make: () => serve(new (class extends ReferenceService {
      protected override toPageJson(account: string, page: WidgetPage): PageJson {
        const body = super.toPageJson(account, page);
        return page.lastSeq === undefined ? body : { ...body, next_cursor: this.encodeCursor({ account, seq: page.lastSeq }) };
      }
    })()),
  },
  {
    name: 'never-used-account-list-500', rule: 'PAGE-6',
    description: 'fails with a 500 to list an account that has never held a widget (its per-account map is made on the first create)',
    make: () => serve(new QuietService({ store: new (class extends WidgetStore {
      override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        if (!this.widgetsByAccount.has(account)) throw new TypeError("Cannot read properties of undefined (reading 'values')");
        return super.page(account, afterSeq, limit);
      }
    })() })),
  },
  {
    name: 'never-used-account-lists-empty-object', rule: 'PAGE-6',
    description: 'lists an account that has never held a widget as {"data":[{}],"has_more":false}: an uninitialised row',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      override page(account: string, afterSeq: number | undefined, limit: number): WidgetPage {
        if (!this.widgetsByAccount.has(account)) return { items: [{} as StoredWidget], lastSeq: undefined, hasMore: false };
        return super.page(account, afterSeq, limit);
      }
    })() })),
  },
];
