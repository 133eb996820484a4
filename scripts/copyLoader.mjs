// The code-cache loader of scripts/codeCache.cjs, copied between its marker lines into the two
// files that must stand alone: bin/rt.cjs and scripts/sea-main.cjs (see codeCache.cjs). The build
// writes the copies; a test checks them.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const START = '// <code-cache loader>';
const END = '// </code-cache loader>';

/** The files that carry a copy of the loader, from the repository's root. */
export const LOADER_COPIES = ['bin/rt.cjs', 'scripts/sea-main.cjs'];

/** The text of `file` (from `root`) with its copy of the loader made the one in codeCache.cjs. */
export function withLoader(root, file) {
  const loader = between(readFileSync(path.join(root, 'scripts', 'codeCache.cjs'), 'utf8'), 'scripts/codeCache.cjs');
  const text = readFileSync(path.join(root, file), 'utf8');
  const copy = between(text, file);
  return text.replace(copy, loader);
}

function between(text, name) {
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from === -1 || to < from) throw new Error(`${name} needs the lines ${START} and ${END}`);
  return text.slice(from, to + END.length);
}
