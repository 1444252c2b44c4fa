/**
 * What the scenario suites use from the layers below the harness, in one place: suites/ import
 * only the harness and the schemas (test/unit/layers.test.ts holds them to it), so a suite reads
 * as rules and checks, and the layers under it can change without touching a suite.
 */
export type { AuthOverride, WidgetApi } from '../client/api.ts';
export { idOf } from '../client/api.ts';
export type { ApiResponse } from '../http/client.ts';
export { describeEnd, describePages, walkAll, walkBudget, walkPages, type WalkResult } from '../client/walk.ts';
export { walkAccount, type AccountWalks } from '../client/walk-account.ts';
export { CollectionWriteRefused, InconclusiveError, OverCapError, UnprovenDeleteError } from '../errors.ts';
