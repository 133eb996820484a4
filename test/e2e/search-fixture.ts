// A generated git repository for the search tests (grep.test.ts, find.test.ts), and helpers
// to compare rt's answers with git's: `git grep` and `git ls-files` are the reference for which
// files are searched ("exactly the files git would show"), less what git cannot know
// (hidden paths, `.ignore` files, symbolic links, which rt skips).

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Writes `content` at `rel` under `dir`, making parent folders. */
function put(dir: string, rel: string, content: string | Buffer): void {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

/** Runs git in `cwd` with a fixed, minimal environment (plus `env`); throws on failure. */
export function git(
  cwd: string,
  args: readonly string[],
  env: Record<string, string> = {},
  okStatuses: readonly number[] = [0],
): Buffer {
  const r = spawnSync('git', args as string[], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1', ...env },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error || !okStatuses.includes(r.status ?? -1)) {
    throw new Error(`git ${args.join(' ')} (in ${cwd}) exited ${r.status}: ${r.stderr?.toString()}`);
  }
  return r.stdout;
}

export const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Bytes that are not valid UTF-8, around a needle. */
export const LATIN1_LINE = Buffer.concat([
  Buffer.from('caf'),
  Buffer.from([0xe9]),
  Buffer.from(' parseConfig '),
  Buffer.from([0xff, 0xfe]),
  Buffer.from(' end'),
]);

export interface SearchRepo {
  readonly dir: string;
  /** The global excludes file, outside the repository. */
  readonly globalExcludes: string;
}

/**
 * Builds the repository in `dir` (an empty temporary directory; `outside` is another one, for
 * the global excludes file). What is where, and why:
 *
 *   tracked:      README.md, src/app.ts, src/util.ts, src/lib/deep/nested.ts, src/words.txt,
 *                 src/long.txt (a line cut for display), web/app.js, web/app.min.js,
 *                 docs/my notes.md, data/{blob.bin (NUL byte), latin1.txt (invalid UTF-8),
 *                 crlf.txt (CRLF), bom.ts (BOM)}, link.ts (symlink), generated/gen.ts and
 *                 src/lib/deep/skip.gen.ts (excluded by the root .ignore), src-old/legacy.ts
 *                 (after src/ in tree order, before it bytewise), logs/tracked.log (tracked
 *                 although *.log is ignored), src/.hidden.ts, .config/settings.json (hidden)
 *   untracked:    src/new.ts, notes/todo.md, logs/keep.log (un-ignored by `!keep.log`),
 *                 src/dot-ignored.ts (excluded by src/.ignore), .env (hidden)
 *   ignored:      debug.log, logs/other.log (*.log), build/out.js (build/), logs/local/x.txt
 *                 (logs/.gitignore), src/gen-by-src.ts (src/.gitignore), secret/key.txt
 *                 (.git/info/exclude), old.bak (global excludes file)
 */
export function buildSearchRepo(dir: string, outside: string): SearchRepo {
  git(dir, ['init', '-q', '.']);
  const globalExcludes = path.join(outside, 'global-excludes');
  fs.writeFileSync(globalExcludes, '*.bak\n');
  git(dir, ['config', 'core.excludesFile', globalExcludes]);
  git(dir, ['config', 'user.name', 'rt tests']);
  git(dir, ['config', 'user.email', 'rt@example.invalid']);
  git(dir, ['config', 'core.autocrlf', 'false']);

  put(dir, '.gitignore', '*.log\nbuild/\n');
  put(dir, 'logs/.gitignore', '!keep.log\nlocal/\n');
  put(dir, 'src/.gitignore', 'gen-by-src.ts\n');
  put(dir, '.ignore', 'generated/\n*.gen.ts\n');
  put(dir, 'src/.ignore', 'dot-ignored.ts\n');
  fs.appendFileSync(path.join(dir, '.git/info/exclude'), 'secret/\n');

  put(dir, 'README.md', '# Demo\n\nCall parseConfig first.\nThen a.b(c) and aXb(c).\nfoo1 is not foo.\n');
  put(
    dir,
    'src/app.ts',
    [
      "import { parseConfig } from './util';",
      '',
      'export function main(args: string[]) {',
      '  const cfg = parseConfig(args);',
      '  if (!cfg) {',
      '    return 1;',
      '  }',
      '  const v = a.b(c);',
      '  const w = a.b(c) + a.b(c);',
      '  // foo22 and foo333',
      '  return parseConfig.length + v + w;',
      '}',
      '',
    ].join('\n'),
  );
  put(
    dir,
    'src/util.ts',
    [
      'export function parseConfig(args: string[]) {',
      '\treturn args.length > 0 ? { args } : undefined;',
      '}',
      '',
      'export const PARSECONFIG = "upper";',
      'export const parseConfigs = [parseConfig];',
      'return_value();',
      '',
    ].join('\n'),
  );
  put(dir, 'src/lib/deep/nested.ts', 'export const deep = "parseConfig";\n// foo7\n   return deep;\n');
  put(dir, 'src/long.txt', `${'x'.repeat(2500)} parseConfig at the end of a long line\nshort parseConfig\n`);
  put(dir, 'src/words.txt', 'foo\nfoobar\nfoo.bar\nbarfoo\nfoo_bar\nFOO\nabc\na.c\nabcabc\n');
  put(dir, 'src/lib/deep/skip.gen.ts', 'skipped parseConfig // foo3\n');
  put(dir, 'src-old/legacy.ts', 'legacy parseConfig\n  return 0;\n');
  put(dir, 'web/app.js', 'parseConfig();\n');
  put(dir, 'web/app.min.js', 'parseConfig();var a=1;\n');
  put(dir, 'docs/my notes.md', 'notes about parseConfig\nand a.b(c)\n');
  put(
    dir,
    'data/blob.bin',
    Buffer.concat([Buffer.from('parseConfig\n'), Buffer.from([0, 1, 2, 3]), Buffer.from('\nparseConfig\n')]),
  );
  put(
    dir,
    'data/latin1.txt',
    Buffer.concat([Buffer.from('first line\n'), LATIN1_LINE, Buffer.from('\nlast foo9 line\n')]),
  );
  put(dir, 'data/crlf.txt', 'crlf one\r\n  return parseConfig;\r\nfoo42\r\na.b(c)\r\n');
  put(dir, 'data/bom.ts', Buffer.concat([BOM, Buffer.from('parseConfig at the start\nsecond\n  return foo5;\n')]));
  fs.symlinkSync('src/app.ts', path.join(dir, 'link.ts'));
  put(dir, 'generated/gen.ts', 'export const gen = parseConfig;\n');
  put(dir, 'logs/tracked.log', 'tracked log mentions parseConfig\n');
  put(dir, 'src/.hidden.ts', 'hidden parseConfig\n');
  put(dir, '.config/settings.json', '{ "parseConfig": true }\n');

  git(dir, ['add', '.']);
  git(dir, ['add', '-f', 'logs/tracked.log']);
  git(dir, ['commit', '-q', '-m', 'fixture']);

  // Untracked, not ignored.
  put(dir, 'src/new.ts', 'export const fresh = parseConfig; // foo8\n');
  put(dir, 'notes/todo.md', '- check a.b(c)\n- parseConfig\n');
  put(dir, 'logs/keep.log', 'kept log: parseConfig\n');
  put(dir, 'src/dot-ignored.ts', 'dot-ignored parseConfig\n');
  put(dir, '.env', 'PARSE=parseConfig\n');

  // Ignored.
  put(dir, 'debug.log', 'debug parseConfig\n');
  put(dir, 'logs/other.log', 'other parseConfig\n');
  put(dir, 'build/out.js', 'built parseConfig a.b(c)\n');
  put(dir, 'logs/local/x.txt', 'local parseConfig\n');
  put(dir, 'src/gen-by-src.ts', 'gen by src parseConfig\n');
  put(dir, 'secret/key.txt', 'secret parseConfig\n');
  put(dir, 'old.bak', 'backup parseConfig\n');

  return { dir, globalExcludes };
}

/** Whether a path has a component starting with "." (a hidden file or folder). */
export function isHidden(rel: string): boolean {
  return rel.split('/').some((c) => c.startsWith('.'));
}

/** Paths the `.ignore` files of the fixture exclude (git does not know them). */
export function dotIgnored(rel: string): boolean {
  return rel.startsWith('generated/') || rel.endsWith('.gen.ts') || rel === 'src/dot-ignored.ts';
}

/** Whether `rel` (from the repository root) is a symbolic link. */
export function isSymlink(dir: string, rel: string): boolean {
  return fs.lstatSync(path.join(dir, rel)).isSymbolicLink();
}

/**
 * `path:line` keys of `git grep [--untracked] -I -n ARGS` (e.g. ['-F', 'x']), run at `dir`.
 * `--untracked` leaves out tracked files that an ignore rule matches (a git quirk: `git status`
 * and `git ls-files` show them), so the reference is the union of both runs.
 */
export function gitGrepHits(dir: string, args: readonly string[], untracked: boolean): string[] {
  const out = git(
    dir,
    ['-c', 'core.quotePath=off', 'grep', ...(untracked ? ['--untracked'] : []), '-I', '-n', '--null', ...args],
    {},
    [0, 1],
  );
  const keys: string[] = [];
  for (const line of out.toString('latin1').split('\n')) {
    if (line === '') continue;
    // With --null: PATH\0LINE\0CONTENT (git 2.39), or PATH\0LINE:CONTENT on older versions.
    const m = /^([^\0]*)\0(\d+)[\0:]/.exec(line);
    if (!m) throw new Error(`cannot parse git grep output: ${JSON.stringify(line)}`);
    keys.push(`${Buffer.from(m[1]!, 'latin1').toString('utf8')}:${m[2]}`);
  }
  return keys.sort();
}

/** `git ls-files --cached --others --exclude-standard` at `dir` (relative to it). */
export function gitFiles(dir: string, env: Record<string, string> = {}): string[] {
  const out = git(
    dir,
    ['-c', 'core.quotePath=off', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    env,
  );
  return [
    ...new Set(
      out
        .toString('utf8')
        .split('\0')
        .filter((p) => p !== ''),
    ),
  ].sort();
}

/** The reference hits for `git grep` ARGS: tracked and untracked, less what rt must skip. */
export function expectedGitHits(dir: string, args: readonly string[]): string[] {
  const keys = new Set([...gitGrepHits(dir, args, false), ...gitGrepHits(dir, args, true)]);
  return [...keys]
    .filter((k) => {
      const p = k.slice(0, k.lastIndexOf(':'));
      return !isHidden(p) && !dotIgnored(p) && !isSymlink(dir, p);
    })
    .sort();
}

// ---------------------------------------------------------------------------------------------
// Reading rt's search output

export interface Hit {
  readonly path: string;
  readonly n: number;
  readonly lid: string;
  /** `|` for a hit, `-` for a context line. */
  readonly sep: string;
  readonly content: string;
}

/** A line of `rt grep` output: PATH:NUMBER:LID|CONTENT (or LID-CONTENT for context). */
const HIT_LINE = /^(.+?):(\d+):([0-9a-z]{4})([|-])(.*)$/s;

export function parseHit(line: string): Hit | undefined {
  const m = HIT_LINE.exec(line);
  return m ? { path: m[1]!, n: Number(m[2]), lid: m[3]!, sep: m[4]!, content: m[5]! } : undefined;
}

/** The lines of stdout (without the final empty string after the last newline). */
export function outLines(stdout: string): string[] {
  const lines = stdout.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Sorts paths as a tree is read: component by component (what "sorted" means here). */
export function treeOrder(a: string, b: string): number {
  const pa = a.split('/');
  const pb = b.split('/');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] !== pb[i]) return pa[i]! < pb[i]! ? -1 : 1;
  }
  return pa.length - pb.length;
}

/** `path:line` keys in output order: by path (tree order), then by line number. */
export function sortKeys(keys: readonly string[]): string[] {
  const split = (k: string) => [k.slice(0, k.lastIndexOf(':')), Number(k.slice(k.lastIndexOf(':') + 1))] as const;
  return [...keys].sort((a, b) => {
    const [pa, na] = split(a);
    const [pb, nb] = split(b);
    return pa === pb ? na - nb : treeOrder(pa, pb);
  });
}

export interface CapNotice {
  readonly more: number;
  readonly what: string;
  /** The suggested command, as printed. */
  readonly command: string;
  /** Its arguments after `rt`, as a shell would split them. */
  readonly argv: string[];
}

/** Reads the cap notice, `(N more hits|files ... see them with: rt ..., or ...)`. */
export function parseCapNotice(line: string): CapNotice | undefined {
  const m = /^\((\d+) more (hits|files)\b.*?see them with: (rt .*?)(?:, or narrow .*)?\)$/.exec(line);
  if (!m) return undefined;
  return { more: Number(m[1]), what: m[2]!, command: m[3]!, argv: shellWords(m[3]!.slice(3)) };
}

/** Splits `text` into words exactly as bash does (quotes, escapes), without expanding anything else. */
export function shellWords(text: string): string[] {
  const r = spawnSync('bash', ['-c', `set -f; printf '%s\\0' ${text}`], { env: { PATH: process.env.PATH } });
  if (r.status !== 0) throw new Error(`bash could not split ${text}: ${r.stderr}`);
  return r.stdout.toString('utf8').split('\0').slice(0, -1);
}
