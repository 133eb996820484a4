import path from 'node:path';
import { printable, RtError, shellQuote } from '../../model/errors.js';
import { absPrefixOf, globMatcher, nameEnding, placeUnder, type Candidate } from '../../search/candidates.js';
import { comparePaths, type ListOptions, listFiles } from '../../search/listFiles.js';
import { firstListed, isFolder, listedKind as kindOf, pathExists } from '../../search/listedKind.js';
import { reportCounts } from '../../search/report.js';
import { statResolved } from '../../store/indexedFile.js';
import { resolveInRoot, type ResolvedPath } from '../../store/root.js';
import { suggestPaths } from '../../store/suggest.js';
import type { Context } from '../context.js';
import { CountPrinter } from '../hitPrinting.js';
import { capNotice, commandLine, noteUndecodable } from '../searchNotes.js';
import { defineCommand } from '../spec.js';
import { LISTING_OPTIONS, type ListingOptions, listOptions, maxOption } from './searchOptions.js';

const GLOB_CHARS = /[*?[\]{}]/;

export const findCommand = defineCommand({
  name: 'find',
  summary: 'list files whose path matches a glob or contains a string',
  tool: [
    'List the files under dir (default: the working directory) whose path matches pattern, one a line,',
    'sorted as a tree is read. A pattern with * ? [ ] { } is a glob: without a / it matches the file name',
    'at any depth (*.rs), with a / the path from dir (** crosses folders); any other pattern is a',
    'case-insensitive substring of the path; an empty one lists every file. The files are what git would',
    'show, less hidden and binary ones (hidden, no_ignore list more). At most 200 paths (max), then how',
    'many more. Exit 1: nothing matched.',
  ],
  description: [
    'Lists the files under DIR (default: the working directory) that match PATTERN, one path a line ' +
      'relative to the working directory, sorted as a tree is read. A PATTERN with glob characters (* ? [ ' +
      '] { }) is a glob: without a / it matches the file name at any depth (*.rs finds every Rust file), ' +
      'with a / it matches the path from DIR (** crosses folders). Any other PATTERN is a case-insensitive ' +
      'substring of the path from DIR; an empty PATTERN lists every file.',
    'The files are those grep searches: what git would show, less hidden files, unless --hidden or ' +
      '--no-ignore, and less binary files (as grep and open tell them: a NUL byte in the first 8 KiB, or ' +
      'mostly control bytes); symbolic links to files are listed too (grep skips them), but for links to ' +
      'binary files inside the root (a link out of the root is listed unread), and so is a file that ' +
      'cannot be read. At most 200 paths (--max N), then a line saying how many more (a count that may ' +
      'include what is never printed: binary files, nested repositories, tracked files deleted from the ' +
      'work tree, links to folders or to nothing, and tracked files whose folder has become a symbolic ' +
      'link). When nothing matches but ignored or hidden files do, or binary ones, standard error says so ' +
      'and how to list them; it also names the matching files left out because their names are not valid ' +
      'UTF-8 (rt cannot name them).',
  ],
  args: [
    { name: 'pattern', summary: 'a glob, or a substring of the path', required: true, complete: 'none' },
    {
      name: 'dir',
      summary: 'the folder to look in (default: the working directory)',
      required: false,
      complete: 'dir',
    },
  ],
  options: [
    {
      long: 'max',
      value: 'N',
      kind: 'count',
      least: 1,
      counting: 'results',
      summary: 'print at most N paths (default 200)',
    },
    ...LISTING_OPTIONS,
  ],
  examples: [
    { command: "rt find '*.ts'", explains: 'every TypeScript file' },
    { command: "rt find 'src/**/*.test.ts'", explains: 'test files under src' },
    { command: 'rt find config', explains: 'files with config in their path, in any case' },
  ],
  exits: [
    [0, 'something was found'],
    [1, 'nothing was found'],
    [2, 'bad usage'],
    [4, 'DIR is missing (no such folder, with the closest existing ones), not a folder, or outside the root'],
  ],
  readsStdin: false,
  run(ctx, args, options) {
    const { pattern, dirArg, max, list } = findRequest(args, options);
    const dir = resolveFolder(ctx, dirArg ?? '.');
    if (!statResolved(dir).isDirectory())
      throw new RtError('access', `${dir.display} is not a folder`, [
        `look for files in a folder, e.g. rt find ${shellQuote(pattern)} ` +
          shellQuote(path.posix.dirname(dir.display)),
      ]);
    const needle = pattern.toLowerCase();
    const isGlob = GLOB_CHARS.test(pattern);
    const matches = isGlob ? globMatcher(pattern) : (rel: string) => rel.toLowerCase().includes(needle);
    const place = placeUnder(ctx.root, dir.abs);
    // Sorted as listed (the shown paths share one prefix, so the order is the same); only the
    // printed ones are placed.
    // git is asked only for the names a glob's ending allows (the glob itself is applied here).
    const listed = listFiles(dir.abs, list, ctx.root.dir, isGlob ? nameEnding(pattern) : '');
    const found = listed.files.filter((rel) => matches(rel)).sort(comparePaths);
    // git lists tracked files deleted from the work tree, or whose folder is now a link, and
    // nested repositories: a path is printed only if it is a text file, or a link to a file,
    // reached through no link (checked for the printed ones only; the count of the rest may
    // include such paths).
    const { files, binary, next } = firstListed(
      ctx.root.dir,
      absPrefixOf(dir.abs),
      place,
      found,
      max,
      listed.walked === true,
    );
    const paths = files.map((f) => f.display);
    const more = found.length - next;
    // (Their names decoded, each bad byte a U+FFFD, are matched as any other.)
    noteUndecodable(
      ctx,
      listed.undecodable.filter((rel) => matches(rel)).map((rel) => path.join(dir.abs, rel)),
    );
    const flags = [
      '--max',
      String(paths.length + more),
      ...(list.hidden ? ['--hidden'] : []),
      ...(list.noIgnore ? ['--no-ignore'] : []),
    ];
    const again = commandLine('find', flags, [pattern, ...(dirArg ? [dirArg] : [])]);
    if (paths.length === 0 && binary.length > 0) {
      ctx.warn(
        `no text file matches, but ${binary.length} binary ${binary.length === 1 ? 'file does' : 'files do'} ` +
          `(e.g. ${binary[0]}): rt lists the files it can open, text files`,
      );
      ctx.warn(`list binary files with fd, e.g.: ${fdCommand(pattern, isGlob, dirArg, list)}`);
    }
    ctx.emit({ command: 'find', paths, more: more > 0 ? { files: more, command: again } : null });
    if (paths.length === 0) {
      explainNothingFound(ctx, dir.abs, place, matches, list, [pattern, ...(dirArg ? [dirArg] : [])]);
      return 1;
    }
    reportCounts(files, () => 1, new CountPrinter(ctx, max, (p) => `${p}\n`));
    if (more > 0) ctx.out(capNotice(['file', 'files'], more, 0, again, 'a DIR or a more specific PATTERN'));
    return 0;
  },
});

/** What `rt find` is asked: its command line read, all its options here. */
function findRequest(args: readonly string[], options: ListingOptions & { readonly max: number | undefined }) {
  const [pattern, dirArg] = args as [string, string | undefined];
  return { pattern, dirArg, max: maxOption(options), list: listOptions(options) };
}

/**
 * DIR resolved inside the root; a missing one is refused as a missing folder, with the closest
 * existing folders (the paths of rt's hint for a missing file, less files).
 */
function resolveFolder(ctx: Context, dirArg: string): ResolvedPath {
  const dir = resolveInRoot(ctx.root, dirArg, true);
  if (pathExists(dir.abs)) return dir;
  const near = suggestPaths(ctx.root, path.resolve(ctx.root.cwd, dirArg)).filter((p) =>
    isFolder(path.resolve(ctx.root.cwd, p)),
  );
  const hints = near.length
    ? [`closest existing: ${near.map(shellQuote).join(', ')}`]
    : ['see the folders here with: rt open .'];
  throw new RtError('not_found', `no such folder: ${printable(dirArg)}`, hints, { suggestions: near });
}

/**
 * The fd command that lists what `rt find` would (binary files included): fd matches names as rt does without a "/",
 * whole paths with --full-path.
 */
function fdCommand(pattern: string, isGlob: boolean, dirArg: string | undefined, list: ListOptions): string {
  const flags = [
    isGlob ? '--glob' : '--fixed-strings',
    ...(pattern.includes('/') ? ['--full-path'] : []),
    ...(isGlob ? [] : ['--ignore-case']),
    ...(list.hidden ? ['--hidden'] : []),
    ...(list.noIgnore ? ['--no-ignore'] : []),
  ];
  return ['fd', ...flags, shellQuote(pattern), ...(dirArg ? [shellQuote(dirArg)] : [])].join(' ');
}

/** When nothing matched, says whether ignored or hidden files match (and how to list them), as grep does. */
function explainNothingFound(
  ctx: Context,
  dir: string,
  place: (rel: string) => Candidate,
  matches: (rel: string) => boolean,
  list: ListOptions,
  operands: readonly string[],
): void {
  if (list.hidden && list.noIgnore) return;
  // (A walk: no path through a link to a folder.)
  const wider = listFiles(dir, { hidden: true, noIgnore: true }, ctx.root.dir)
    .files.filter((rel) => matches(rel))
    .sort(comparePaths)
    .map(place)
    .filter((file) => kindOf(file.abs, ctx.root.dir) === 'listed');
  if (wider.length === 0) return;
  const what = wider.length === 1 ? 'file matches' : 'files match';
  ctx.warn(
    `no match among the files listed, but ${wider.length} ignored or hidden ${what} (e.g. ${wider[0]!.display})`,
  );
  ctx.warn(`list them too with: ${commandLine('find', ['--hidden', '--no-ignore'], operands)}`);
}
