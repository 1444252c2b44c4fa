/**
 * Whether the console gets colour, decided once per run, before vitest is loaded. NO_COLOR (any
 * non-empty value) means none; FORCE_COLOR means colour, except `0` and `false`, which are Node's
 * way of saying none; otherwise colour only on a terminal. vitest's colour library turns colour
 * on whenever FORCE_COLOR is set, even to 0, and reads the environment when it is loaded: so a
 * run without colour leaves it FORCE_COLOR unset and NO_COLOR set (the workers inherit both).
 */
import { ANSI_PAINT, NO_PAINT, type Paint } from '../../report/console-report.ts';

/** Whether the console may colour: NO_COLOR and FORCE_COLOR=0/false say no, FORCE_COLOR yes, else a terminal decides. */
export function colourWanted(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  if ((env.NO_COLOR ?? '') !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.trim().toLowerCase());
  return isTTY;
}

/** Decides colour for this process and makes the environment say the same to vitest and its workers; returns the paint to use. */
export function settleColour(env: Record<string, string | undefined> = process.env, isTTY = process.stdout.isTTY === true): Paint {
  const wanted = colourWanted(env, isTTY);
  if (!wanted) {
    delete env.FORCE_COLOR;
    env.NO_COLOR = '1';
  }
  return wanted ? ANSI_PAINT : NO_PAINT;
}
