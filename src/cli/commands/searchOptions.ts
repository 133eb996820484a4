// Options shared by the search commands.

import type { OptionSpec } from '../spec.js';

export const MATCH_OPTIONS: readonly OptionSpec[] = [
  { long: 'ignore-case', short: 'i', kind: 'switch', summary: 'match case-insensitively' },
  { long: 'word', short: 'w', kind: 'switch', summary: 'match whole words only (letters, digits and _ make words)' },
  { long: 'fixed', short: 'F', kind: 'switch', summary: 'take PATTERN as a literal string, not a regular expression' },
  { long: 'context', short: 'C', value: 'N', kind: 'count', summary: 'also print N lines before and after each hit' },
  { long: 'max', value: 'N', kind: 'count', summary: 'print at most N hits (default 200)' },
];

export const LISTING_OPTIONS: readonly OptionSpec[] = [
  { long: 'hidden', kind: 'switch', summary: 'also search hidden files and folders (names starting with a dot)' },
  { long: 'no-ignore', kind: 'switch', summary: 'also search files that .gitignore, .ignore or git\'s exclude files ignore' },
];
