// The one step from options as given to the typed options a handler reads: commander's result
// for a command line, a tool call's fields for rt mcp. Counts are checked here, once.

import { positiveInt } from '../settings/env.js';
import type { OptionSpec, OptionsOf } from './spec.js';

/**
 * Options as given, by their keys (optionKey): a switch true when given (a no-X switch false),
 * a count as text (a command line's) or a number (a tool call's), a list's values, a choice or
 * a text; a key absent when not given.
 */
export type GivenOptions = Readonly<Record<string, unknown>>;

/** An option's key, as commander names it: dry-run → dryRun, no-check → check. */
export function optionKey(long: string): string {
  return long.replace(/^no-/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The options of the table `options` that `given` holds, typed from the table; a bad count is bad usage. */
export function parseOptions<T extends readonly OptionSpec[]>(options: T, given: GivenOptions): OptionsOf<T> {
  const parsed: Record<string, unknown> = {};
  for (const option of options) {
    const key = optionKey(option.long);
    const value = given[key];
    switch (option.kind) {
      case 'switch':
        parsed[key] = option.long.startsWith('no-') ? value !== false : value === true;
        break;
      case 'count':
        parsed[key] = value === undefined ? undefined : countOf(option, String(value));
        break;
      case 'list':
        parsed[key] = value ?? [];
        break;
      case 'choice':
      case 'text':
        parsed[key] = value;
        break;
    }
  }
  // The mapped type is what this loop builds, key by key, from the same table.
  return parsed as OptionsOf<T>;
}

/** A count's number, at least its `least`: else bad usage naming the option and what it counts. */
function countOf(option: OptionSpec, text: string): number {
  const least = option.least ?? 0;
  if (least === 0 && text.trim() === '0') return 0;
  return positiveInt(text, `--${option.long}`, `${option.counting ?? 'lines'}, ${least} or more`);
}

/** The long names of the switches `given` turns on (a no-X switch, which turns a thing off, is not one of them). */
export function switchesGiven(options: readonly OptionSpec[], given: GivenOptions): string[] {
  return options
    .filter((o) => o.kind === 'switch' && !o.long.startsWith('no-') && given[optionKey(o.long)] === true)
    .map((o) => o.long);
}
