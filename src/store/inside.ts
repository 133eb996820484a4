// Whether a path lies inside a folder: its own module, so that root.ts and suggest.ts (which
// root.ts uses) both take it from here rather than from each other.

import path from 'node:path';

export function isInside(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}
