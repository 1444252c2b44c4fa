/** action.yml, parsed: for the unit tests that check it and for the runner emulation that runs it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../src/paths.ts';

/** One step of a composite action. */
export interface ActionStep {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly with?: Record<string, string | number | boolean>;
  readonly run?: string;
  readonly shell?: string;
  readonly env?: Record<string, string>;
  readonly 'working-directory'?: string;
}

/** action.yml, parsed. */
export interface ActionFile {
  readonly inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  readonly outputs: Record<string, { description: string; value: string }>;
  readonly runs: { using: string; steps: ActionStep[] };
}

/** Reads action.yml from the repository root. */
export function loadAction(): ActionFile {
  return parse(readFileSync(join(PROJECT_ROOT, 'action.yml'), 'utf8')) as ActionFile;
}

