/**
 * Servers for the property-based rules: faults that only generated input or random
 * sequences find, and conformant servers with limits on input that must still pass.
 */
import type { ServerResponse } from 'node:http';
import { HttpError, ReferenceService } from '../../src/reference/service.ts';
import { WidgetStore, type StoredWidget, type WidgetInput } from '../../src/reference/store.ts';
import type { FaultCase } from './faults/case.ts';
import { serve } from './support.ts';
import type { VariantCase } from './variants.ts';

/**
 * A reference service with its own rule for valid input: `check` returns a reason to refuse
 * the input (a 400 Error), or the input to store, possibly changed.
 */
function accepting(check: (input: WidgetInput) => WidgetInput | string): ReferenceService {
  return new (class extends ReferenceService {
    protected override validateCreate(value: unknown): WidgetInput {
      const result = check(super.validateCreate(value));
      if (typeof result === 'string') throw new HttpError(400, 'invalid_input', result);
      return result;
    }
  })();
}

/** A reference service whose accepted names and descriptions pass through `transform` before they are stored. */
function transforming(transform: (value: string) => string): ReferenceService {
  return accepting((input) => ({ name: transform(input.name), ...(input.description === undefined ? {} : { description: transform(input.description) }) }));
}

export const PROPERTY_FAULTS: readonly FaultCase[] = [
  {
    name: 'replaces-non-ascii', rule: 'PROP-1', description: 'stores every character outside ASCII as "?" (a latin-1 or ASCII column)',
    make: () => serve(transforming((v) => v.replace(/[^\x00-\x7f]/gu, '?'))),
  },
  {
    name: 'nfc-normalises', rule: 'PROP-1', description: 'NFC-normalises names and descriptions before storing them',
    make: () => serve(transforming((v) => v.normalize('NFC'))),
  },
  {
    name: 'trims-names', rule: 'PROP-1', description: 'trims whitespace from both ends of names',
    make: () => serve(accepting((input) => ({ ...input, name: input.name.trim() }))),
  },
  {
    name: 'rejects-names-over-8', rule: 'PROP-2', description: 'refuses names longer than 8 characters with a 400 Error',
    make: () => serve(accepting((input) => (input.name.length > 8 ? 'name is limited to 8 characters.' : input))),
  },
  {
    // Perl's truthiness: "0" (like "") is false, so `name or die` refuses it.
    name: 'falsy-name-refused', rule: 'PROP-2', description: 'refuses the name "0" as missing, as a Perl `unless ($name)` check does',
    make: () => serve(accepting((input) => (input.name === '0' ? 'name is required.' : input))),
  },
  {
    name: 'falsy-description-dropped', rule: 'PROP-1', description: 'stores a description that a truthiness test takes for false ("0") as no description',
    make: () => serve(accepting((input) => (input.description === '0' ? { name: input.name } : input))),
  },
  {
    name: 'rejects-names-over-24', rule: 'PROP-2', description: 'refuses names longer than 24 characters with a 400 Error (a VARCHAR(24) column)',
    make: () => serve(accepting((input) => (input.name.length > 24 ? 'name is limited to 24 characters.' : input))),
  },
  {
    name: 'rejects-descriptions-over-60', rule: 'PROP-2', description: 'refuses descriptions longer than 60 characters with a 400 Error',
    make: () => serve(accepting((input) => ((input.description ?? '').length > 60 ? 'description is limited to 60 characters.' : input))),
  },
  {
    // PROP-3's random sequences meet the reused id, but the rule it breaks is DEL-2: PROP-3 must
    // see it and defer, inconclusive under DEL-2, whatever the seed.
    name: 'reuses-deleted-id', rule: 'DEL-2', description: 'gives the next new widget the id of the most recently deleted one',
    inconclusive: { 'PROP-3': 'DEL-2' },
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      private readonly free: string[] = [];
      override delete(account: string, id: string): boolean {
        const deleted = super.delete(account, id);
        if (deleted) this.free.push(id);
        return deleted;
      }
      protected override newId(): string {
        return this.free.pop() ?? super.newId();
      }
    })() })),
  },
  {
    name: 'keeps-deleted-in-lists', rule: 'PROP-3', description: 'hides a deleted widget from retrieve but still lists it',
    make: () => serve(new ReferenceService({ store: new (class extends WidgetStore {
      private readonly tombstones = new Set<string>();
      override delete(account: string, id: string): boolean {
        if (this.tombstones.has(id) || !this.get(account, id)) return false;
        this.tombstones.add(id);
        return true;
      }
      override get(account: string, id: string): StoredWidget | undefined {
        return this.tombstones.has(id) ? undefined : super.get(account, id);
      }
    })() })),
  },
];

/** Conformant, with limits the spec allows: names over 64 characters or with control characters are refused. */
export const STRICT_NAMES: VariantCase = {
  name: 'strict-names',
  description: 'refuses names over 64 characters or containing control characters, with a 400 Error',
  make: () => serve(accepting((input) =>
    [...input.name].length > 64 || /[\u0000-\u001f\u007f-\u009f]/.test(input.name) ? 'name must be 1 to 64 characters without control characters.' : input,
  )),
};

/** Conformant: refuses blank names and names or descriptions with white space at either end. */
export const NO_PADDING: VariantCase = {
  name: 'no-padding',
  description: 'refuses blank names, and names or descriptions with white space at either end, with a 400 Error',
  make: () => serve(accepting((input) => {
    const padded = (v: string | undefined): boolean => v !== undefined && v !== v.trim();
    return input.name.trim() === '' || padded(input.name) || padded(input.description)
      ? 'name must not be blank, and neither name nor description may start or end with white space.'
      : input;
  })),
};

/** Conformant servers with limits on names the spec allows: each must pass the property rules from every seed. */
export const CONFORMANT_LIMITS = [STRICT_NAMES, NO_PADDING];

/**
 * Every Error object without `code` (an FMT-2 fault), and names over 64 characters refused: the generated names of PROP-1 meet refusals whose body is not
 * an Error object, which is FMT-2's to judge, and the property rules must not take the blame.
 */
export const ERRORS_WITHOUT_CODE: FaultCase = {
  name: 'errors-without-code', rule: 'FMT-2', description: 'leaves `code` out of every Error object, and refuses names over 64 characters',
  make: () => serve(new (class extends ReferenceService {
    protected override validateCreate(value: unknown): WidgetInput {
      const input = super.validateCreate(value);
      if ([...input.name].length > 64) throw new HttpError(400, 'invalid_input', 'name must be 1 to 64 characters.');
      return input;
    }
    protected override sendError(res: ServerResponse, requestId: string, error: HttpError): void {
      this.sendJson(res, error.status, { message: error.message, request_id: requestId }, error.headers);
    }
  })()),
};
