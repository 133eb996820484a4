// The syntax check of a write: every file a batch writes in a language rt knows is
// parsed as it would be; a syntax error it did not have before refuses the whole batch (exit
// 5, nothing written). Errors already there never block, and a check that cannot run (a
// grammar that did not load, a file too large) never blocks either: it says so in one line.
//
// Grammars load asynchronously and the write pipeline does not wait, so it goes in two steps:
// `prepareChecks` (before the transaction) loads the grammars of the files named, and
// `checkChanges` (inside it, under the locks: Transaction.check) checks their new content.

import fs from 'node:fs';
import path from 'node:path';
import { sliceParts } from '../model/edit.js';
import { RtError, shellQuote } from '../model/errors.js';
import { hashLines } from '../model/hash.js';
import { lidToString } from '../model/lid.js';
import { lineContent, type FileLines } from '../model/lines.js';
import { languageOf, type LanguageId } from '../lang/languages.js';
import { newErrors, prepareChecker, skippedForSize, type ChangedLines, type SyntaxProblem } from '../lang/syntax.js';
import { nextReading } from './indexedFile.js';
import type { ResolvedPath } from './root.js';
import type { Change, Content, Workspace } from './transaction.js';

/** Bytes of a file's start that tell its language when its name does not (a shebang; C++ in a `.h`). */
const HEAD_BYTES = 64 * 1024;

/** The language of the file at `file` (a path of the root), its first bytes read only when its name does not tell. */
export function languageFor(root: string, file: ResolvedPath, head?: () => Uint8Array): LanguageId | undefined {
  const rel = path.relative(root, file.abs) || path.basename(file.abs);
  const byName = languageOf(rel);
  if (byName !== undefined && !rel.endsWith('.h')) return byName;
  return languageOf(rel, head ? head() : headOf(file.abs));
}

function headOf(abs: string): Uint8Array {
  try {
    const fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
      const buffer = Buffer.alloc(HEAD_BYTES);
      return buffer.subarray(0, fs.readSync(fd, buffer, 0, HEAD_BYTES, 0));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return new Uint8Array(0); // a file that cannot be read now is looked at again when it is planned
  }
}

/**
 * Loads the grammars of `languages` (at once, each once); a grammar that fails leaves its files unchecked, as
 * `checkChanges` then says.
 */
export async function prepareChecks(languages: Iterable<LanguageId | undefined>): Promise<void> {
  const wanted = new Set([...languages].filter((l): l is LanguageId => l !== undefined));
  await Promise.all([...wanted].map((language) => prepareChecker(language)));
}

/** What one file of a batch will hold, as the check needs it. */
interface Written {
  readonly file: ResolvedPath;
  readonly before: Uint8Array;
  readonly after: FileLines;
  /** The first bytes of `after` (its language may be told by a #! line), without joining a file held in parts. */
  readonly head: () => Uint8Array;
  readonly hunks?: readonly ChangedLines[];
  /** Where the lines of `before` start (see LineStarts), when known. */
  readonly beforeStarts?: ArrayLike<number>;
  /** The LIDs its lines will have. */
  readonly lids: () => Uint32Array;
}

/**
 * Checks the new content of every file of a batch; refuses the batch (exit 5) when one has
 * syntax errors it did not have, naming each with the line it is on as it would be.
 */
export function checkChanges(ws: Workspace, changes: readonly Change[]): void {
  const found: Found[] = [];
  for (const c of changes) {
    const written = writtenOf(ws, c);
    if (!written) continue;
    // A file rt does not check (most files of no language rt knows) is never joined whole.
    const language = languageFor(ws.root.dir, written.file, written.head);
    if (language === undefined) continue;
    const after = written.after;
    const check =
      skippedForSize(language, written.before.length, after.starts[after.count]!) ??
      newErrors(
        language,
        written.before,
        after.bytes,
        written.hunks,
        written.beforeStarts ? { old: written.beforeStarts, new: startsOf(after) } : undefined,
      );
    if (check.status === 'skipped') ws.warn(`${written.file.display} was not syntax-checked: ${check.reason}`);
    else if (check.status === 'errors') found.push({ written, errors: check.errors, unconfirmed: check.unconfirmed });
  }
  if (found.length) throw refusal(found);
}

function writtenOf(ws: Workspace, c: Change): Written | undefined {
  if (c.kind === 'removal' || (c.kind === 'edit' && c.unchanged)) return undefined;
  if (c.kind === 'new') {
    if ('link' in c.content) return undefined;
    const { file } = c;
    const after = c.content.lines;
    const parts = c.content.parts;
    return {
      file,
      before: c.before?.bytes ?? new Uint8Array(0),
      after,
      head: () => sliceParts(parts, 0, HEAD_BYTES),
      lids: () => nextReading(ws.stateOf(file), file.rel, hashLines(after)).lids,
    };
  }
  const content: Content = c.content;
  const before = c.before!;
  const hunks = (content.edits?.spans() ?? []).map((r) => ({
    oldStart: r.oldStart + 1,
    oldEnd: r.oldStart + r.oldCount + 1,
    newStart: r.newStart + 1,
    newEnd: r.newStart + r.newCount + 1,
  }));
  return {
    file: c.kind === 'move' ? c.to : c.file,
    before: before.bytes,
    beforeStarts: startsOf(before),
    after: content.lines,
    head: () => sliceParts(content.parts, 0, HEAD_BYTES),
    hunks,
    lids: () => content.index!.lids,
  };
}

/**
 * Where the lines of a file start, as the check counts them: from byte 0 (a BOM is cut off by the parser's reading
 * anyway).
 */
function startsOf(lines: FileLines): ArrayLike<number> {
  if (lines.bomLength === 0) return lines.starts;
  const starts = Uint32Array.from(lines.starts);
  starts[0] = 0;
  return starts;
}

/** A file's new errors, nearest the change first; `unconfirmed` says why the whole file could not confirm them. */
interface Found {
  readonly written: Written;
  readonly errors: readonly SyntaxProblem[];
  readonly unconfirmed?: string | undefined;
}

/** Errors of a refusal shown per file, at most (the nearest the change: the rest are counted). */
const SHOWN_ERRORS = 5;

function refusal(found: readonly Found[]): RtError {
  const count = found.reduce((n, f) => n + f.errors.length, 0);
  const names = found.map((f) => f.written.file.display);
  const shown: string[] = [];
  const details: Array<Record<string, unknown>> = [];
  for (const { written, errors, unconfirmed } of found) {
    const lids = written.lids();
    if (found.length > 1) shown.push(`  ${written.file.display}:`);
    for (const [k, e] of errors.entries()) {
      const i = e.line - 1;
      const lid = i < lids.length ? lidToString(lids[i]!) : '';
      const content = i < written.after.count ? lineContent(written.after, i).toString('utf8') : '';
      details.push({ path: written.file.display, line: e.line, column: e.column, lid, message: e.message });
      if (k >= SHOWN_ERRORS) continue;
      // A line with several errors is shown once, above them all.
      if (k === 0 || errors[k - 1]!.line !== e.line)
        shown.push(`  ${e.line}:${lid}|${content.length > 200 ? `${content.slice(0, 200)}…` : content}`);
      shown.push(`    line ${e.line}, column ${e.column}: ${e.message}`);
    }
    if (errors.length > SHOWN_ERRORS) shown.push(`  (${errors.length - SHOWN_ERRORS} more in ${written.file.display})`);
    if (unconfirmed) shown.push(`  (found in the lines around the change; ${unconfirmed})`);
  }
  const first = found[0]!.written.file.display;
  const seeIt =
    names.length === 1 && fs.existsSync(found[0]!.written.file.abs)
      ? `, then see it: rt open ${shellQuote(first)}`
      : '';
  return new RtError(
    'syntax',
    `the change would leave ${names.join(', ')} with ${count === 1 ? 'a syntax error' : `${count} syntax errors`} ` +
      `${names.length === 1 ? 'it' : 'they'} did not have; nothing was written:`,
    [
      ...shown,
      'fix the text and run the command again',
      'a change that passes through a broken state: make all of it one rt apply ' +
        '(its check sees only the final content)',
      `or write it as it is: add --no-check (or RT_CHECK=off)${seeIt}`,
    ],
    { errors: details },
  );
}
