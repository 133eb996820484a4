// Whether a path lies inside a folder: its own module, so that root.ts and suggest.ts (which
// root.ts uses) both take it from here rather than from each other.

import path from 'node:path';

export function isInside(dir: string, target: string): boolean {
  if (below(dir, target) !== undefined) return true;
  const rel = path.relative(dir, target);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/** Whether a POSIX path has a part "." or "..", or an empty one: one path.relative must normalise. */
const UNNORMAL = /(?:^|\/)\.{1,2}(?:\/|$)|\/\//;

/**
 * `target` relative to `dir` (with the platform's separators) when it lies strictly inside and
 * both are absolute and normal, as the listed paths of a search are: taken by slicing, which
 * costs far less than path.relative for each of thousands of files. Undefined otherwise (then
 * path.relative tells).
 */
export function below(dir: string, target: string): string | undefined {
  if (path.sep !== '/' || !normalDir(dir)) return undefined;
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  if (!target.startsWith(prefix) || target.length === prefix.length) return undefined;
  if (UNNORMAL.test(target)) return undefined;
  const rel = target.slice(prefix.length);
  return rel.endsWith('/') ? undefined : rel;
}

/** The folder last found absolute and normal: a search asks of one root (or a few) for every file it lists. */
let lastNormalDir: string | undefined;

function normalDir(dir: string): boolean {
  if (dir === lastNormalDir) return true;
  if (!dir.startsWith('/') || UNNORMAL.test(dir)) return false;
  lastNormalDir = dir;
  return true;
}
