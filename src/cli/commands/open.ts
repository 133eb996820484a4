import path from 'node:path';
import { resolveAnchor, retiredError } from '../../model/anchor.js';
import { RtError, quotePath } from '../../model/errors.js';
import { parseLid } from '../../model/lid.js';
import { parseTarget, type Target } from '../../model/target.js';
import {
  centredWindow,
  DEFAULT_WINDOW,
  MAX_RANGE,
  rangeWindow,
  topWindow,
  type LineWindow,
} from '../../model/window.js';
import { openIndexed, retryOnChange, type IndexedFile } from '../../store/indexedFile.js';
import { withFolderOf } from '../../store/pinnedFolder.js';
import { resolveInRoot } from '../../store/root.js';
import { ViewState } from '../../store/views.js';
import type { Context } from '../context.js';
import { isFolder, namesNonFolder } from '../../store/userFiles.js';
import { explicitWindowSize, showWindow } from '../shared.js';
import {
  closestNames,
  closestSaid,
  definitionsNamed,
  errorsNote,
  grammarFor,
  lookByLines,
  outlineOfFile,
  severalNamed,
} from '../symbols.js';
import { listFolder, type FolderOptions } from '../folderListing.js';
import { LISTING_OPTIONS } from './searchOptions.js';
import { lidToString } from '../../model/lid.js';
import { defineCommand } from '../spec.js';

export const openCommand = defineCommand({
  name: 'open',
  summary: 'print a window of a file, every line with its number and LID',
  tool: [
    'Show a window of a file, every line as NUMBER:LID|CONTENT exactly as in the file (lines over 2,000',
    'characters cut for display). target: PATH (the top), PATH:LINE (centred on it), PATH:START-END (at',
    'most 200 lines, or window), PATH:LID, PATH:LINE:LID (a grep hit as printed; exit 3 if the LID is no',
    'longer at LINE), PATH:@NAME (a definition whole: a function, class, or @Class.method), or a folder',
    '(its entries with their file or line counts; hidden and no_ignore list more). window: lines per',
    'window, 1 or more (default 100). The lines shown can then be edited by LID; the window is the',
    "file's last view, which scroll continues from. Exit 1: no definition NAME (the closest are named);",
    '2: a bad target, a line past the end, several definitions NAME; 3: the LID is not (or no longer) in',
    'the file; 4: the file is missing, binary or outside the root.',
  ],
  description: [
    'Prints a window of PATH: from the top, centred on LINE or on the line holding LID, or the ' +
      'lines START-END. PATH:LINE:LID, as grep prints a hit, is centred on that line if LID is ' +
      'still at LINE, and refused (exit 3) otherwise, saying where the LID is now. Each line is ' +
      'printed as NUMBER:LID|CONTENT, exactly as it is in the file; lines longer than 2,000 ' +
      'characters are cut for display only.',
    'A PATH that exists as given is the file, even with colons in its name; otherwise, after an ' +
      'existing file, what follows the colon must be a position (LINE, START-END, LID or ' +
      'LINE:LID): anything else, such as $, 1-, +5 or 1,5, is bad usage (exit 2).',
    'A range shows at most 200 lines unless --window or RT_WINDOW is given (then at most that ' +
      'many); a range cut so is said on standard error, with the command that shows the rest. A ' +
      'LINE or START past the end of the file is an error (exit 2) that names the last line; an ' +
      'END past the end is cut to it. An LID that was retired (its line changed or was deleted) ' +
      'or never was in the file is refused with exit 3.',
    'PATH:@NAME opens the definition NAME (a function, class, method…, or @Class.method by its ' +
      'qualified name) whole, or its first window when it is longer; a definition whose qualified ' +
      'name is NAME wins over others merely named so (@total is the function total, not the ' +
      "method Cart.total), and a type over its impl blocks (Rust's @Config is the struct; " +
      '@Config.new a method of its impl); no such definition is exit 1 with the closest names, ' +
      'several are exit 2, listed with their LIDs (see rt outline for the languages). In a ' +
      "Markdown file NAME is a heading's anchor, in any case (README.md:@Set-up), and opens its " +
      'section.',
    "The window becomes the file's last view, which scroll continues from.",
    "A PATH that is a folder lists its entries under a header line as a file's window has one " +
      '(--- PATH (N entries) ---; when capped, (entries 1-200 of N)), sorted, one a line: NAME/ ' +
      'and the number of files under it (binary ones included), or NAME and its number of lines ' +
      '("binary" for a binary file; a link to a file out of the root is not read), a tab between. ' +
      'The files are those rt find considers: what git would show, less hidden files unless ' +
      '--hidden or --no-ignore, less what is gone or behind a link to a folder. At most 200 ' +
      'entries (--window N), then a line on standard error with the command for the rest. A ' +
      'folder that cannot be read is refused (exit 4). --json prints {path, folder: true, ' +
      'entries: [{name, kind, files | lines | binary | outside}], more}.',
  ],
  args: [
    {
      name: 'target',
      summary: 'PATH, PATH:LINE, PATH:START-END, PATH:LID, PATH:LINE:LID or PATH:@NAME',
      required: true,
      complete: 'target',
    },
  ],
  options: [
    {
      long: 'window',
      value: 'N',
      kind: 'count',
      least: 1,
      summary: 'lines per window (default 100), and the most lines a range shows (default 200) or entries a folder',
      env: 'RT_WINDOW',
    },
    ...LISTING_OPTIONS.map((o) => ({ ...o, summary: o.summary.replace('also search', 'with a folder, also list') })),
  ],
  examples: [
    { command: 'rt open src/app.ts', explains: 'the first 100 lines' },
    { command: 'rt open src/app.ts:120', explains: 'a window centred on line 120' },
    { command: 'rt open src/app.ts:101-140', explains: 'lines 101 to 140' },
    { command: 'rt open src/app.ts:kq3f', explains: 'a window centred on the line whose LID is kq3f' },
    { command: 'rt open src/cart.ts:@Cart.add', explains: 'the method add of the class Cart, whole' },
    {
      command: 'rt open src/',
      explains: 'the entries of src: its folders with their file counts, its files with their line counts',
    },
  ],
  exits: [
    [0, 'the window was printed'],
    [1, 'no definition has the NAME of PATH:@NAME'],
    [2, 'bad usage, a line past the end of the file, or several definitions of that NAME'],
    [3, 'the LID is not (or no longer) in the file, or not at LINE'],
    [4, 'the file is missing, binary, unreadable or outside the root'],
  ],
  readsStdin: false,
  run(ctx, args, options) {
    const target = parseTarget(args[0]!, (p) => namesNonFolder(path.resolve(ctx.cwd, p)));
    // --window, else RT_WINDOW: the size of a window, and the most lines a range shows (else MAX_RANGE).
    const explicit = explicitWindowSize(ctx, options);
    const size = explicit ?? DEFAULT_WINDOW;
    const cap = explicit ?? MAX_RANGE;
    if (target.kind === 'symbol') return openSymbol(ctx, options, target.path, target.name, size);
    if (target.kind === 'top') {
      // A folder: its entries, as ls shows them.
      const resolved = resolveInRoot(ctx.root, target.path);
      if (isFolder(resolved.abs)) return listFolder(ctx, options, resolved);
    }
    // Nothing is printed before the window's lines are read: a file saved meanwhile is read anew.
    // Read within the file's folder: a folder of the path swapped for a link out of the root after the check is not
    // followed.
    retryOnChange(() =>
      withFolderOf(resolveInRoot(ctx.root, target.path), (resolved) => {
        const file = openIndexed(ctx.stateOf(resolved), resolved);
        const window = pickWindow(file, target, size, cap);
        // Scroll remembers the size given with --window alone: RT_WINDOW applies to every run anyway.
        showWindow(
          ctx,
          'open',
          file,
          window,
          ViewState.load(ctx.stateOf(file.path), file.path.rel),
          options.window !== undefined ? size : null,
        );
        if (target.kind === 'range') noteCutRange(ctx, options, file, target.end, window, cap);
      }),
    );
  },
});

/**
 * `rt open PATH:@NAME`: the definition NAME names, whole (its first `size` lines if longer);
 * none is exit 1 with the closest names, several exit 2 listing them.
 */
async function openSymbol(
  ctx: Context,
  options: FolderOptions,
  pathArg: string,
  name: string,
  size: number,
): Promise<number> {
  const resolved = resolveInRoot(ctx.root, pathArg);
  const language = await grammarFor(ctx, resolved);
  return retryOnChange(() =>
    withFolderOf(resolved, (pinned) => {
      const file = openIndexed(ctx.stateOf(pinned), pinned);
      const display = file.path.display;
      const outlined = outlineOfFile(resolved, language);
      const definitions = outlined.definitions.filter((d) => d.startLine <= file.total);
      const found = definitionsNamed(definitions, name);
      if (found.length === 0) {
        const near = closestNames(definitions, name);
        const from = outlined.errorsFrom;
        const incomplete = from === undefined ? {} : { parseErrorsFrom: from };
        if (ctx.json)
          ctx.emit({ command: 'open', path: display, symbol: name, found: false, closest: near, ...incomplete });
        ctx.warn(`no definition named ${name} in ${display}${closestSaid(definitions, near)}`);
        if (from === undefined) ctx.warn(`see them all: rt outline ${quotePath(display)}`);
        else for (const line of [errorsNote(display, from), lookByLines(display, name)]) ctx.warn(line);
        return 1;
      }
      if (found.length > 1) {
        throw severalNamed(
          found,
          name,
          display,
          {
            lid: (n) => lidToString(file.lids(n - 1, n)[0]!),
            content: (n) => file.contents(n - 1, n)[0]!,
          },
          (distinct, lid) =>
            distinct
              ? `name one by its qualified name (rt open ` +
                `${quotePath(`${display}:@${found[0]!.qualifiedName}`)}), or open one by its LID`
              : `open one by its LID: rt open ${quotePath(`${display}:${lid}`)}`,
        );
      }
      const d = found[0]!;
      const window = rangeWindow(file.total, d.startLine, d.endLine, size);
      const view = ViewState.load(ctx.stateOf(file.path), file.path.rel);
      // Shown as a definition, even when longer than its first window: an edit of it by name may follow.
      view.recordDefinitions([file.lids(d.startLine - 1, Math.min(d.endLine, file.total))]);
      showWindow(ctx, 'open', file, window, view, options.window !== undefined ? size : null);
      if (window.end < d.endLine) {
        const range = quotePath(`${display}:${d.startLine}-${d.endLine}`);
        const whole = `rt open ${range} --window ${d.endLine - d.startLine + 1}`;
        const orWhole = options.window === undefined ? `, or all of it: ${whole}` : '';
        ctx.warn(`${d.qualifiedName} runs to line ${d.endLine}: the rest: rt scroll ${quotePath(display)}${orWhole}`);
      }
      return 0;
    }),
  );
}

/**
 * A range longer than `cap` is cut to it: said on stderr, with the command that shows the rest
 * (with --window when the rest is longer than that command may show). An END past the end of
 * the file is cut to it without a word.
 */
function noteCutRange(
  ctx: Context,
  options: FolderOptions,
  file: IndexedFile,
  end: number,
  window: LineWindow,
  cap: number,
): void {
  const last = Math.min(end, file.total);
  if (window.end >= last) return;
  const rest = last - window.end;
  // The command shown runs under RT_WINDOW, if set, as this one did; not under this one's --window.
  const restCap = ctx.settings.window ?? MAX_RANGE;
  const why =
    options.window !== undefined
      ? `with --window ${cap}`
      : ctx.settings.window !== undefined
        ? `with RT_WINDOW=${cap}`
        : 'unless --window N or RT_WINDOW says more';
  ctx.warn(
    `lines ${window.start}-${window.end} of the ${window.start}-${last} asked for are shown: a ` +
      `range shows at most ${cap} lines ${why}`,
  );
  ctx.warn(
    `the rest: rt open ` +
      `${quotePath(`${file.path.display}:${window.end + 1}-${last}`)}${rest > restCap ? ` --window ${rest}` : ''}`,
  );
}

function pickWindow(file: IndexedFile, target: Target, size: number, rangeCap: number): LineWindow {
  const total = file.total;
  const display = file.path.display;
  switch (target.kind) {
    case 'top':
      return topWindow(total, size);
    case 'line':
      checkLine(display, target.line, total);
      return centredWindow(total, target.line, size);
    case 'range':
      checkLine(display, target.start, total);
      return rangeWindow(total, target.start, target.end, rangeCap);
    case 'lid': {
      const code = parseLid(target.lid);
      const at = file.lineOf(code);
      if (at === -1) throw missingLid(file, target.lid, file.retiredLine(code));
      return centredWindow(total, at + 1, size);
    }
    case 'both': {
      // Refused (exit 3) unless the LID is at that line, as an edit's anchor N:LID is.
      const line = resolveAnchor(
        { kind: 'both', text: `${target.line}:${target.lid}`, line: target.line, lid: target.lid },
        {
          display,
          total,
          lineOf: (code) => file.lineOf(code),
          lidCodeAt: (i) => file.lids(i, i + 1)[0]!,
          retiredLine: (code) => file.retiredLine(code),
          shownAt: () => null,
          force: false,
        },
      );
      return centredWindow(total, line, size);
    }
    case 'symbol':
      throw new Error('a definition is opened by openSymbol');
  }
}

function checkLine(display: string, line: number, total: number): void {
  if (line <= total) return;
  const hint =
    total === 0
      ? `${display} is empty; add text with: rt insert ${quotePath(display)} '$' <<'EOF'`
      : `its last line: rt open ${quotePath(`${display}:${total}`)}`;
  throw new RtError(
    'input',
    `line ${line} is past the end of ${display} (${total} ${total === 1 ? 'line' : 'lines'})`,
    [hint],
    { total },
  );
}

export function missingLid(file: IndexedFile, lid: string, retiredAt: number | undefined): RtError {
  if (retiredAt !== undefined) {
    return retiredError(lid, retiredAt, {
      display: file.path.display,
      total: file.total,
      lidCodeAt: (i) => file.lids(i, i + 1)[0]!,
    });
  }
  return new RtError(
    'stale',
    `no line of ${file.path.display} has LID ${lid}`,
    [`check the LID, or see the file's lines: rt open ${quotePath(file.path.display)}`],
    { lid },
  );
}
