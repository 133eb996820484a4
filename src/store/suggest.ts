// "Did you mean…": the existing paths closest to one that is missing.

import fs from 'node:fs';
import path from 'node:path';
import { editDistance } from '../model/editDistance.js';
import { isInside } from './inside.js';
import type { Root } from './root.js';

const MAX_SUGGESTIONS = 5;
/** Bound on directory entries visited when looking for the same file name elsewhere. */
const WALK_LIMIT = 20_000;
const SKIP_DIRS = new Set(['.git', '.rt', 'node_modules']);

/**
 * Paths (relative to the working directory, unescaped) that the user may have meant by the missing
 * absolute path `wanted`: near-misses of the first missing component in its existing parent,
 * then files of the same name elsewhere in the root.
 */
export function suggestPaths(root: Root, wanted: string): string[] {
  const out = new Set<string>();
  const show = (abs: string) => {
    // As they are (a newline included): they are quoted for the shell where shown, and JSON carries them whole.
    if (isInside(root.dir, abs)) out.add(path.relative(root.cwd, abs).split(path.sep).join('/'));
  };

  // 1. The first missing component, compared with its siblings.
  let parent = path.dirname(wanted);
  let missing = path.basename(wanted);
  const tail: string[] = [];
  while (!isDir(parent) && path.dirname(parent) !== parent) {
    tail.unshift(missing);
    missing = path.basename(parent);
    parent = path.dirname(parent);
  }
  if (isInside(root.dir, parent)) {
    const ranked = listDir(parent)
      .map((name) => ({ name, score: similarity(missing, name) }))
      .filter((e) => e.score < Infinity)
      .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
    for (const { name } of ranked.slice(0, MAX_SUGGESTIONS)) {
      const candidate = path.join(parent, name, ...tail);
      if (fs.existsSync(candidate)) show(candidate);
      else if (tail.length === 0) show(path.join(parent, name));
    }
  }

  // 2. The same file name anywhere in the root (bounded walk).
  const base = path.basename(wanted);
  if (out.size < MAX_SUGGESTIONS) {
    for (const found of findByName(root.dir, base)) {
      if (out.size >= MAX_SUGGESTIONS) break;
      show(found);
    }
  }
  return [...out].slice(0, MAX_SUGGESTIONS);
}

/** Lower is closer; Infinity when the names have little in common. */
function similarity(wanted: string, name: string): number {
  const a = wanted.toLowerCase();
  const b = name.toLowerCase();
  if (a === b) return 0;
  const distance = editDistance(a, b);
  if (distance <= Math.max(2, Math.floor(a.length / 3))) return distance;
  if (b.startsWith(a) || a.startsWith(b) || stem(a) === stem(b)) return distance + 10;
  return Infinity;
}

function stem(name: string): string {
  const dot = name.indexOf('.', 1);
  return dot === -1 ? name : name.slice(0, dot);
}

function findByName(rootDir: string, name: string): string[] {
  const found: string[] = [];
  const queue = [rootDir];
  let visited = 0;
  while (queue.length && visited < WALK_LIMIT && found.length < MAX_SUGGESTIONS) {
    const dir = queue.shift()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
    for (const entry of entries) {
      visited++;
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) queue.push(path.join(dir, entry.name));
      } else if (entry.name === name) {
        found.push(path.join(dir, entry.name));
      }
    }
  }
  return found;
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => n !== '.rt' && n !== '.git');
  } catch {
    return [];
  }
}
