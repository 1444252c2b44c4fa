/** Stores holding widgets before any request: an account as large as a real one, for the memory benchmark. */
import { WidgetStore } from './store.ts';

/** A store in which `account` already holds `count` widgets (none of them carries a suite marker). */
export function prefilledStore(account: string, count: number): WidgetStore {
  const store = new WidgetStore();
  for (let i = 1; i <= count; i += 1) store.create(account, { name: `existing widget ${i}`, description: `made before the run, number ${i}` });
  return store;
}
