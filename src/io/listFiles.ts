// Which files a search looks at: exactly the files git would show. In a git work tree that is
// `git ls-files --cached --others --exclude-standard` (every ignore source git honours), less
// what `.ignore` files exclude; elsewhere, a walk honouring `.gitignore` and `.ignore` files.
// Hidden files (a path component starting with ".") are left out unless asked for; `.git` and
// `.rt` always are.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

export interface ListOptions {
  readonly hidden: boolean;
  readonly noIgnore: boolean;
}

export interface Listing {
  /** Paths relative to the listed directory, with `/`, in no particular order. */
  readonly files: string[];
  /** Files left out because they are ignored or hidden (counted only where cheap to know). */
  readonly skippedHidden: number;
  readonly viaGit: boolean;
}

const ALWAYS_SKIPPED = new Set(['.git', '.rt']);
const IGNORE_FILES = ['.gitignore', '.ignore'];

export function listFiles(dir: string, options: ListOptions): Listing {
  if (!options.noIgnore) {
    const tracked = gitListing(dir);
    if (tracked) return filterListing(dir, tracked, options);
  }
  return walk(dir, options);
}

/** Files git shows under `dir` (tracked, and untracked but not ignored), or null outside a work tree. */
function gitListing(dir: string): string[] | null {
  const result = spawnSync('git', ['-c', 'core.quotePath=off', 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'], {
    cwd: dir,
    encoding: 'buffer',
    maxBuffer: 1 << 30,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
  });
  if (result.status !== 0 || result.error) return null;
  const out = result.stdout.toString('utf8');
  return out.length ? out.split('\0').filter((p) => p !== '' && !p.endsWith('/')) : [];
}

/** Applies what git does not know: `.ignore` files and the hidden rule. */
function filterListing(dir: string, files: string[], options: ListOptions): Listing {
  const ignoreFiles = files.filter((f) => f === '.ignore' || f.endsWith('/.ignore'));
  const matchers = ignoreFiles
    .map((f) => ({ base: path.posix.dirname(f), matcher: loadIgnore(path.join(dir, f)) }))
    .filter((m): m is { base: string; matcher: Ignore } => m.matcher !== undefined);
  let skippedHidden = 0;
  const kept = files.filter((f) => {
    if (!options.hidden && isHidden(f)) {
      skippedHidden++;
      return false;
    }
    for (const { base, matcher } of matchers) {
      const rel = base === '.' ? f : f.startsWith(`${base}/`) ? f.slice(base.length + 1) : undefined;
      if (rel !== undefined && ignoredWithParents(matcher, rel)) return false;
    }
    return true;
  });
  return { files: kept, skippedHidden, viaGit: true };
}

/** Whether `rel` or one of its parent folders is ignored by `matcher`. */
function ignoredWithParents(matcher: Ignore, rel: string): boolean {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) if (matcher.ignores(`${parts.slice(0, i).join('/')}/`)) return true;
  return matcher.ignores(rel);
}

function isHidden(rel: string): boolean {
  return rel.startsWith('.') || rel.includes('/.');
}

function loadIgnore(file: string): Ignore | undefined {
  try {
    return ignore().add(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A walk of `dir` honouring nested .gitignore and .ignore files (unless noIgnore). Symbolic links are not followed. */
function walk(dir: string, options: ListOptions): Listing {
  const files: string[] = [];
  let skippedHidden = 0;
  const stack: Array<{ rel: string; rules: Array<{ base: string; matcher: Ignore }> }> = [{ rel: '', rules: [] }];
  while (stack.length) {
    const { rel, rules: inherited } = stack.pop()!;
    const abs = rel ? path.join(dir, rel) : dir;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      continue;
    }
    let rules = inherited;
    if (!options.noIgnore) {
      for (const name of IGNORE_FILES) {
        if (entries.some((e) => e.name === name && e.isFile())) {
          const matcher = loadIgnore(path.join(abs, name));
          if (matcher) rules = [...rules, { base: rel, matcher }];
        }
      }
    }
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (!options.hidden && entry.name.startsWith('.')) {
        skippedHidden++;
        continue;
      }
      const isDir = entry.isDirectory();
      if (!isDir && !entry.isFile()) continue; // symbolic links, sockets, devices
      if (rules.some(({ base, matcher }) => matcher.ignores(base ? `${childRel.slice(base.length + 1)}${isDir ? '/' : ''}` : `${childRel}${isDir ? '/' : ''}`))) continue;
      if (isDir) stack.push({ rel: childRel, rules });
      else files.push(childRel);
    }
  }
  return { files, skippedHidden, viaGit: false };
}

/**
 * Sorts paths as a tree is read: component by component. Comparing code units with "/" taken as
 * the lowest gives exactly that order without splitting the paths.
 */
export function comparePaths(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x === 47) x = 0;
    if (y === 47) y = 0;
    return x - y;
  }
  return a.length - b.length;
}
