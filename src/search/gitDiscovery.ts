// Whether git could find a work tree in a folder, told without starting git: outside any work
// tree, a listing walks, and starting git only to hear it fail costs a process (and loading
// Node's child_process) for nothing.
//
// (Reading git's index file for the tracked paths, in place of `git ls-files --cached`, was
// tried here and measured: it won nothing. A search asks for them beside ripgrep, which takes
// longer, so git's run was never waited on (`rt grep -F useState` in the bench tree: 175.4 ms
// with the reader, 175.8 without, 61 alternating runs); a find needs git's walk for the untracked
// files anyway, and that run reads the index itself (index read in JS beside `git ls-files
// --others`: 84 ms against 71 for the one run). The reader, exact against git on versions 2-4,
// is in the history: commits 357b211 and 931f1fb.)

import fs from 'node:fs';
import path from 'node:path';

/**
 * Whether git would find no work tree in `dir`: no folder from it up to the system's root (or
 * to the edge of its file system, where git stops looking) holds a `.git`, and none on the way
 * is itself a repository. False when git could answer otherwise, or its environment points it
 * elsewhere: then git is asked. Costs a few system calls a folder.
 */
export function outsideGit(dir: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (Object.keys(env).some((name) => name.startsWith('GIT_') && !HARMLESS_ENV.test(name))) return false;
  let at: string;
  try {
    // git starts from the real path of its working directory.
    at = fs.realpathSync.native(dir);
  } catch {
    return false;
  }
  let dev: number | undefined;
  for (; ; at = path.dirname(at)) {
    const st = fs.statSync(at, { throwIfNoEntry: false });
    if (!st) return false;
    if (dev !== undefined && st.dev !== dev) return true;
    dev = st.dev;
    if (fs.existsSync(path.join(at, '.git'))) return false;
    // A bare repository (or a .git folder itself) is one git would take.
    if (fs.existsSync(path.join(at, 'HEAD')) && fs.existsSync(path.join(at, 'objects'))) return false;
    if (path.dirname(at) === at) return true;
  }
}

/** git's variables that do not change where it looks for a repository (others: git is asked). */
const HARMLESS_ENV = new RegExp(
  '^GIT_(OPTIONAL_LOCKS|TERMINAL_PROMPT|PAGER|EDITOR|SEQUENCE_EDITOR|ASKPASS|FLUSH|PROGRESS_DELAY|EXEC_PATH|' +
    'REFLOG_ACTION|CONFIG_NOSYSTEM|CONFIG_GLOBAL|CONFIG_SYSTEM|\\w*PATHSPECS|' +
    '(SSL|CURL|HTTP|PROXY|SSH|TRACE|AUTHOR|COMMITTER|MERGE|PS1|PROTOCOL|ALLOW_PROTOCOL)\\w*)$',
);
