/**
 * A conformant reference service whose list pages are padded, with one extra field, to just
 * under a given size: extra fields are allowed (§2), so a suite must pass it, and must not
 * keep what it does not need of each page.
 */
import type { WidgetPage } from '../src/reference/store.ts';
import { ReferenceService, type PageJson, type ReferenceServiceOptions } from '../src/reference/service.ts';

/** Where the padding goes: one field of the page object, or one field in each Widget of the page. */
export type PaddingPlace = 'page' | 'items';

/** The name of the extra field. */
const PADDING_FIELD = 'padding';
/** Bytes one padding field adds besides its value: `,"padding":""`. */
const FIELD_OVERHEAD = `,"${PADDING_FIELD}":""`.length;

/** The reference service with every list page padded to `pageBytes` (empty pages padded at `items` stay as they are). */
export class PaddedService extends ReferenceService {
  /** One long string that every padding is a slice of, so the server itself stays small. */
  private readonly filler: string;

  constructor(
    private readonly place: PaddingPlace,
    private readonly pageBytes: number,
    options: ReferenceServiceOptions = {},
  ) {
    super(options);
    this.filler = 'x'.repeat(pageBytes);
  }

  protected override toPageJson(account: string, page: WidgetPage): PageJson {
    const body = super.toPageJson(account, page);
    const room = this.pageBytes - Buffer.byteLength(JSON.stringify(body));
    if (this.place === 'page') {
      const padded: PageJson & Record<string, unknown> = { ...body, [PADDING_FIELD]: this.filler.slice(0, Math.max(0, room - FIELD_OVERHEAD)) };
      return padded;
    }
    if (body.data.length === 0) return body;
    const each = Math.max(0, Math.floor(room / body.data.length) - FIELD_OVERHEAD);
    return { ...body, data: body.data.map((w) => ({ ...w, [PADDING_FIELD]: this.filler.slice(0, each) })) };
  }
}
