// What git tracks, read from its index file (.git/index, git's documented format, versions 2 to
// 4: Documentation/gitformat-index.txt) instead of asking `git ls-files`: starting git costs
// more than reading the file, and a search runs it beside ripgrep, which needs the cores. Only
// the plain case is read here: whatever this reader does not know for certain (a split or sparse
// index, sparse checkout, a merge in progress, another hash, a work tree set elsewhere, git's
// environment variables, a repository of another user) is left to git itself.

import fs from 'node:fs';
import path from 'node:path';

/**
 * Where a folder stands: 'none' when no folder from it up to the system's root holds a `.git`
 * (git could find no work tree there either), or the bytes `git ls-files -z --cached` would
 * print run in it (tracked paths under it, relative to it, each ended by a NUL, in the index's
 * order), or undefined when only git can tell.
 */
export type IndexAnswer = 'none' | Buffer | undefined;

export function indexListing(dir: string, env: NodeJS.ProcessEnv = process.env): IndexAnswer {
  const found = workTreeOf(dir, env);
  if (found === 'none' || found === undefined) return found;
  const repo = repositoryOf(found.dotGit);
  if (!repo) return undefined;
  const prefix = path.relative(found.top, found.real);
  if (prefix.split(path.sep).includes('.git')) return undefined;
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(repo.gitDir, 'index'));
  } catch {
    // No index yet (a fresh repository) or one that cannot be read: git says which.
    return undefined;
  }
  return trackedUnder(bytes, prefix === '' ? '' : `${prefix.split(path.sep).join('/')}/`);
}

/**
 * Whether git would find no work tree in `dir`: no folder from it up to the system's root holds
 * a `.git` (and git's environment does not point it elsewhere). Costs a few system calls.
 */
export function outsideGit(dir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return workTreeOf(dir, env) === 'none';
}

/** The real path of `dir` and the nearest `.git` above it (see findDotGit); undefined when git alone can tell. */
function workTreeOf(dir: string, env: NodeJS.ProcessEnv): { real: string; top: string; dotGit: string } | 'none' | undefined {
  if (Object.keys(env).some((name) => name.startsWith('GIT_') && !HARMLESS_ENV.test(name))) return undefined;
  let real: string;
  try {
    // git works from the real path of its working directory.
    real = fs.realpathSync.native(dir);
  } catch {
    return undefined;
  }
  const found = findDotGit(real);
  return found === 'none' || found === undefined ? found : { real, ...found };
}

/** git's variables that change nothing in what ls-files lists from the index. */
const HARMLESS_ENV = /^GIT_(OPTIONAL_LOCKS|TERMINAL_PROMPT|PAGER|EDITOR|SEQUENCE_EDITOR|ASKPASS|FLUSH|PROGRESS_DELAY|EXEC_PATH|REFLOG_ACTION|CONFIG_NOSYSTEM|CONFIG_GLOBAL|CONFIG_SYSTEM|\w*PATHSPECS|(SSL|CURL|HTTP|PROXY|SSH|TRACE|AUTHOR|COMMITTER|MERGE|PS1|PROTOCOL|ALLOW_PROTOCOL)\w*)$/;

/**
 * The nearest `.git` above `real` (a folder or a file naming one) and the folder holding it; 'none'
 * when no folder up to the root (or to the edge of the file system, where git stops) holds one;
 * undefined when git could see another answer: a folder on the way that is itself a repository.
 */
function findDotGit(real: string): { top: string; dotGit: string } | 'none' | undefined {
  let dev: number | undefined;
  for (let at = real; ; at = path.dirname(at)) {
    let st: fs.Stats;
    try {
      st = fs.statSync(at);
    } catch {
      return undefined;
    }
    // git looks no further than the file system it started in.
    if (dev !== undefined && st.dev !== dev) return 'none';
    dev = st.dev;
    const dotGit = path.join(at, '.git');
    if (fs.existsSync(dotGit)) return { top: at, dotGit };
    // A bare repository (or a .git folder itself) is a repository git would take: not a work tree, but git says so.
    if (fs.existsSync(path.join(at, 'HEAD')) && fs.existsSync(path.join(at, 'objects'))) return undefined;
    if (path.dirname(at) === at) return 'none';
  }
}

/**
 * The repository a `.git` stands for: its git folder (a linked work tree's own, holding its
 * index), when it is one this reader knows: its config (the common one) sets no work tree
 * elsewhere, no bare repository, no extension (another hash, per-work-tree config), and it is
 * owned by this user (git refuses others' unless told they are safe).
 */
function repositoryOf(dotGit: string): { gitDir: string } | undefined {
  try {
    let gitDir = dotGit;
    const st = fs.lstatSync(dotGit);
    if (st.isFile()) {
      const line = /^gitdir: (.+?)\r?\n?$/.exec(fs.readFileSync(dotGit, 'utf8'));
      if (!line) return undefined;
      gitDir = path.resolve(path.dirname(dotGit), line[1]!);
    } else if (!st.isDirectory()) return undefined;
    const commonFile = path.join(gitDir, 'commondir');
    const common = fs.existsSync(commonFile) ? path.resolve(gitDir, fs.readFileSync(commonFile, 'utf8').trim()) : gitDir;
    const uid = process.geteuid?.();
    for (const owned of [path.dirname(dotGit), gitDir, common]) if (uid !== undefined && fs.statSync(owned).uid !== uid) return undefined;
    if (!fs.existsSync(path.join(gitDir, 'HEAD'))) return undefined;
    const config = fs.readFileSync(path.join(common, 'config'), 'utf8').toLowerCase();
    if (/worktree|bare\s*=\s*true|\[extensions|\[include|sparse|split/.test(config)) return undefined;
    return { gitDir };
  } catch {
    return undefined;
  }
}

/**
 * The paths of an index file's entries that start with `prefix` (bytes, with "/" at its end, or
 * ""), less it, each ended by a NUL: `git ls-files -z --cached` in that folder. Undefined for
 * anything but a plain index of SHA-1 entries at stage 0, none of them sparse or skipped: a merge
 * in progress, sparse checkout, a split or sparse index, a required extension not known here, or
 * bytes that do not hold together.
 */
export function trackedUnder(index: Buffer, prefix: string): Buffer | undefined {
  const HASH = 20;
  if (index.length < 12 + HASH || index.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = index.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = index.readUInt32BE(8);
  const want = Buffer.from(prefix, 'utf8');
  const skip = want.length;
  // (Versions 2 and 3 hold every name whole: the names fit in the file's size. Version 4's may
  // not, and `out` grows.)
  let out = Buffer.allocUnsafe(index.length);
  let written = 0;
  let at = 12;
  // Version 4: each name is the previous one less some bytes at its end, then new ones, built in
  // `names` (the longest name at most the file's size).
  const names = version === 4 ? Buffer.allocUnsafe(index.length) : Buffer.alloc(0);
  let previousLength = 0;
  const end = index.length - HASH;
  // (Bytes read one by one: this runs once a command, before the JIT has made readUInt* fast.)
  for (let i = 0; i < count; i++) {
    if (at + 62 > end) return undefined;
    // The file type: the mode's bits 12-15 (a regular file, a link, a gitlink), the rest of it small.
    const type = index[at + 26]! >> 4;
    const flags = (index[at + 60]! << 8) | index[at + 61]!;
    // A stage other than 0 (a conflict), or an entry that is not a file, link or gitlink (a
    // sparse index's folder).
    if (flags & 0x3000 || index[at + 24] !== 0 || index[at + 25] !== 0 || (type !== 0o10 && type !== 0o12 && type !== 0o16)) return undefined;
    let nameAt = at + 62;
    if (flags & 0x4000) {
      if (version < 3 || nameAt + 2 > end) return undefined;
      // skip-worktree (sparse checkout) and bits not known: git's answer. (Intent to add is listed.)
      if (((index[nameAt]! << 8) | index[nameAt + 1]!) & ~0x2000) return undefined;
      nameAt += 2;
    }
    let length = flags & 0xfff;
    if (version === 4) {
      let c = index[nameAt++]!;
      let strip = c & 127;
      while (c & 128) {
        if (nameAt >= end) return undefined;
        c = index[nameAt++]!;
        strip = ((strip + 1) << 7) | (c & 127);
      }
      const nul = index.indexOf(0, nameAt);
      if (nul === -1 || nul >= end || strip > previousLength) return undefined;
      // The name, whole, in `names`: the kept part of the previous one (in place), then the new bytes.
      let nameEnd = previousLength - strip;
      for (let j = nameAt; j < nul; j++) names[nameEnd++] = index[j]!;
      previousLength = nameEnd;
      if (previousLength === 0 || length !== Math.min(previousLength, 0xfff)) return undefined;
      at = nul + 1;
      if (skip && !startsWithAt(names, 0, previousLength, want)) continue;
      if (written + previousLength + 1 > out.length) {
        const larger = Buffer.allocUnsafe(2 * out.length + previousLength + 1);
        out.copy(larger, 0, 0, written);
        out = larger;
      }
      for (let j = skip; j < previousLength; j++) out[written++] = names[j]!;
      out[written++] = 0;
      continue;
    }
    // Versions 2 and 3: the name's length is in its flags (0xfff: that long or longer).
    const nul = length < 0xfff ? nameAt + length : index.indexOf(0, nameAt + 0xfff);
    if (nul === -1 || nul >= end || index[nul] !== 0 || length === 0) return undefined;
    length = nul - nameAt;
    // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
    at += (nul - at + 8) & ~7;
    if (skip && !startsWithAt(index, nameAt, length, want)) continue;
    for (let j = nameAt + skip; j <= nul; j++) out[written++] = index[j]!;
  }
  // Extensions: a required one (its signature not starting with a capital: a split index's
  // "link", a sparse index's "sdir") changes what the entries mean.
  while (at + 8 <= end) {
    const first = index[at]!;
    if (first < 0x41 || first > 0x5a) return undefined;
    at += 8 + index.readUInt32BE(at + 4);
  }
  if (at !== end) return undefined;
  return out.subarray(0, written);
}

/** Whether the `length` bytes at `at` in `bytes` start with `prefix` and hold more. */
function startsWithAt(bytes: Buffer, at: number, length: number, prefix: Buffer): boolean {
  if (length <= prefix.length) return false;
  for (let k = 0; k < prefix.length; k++) if (bytes[at + k] !== prefix[k]) return false;
  return true;
}
