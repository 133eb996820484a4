// rt grep: the command's definition, its command line read into a request, and its results
// printed; the search itself (engines, listing, matching) is in search/.

import path from 'node:path';
import type { FolderQuery } from '../../search/engine.js';
import type { LineMatcher } from '../../search/match.js';
import { ripgrepCommand } from '../../search/query.js';
import { capHits, reportCounts } from '../../search/report.js';
import { hitsBeyond, searchPaths, type SearchOutcome } from '../../search/searchPaths.js';
import type { Context } from '../context.js';
import { enclosingFor } from '../enclosing.js';
import { CountPrinter, printHits } from '../hitPrinting.js';
import { capNotice, commandLine, noteUndecodable } from '../searchNotes.js';
import { defineCommand } from '../spec.js';
import {
  explainSearchFlag,
  LISTING_OPTIONS,
  listOptions,
  MATCH_OPTIONS,
  type GrepOptions,
  type SearchRequest,
  searchRequest,
} from './searchOptions.js';

export const grepCommand = defineCommand({
  name: 'grep',
  summary: 'search files for a regular expression; each hit is PATH:NUMBER:LID|CONTENT',
  tool: [
    'Search files for a JavaScript regular expression (fixed: a literal string; pcre2: PCRE2 through',
    'ripgrep) and print each matching line as PATH:NUMBER:LID|CONTENT with the LID open shows, so a',
    'hit leads to edit; hits count as shown. path: files or folders (default: the working directory).',
    'regexp: several patterns instead of pattern. Searches the files git would show, less hidden and',
    'binary ones (hidden, no_ignore widen it; glob: which files, !GLOB excludes). context, before_context,',
    'after_context: lines around hits, as PATH:NUMBER:LID-CONTENT. function: also the first line of the',
    'definition enclosing hits (PATH:NUMBER:LID=CONTENT); function_context: all of it. only_matching: the',
    'matches alone; count: PATH:COUNT a file; files: paths alone. ignore_case, smart_case, word,',
    'invert_match as in grep. At most 200 hits (max), then how many more. A match never spans lines; $',
    "matches before a line's \\r. Exit 1: nothing found; 2: a bad or too slow pattern; 4: no path named",
    'could be searched.',
  ],
  description: [
    'Searches the files under each PATH (default: the working directory) for PATTERN, a JavaScript ' +
      'regular expression (or a literal string with -F; PCRE2 through ripgrep with -P), and prints each ' +
      'matching line as PATH:NUMBER:LID|CONTENT, with the LID rt open shows for that line, so a hit leads ' +
      'straight to rt edit. With -e (repeatable) a line matches if any of the patterns does, and every ' +
      'operand is a PATH. With -C, -A or -B, context lines are PATH:NUMBER:LID-CONTENT and groups are ' +
      'separated by --. With -o, each match is printed alone on a line of its own, PATH:NUMBER:LID|MATCH, ' +
      'in the order of the line (context lines whole); with -c, each file with hits is printed once, as ' +
      'PATH:COUNT (lines; with -o, matches); with -l, its path alone.',
    'Each line is matched on its content as rt shows it: without its line ending (the \\r of a CRLF ' +
      'included) and, on line 1, without a UTF-8 BOM, so $ matches before a \\r and ^ after a BOM (git ' +
      'grep and ripgrep see those bytes). "." matches any character of the line, a \\r that ends no line ' +
      'and U+2028 and U+2029 included, as in grep and ripgrep. A match never spans lines. POSIX classes ' +
      "within a class are read as in grep and ripgrep (ASCII, as ripgrep's): [[:digit:]], [^[:space:],], " +
      '[[:^alpha:]] (alnum, alpha, ascii, blank, cntrl, digit, graph, lower, print, punct, space, upper, ' +
      'word, xdigit); a class holding one that rt cannot read as ripgrep does (an unknown name, a range ' +
      'ending at one, a nested class, && -- ~~) is refused (exit 2). A "]" first in a class (after "^" or ' +
      'not) is the character itself, as in ripgrep: []a] matches ] or a. With -S, case is ignored when the ' +
      'patterns hold no upper-case letter (a POSIX class holds no letter). A file that changes while it is ' +
      'searched is shown as read when its hits are printed: a line is printed as a hit only if it matches ' +
      'there.',
    'It searches exactly the files git would show: in a git work tree, tracked files and untracked files ' +
      'that no ignore rule excludes (.gitignore files, .git/info/exclude, the global excludes file), less ' +
      'what .ignore files exclude (an ignore file that is a symbolic link is not read, as git reads no ' +
      'such .gitignore); outside git, a walk honouring .gitignore and .ignore files. Hidden files, binary ' +
      'files and symbolic links are skipped, and so is a tracked file whose folder has become a symbolic ' +
      'link: no link is followed; --hidden and --no-ignore widen the search. A file named as PATH is ' +
      'searched regardless, unless it is binary (or cannot be read): standard error then names it, with ' +
      'the ripgrep command that searches its bytes; the other PATHs are still searched, and the exit ' +
      'status is theirs, but when no PATH named could be searched (every one a binary or unreadable file): ' +
      'exit 4. A file whose name is not valid UTF-8 cannot be named by rt: it is left out, and standard ' +
      'error says so. Paths are shown relative to the working directory, sorted as a tree is read, hits in ' +
      'line order.',
    'With -p (--function), the first line of the definition that encloses hits is printed before them ' +
      'as PATH:NUMBER:LID=CONTENT (a "=" where a hit has "|"): the innermost class, function, method or ' +
      "other definition of the file's outline (rt outline) whose range holds the hit below its first line " +
      '(of a getter and its setter, or overloads and their body, the part that holds it), ' +
      'a Markdown heading for a Markdown file. With -W (--function-context), the whole of the innermost ' +
      'definition holding each hit is printed (decorators, attributes and doc comment included), its first ' +
      'line marked so, the rest as context lines. Where rt has no grammar for a file (or cannot parse it ' +
      "in time), and for a hit no definition of its outline holds, git grep's rule stands in: a " +
      "definition's line is the nearest line above the hit that " +
      'starts with a letter, _ or $, and with -W it runs to the line before the next such line. --json ' +
      'gives such a line "hit": false and "definition": {"by": "outline", "kind", "name"} (the ' +
      'qualified name, Cart.add) or {"by": "heuristic"}. These lines count as shown, like context.',
    'A line longer than 2,000 characters is cut for display, as rt open cuts it ("… [+N chars]" after ' +
      "its first 2,000); when a hit's first match does not end within those characters, the 2,000 around " +
      'that match are shown instead, cut on both sides: "[+N chars] …" before them and "… [+N chars]" ' +
      'after (--json gives every line whole). On a terminal (or with --color always) the matches of each ' +
      'hit are coloured.',
    'At most 200 hits are printed (--max N; with -l or -c, files); a last line says how many more there ' +
      'were and how to see them. The hits count as shown for the anchor rules of edit and delete (with -o, ' +
      'only their lines of context: open a line to edit it).',
    'A search may take 2 seconds of CPU time to match, and 1 more for every MiB of the files it reads (a ' +
      'machine busy with other work does not spend them): a regular expression that backtracks without end ' +
      "(nested repetition such as (a+)+$, on a long line of a's ending otherwise), or a literal of more " +
      'than 128 characters on lines of megabytes (found in time of the line × the literal), in one file or ' +
      'in many, stops the search when that is spent, printing nothing, with exit 2 and the ripgrep command ' +
      'that matches in linear time. Flags of grep and ripgrep that rt does not take are refused (exit 2) ' +
      'with what to do instead: -r (grep is recursive already), -E, -x, -q, --include and the like.',
  ],
  args: [
    {
      name: 'pattern',
      summary: 'the regular expression (or, with -F, the string) to find; with -e, the first PATH',
      required: false,
      complete: 'none',
    },
    {
      name: 'path',
      summary: 'files or folders to search (default: the working directory)',
      required: false,
      variadic: true,
      complete: 'file',
    },
  ],
  options: [
    ...MATCH_OPTIONS,
    {
      long: 'glob',
      short: 'g',
      value: 'GLOB',
      kind: 'list',
      summary: 'search only files matching GLOB (repeatable; without / it matches the file name; !GLOB excludes)',
    },
    {
      long: 'files',
      short: 'l',
      kind: 'switch',
      summary: 'print only the paths of files with hits (at most 200, or --max)',
    },
    ...LISTING_OPTIONS,
  ],
  examples: [
    { command: 'rt grep -F parseConfig', explains: 'every line containing parseConfig, with its LID' },
    { command: "rt grep -w -g '*.ts' total src", explains: 'the word total in TypeScript files under src' },
    { command: 'rt grep -C 2 TODO', explains: 'TODO lines with 2 lines of context' },
    { command: 'rt grep -l -i license', explains: 'the files mentioning license, in any case' },
    {
      command: 'rt grep -c -e TODO -e FIXME src',
      explains: 'how many lines hold TODO or FIXME in each file under src',
    },
    {
      command: "rt grep -o 'v\\d+\\.\\d+' CHANGELOG.md",
      explains: "each version number alone, with its line's number and LID",
    },
  ],
  exits: [
    [0, 'something was found'],
    [1, 'nothing was found'],
    [2, 'bad usage, an invalid pattern, a pattern taking too long to match, or -P without ripgrep'],
    [
      4,
      'a PATH is missing, outside the root, or neither a regular file nor a folder; or no PATH could be ' +
        'searched (each a binary or unreadable file)',
    ],
  ],
  readsStdin: false,
  explainUnknownOption: explainSearchFlag('grep'),
  run(ctx, args, options) {
    return grep(ctx, grepRequest(args, options));
  },
});

/** What `rt grep` is asked: a search request, and how files are chosen. */
function grepRequest(args: readonly string[], options: GrepOptions): SearchRequest<FolderQuery> {
  const request = searchRequest('grep', args, options);
  const query = {
    ...request.query,
    filesOnly: options.files,
    list: listOptions(options),
    globs: options.glob,
  };
  return { ...request, query };
}

async function grep(ctx: Context, request: SearchRequest<FolderQuery>): Promise<number> {
  const { query, max } = request;
  const rgCommand = ripgrepCommand(query, [], query.paths);
  // The report reads the lines of at most `max` files, and none with -l or -c.
  const reportReads = query.filesOnly || query.count ? 0 : max;
  const found = await searchPaths(ctx, query, request.matcher, rgCommand, reportReads);
  noteUndecodable(
    ctx,
    found.undecodable.map((p) => path.resolve(ctx.cwd, p)),
  );
  const again = (n: number) => commandLine('grep', ['--max', String(n), ...request.flags], request.operands);
  const narrow = 'a PATH or -g GLOB';
  if (query.filesOnly || query.count) {
    // One line a file: its path, or its path and count.
    const printer = new CountPrinter(ctx, max, query.filesOnly ? (p) => `${p}\n` : (p, n) => `${p}:${n}\n`);
    reportCounts(found.files, (i) => (query.only ? (found.matchCounts[i] ?? 0) : found.hits[i]!.length), printer);
    const { shown, moreFiles } = printer;
    if (shown.length === 0) return nothingFound(ctx, request, found);
    const more = moreFiles ? { files: moreFiles, command: again(shown.length + moreFiles) } : null;
    ctx.emit(
      query.filesOnly
        ? { command: 'grep', files: shown.map((s) => s.path), more }
        : { command: 'grep', counts: shown, more },
    );
    if (moreFiles) ctx.out(capNotice(['file', 'files'], moreFiles, 0, again(shown.length + moreFiles), narrow));
    return 0;
  }
  const { shown, shownHits, moreHits, moreFiles } = capHits(
    found.files,
    found.hits,
    (abs) => found.engine.linesRead(abs),
    max,
  );
  if (shown.length === 0) return nothingFound(ctx, request, found);
  const enclosing = await enclosingFor(
    ctx,
    shown.map((s) => s.file),
    request.enclosing,
  );
  const hits = printHits(ctx, shown, {
    query,
    matcher: found.matcher,
    ripgrep: rgCommand,
    prefixPath: true,
    enclosing,
  });
  ctx.emit({
    command: 'grep',
    hits,
    more: moreHits ? { hits: moreHits, files: moreFiles, command: again(shownHits + moreHits) } : null,
  });
  if (moreHits) ctx.out(capNotice(['hit', 'hits'], moreHits, moreFiles, again(shownHits + moreHits), narrow));
  return 0;
}

/** Nothing was found: says whether ignored or hidden files hold hits, prints the empty --json document; exit 1. */
function nothingFound(ctx: Context, request: SearchRequest<FolderQuery>, found: SearchOutcome): number {
  const { query } = request;
  // (-P matched only the files searched: it cannot tell of others.)
  if (found.filtered && !query.pcre) explainNothingFound(ctx, request, found.matcher);
  ctx.emit(
    query.filesOnly
      ? { command: 'grep', files: [], more: null }
      : query.count
        ? { command: 'grep', counts: [], more: null }
        : { command: 'grep', hits: [], more: null },
  );
  return 1;
}

/**
 * When nothing was found, says whether ignored or hidden files (that -g lets through) held
 * matches; silent when matching them takes too long (see matchInTime).
 */
function explainNothingFound(ctx: Context, request: SearchRequest<FolderQuery>, matcher: LineMatcher): void {
  const beyond = hitsBeyond(ctx, request.query, matcher);
  if (!beyond) return;
  const { searched, hits, example } = beyond;
  ctx.warn(
    `no match in the ${searched} ${searched === 1 ? 'file' : 'files'} searched, ` +
      `but ${hits} in ignored or hidden files (e.g. ${example})`,
  );
  const flags = ['--hidden', '--no-ignore', ...request.flags.filter((f) => f !== '--hidden' && f !== '--no-ignore')];
  ctx.warn(`search them too with: ${commandLine('grep', flags, request.operands)}`);
}
