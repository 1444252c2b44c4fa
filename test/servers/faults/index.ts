/**
 * Faulty servers, one module per rule family: each is the reference service with exactly one
 * fault switched on, and the rule the suite must fail it on. `npm run test:self` proves each is
 * caught by that rule. The property rules (PROP) have their own servers, in ../property-faults.ts.
 */
import { STATE_FAULTS } from './attribution.ts';
import { AUTH_FAULTS } from './auth.ts';
import type { FaultCase } from './case.ts';
import { CRUD_FAULTS } from './crud.ts';
import { DEL_FAULTS } from './del.ts';
import { FMT_FAULTS } from './fmt.ts';
import { ISO_FAULTS } from './iso.ts';
import { MAL_FAULTS } from './mal.ts';
import { PAGE_FAULTS } from './page.ts';
import { MEMBER_NAME_FAULTS, PAGE_ACCOUNT_FAULTS } from './page-accounts.ts';

export type { FaultCase };
export { AUTH_FAULTS, CRUD_FAULTS, DEL_FAULTS, FMT_FAULTS, ISO_FAULTS, MAL_FAULTS, PAGE_FAULTS };

/** The faults of each family, keyed by the family's id in the rule catalogue. */
export const FAULTS_BY_FAMILY: Readonly<Record<string, readonly FaultCase[]>> = {
  FMT: [...FMT_FAULTS, ...STATE_FAULTS.filter((f) => f.rule.startsWith('FMT-'))],
  CRUD: [...CRUD_FAULTS, ...STATE_FAULTS.filter((f) => f.rule.startsWith('CRUD-'))],
  DEL: DEL_FAULTS,
  ISO: ISO_FAULTS,
  AUTH: AUTH_FAULTS,
  MAL: [...MAL_FAULTS, ...MEMBER_NAME_FAULTS],
  PAGE: [...PAGE_FAULTS, ...PAGE_ACCOUNT_FAULTS, ...STATE_FAULTS.filter((f) => f.rule.startsWith('PAGE-'))],
};

/** Every fault the self-tests run. */
export const ALL_FAULTS: readonly FaultCase[] = Object.values(FAULTS_BY_FAMILY).flat();
