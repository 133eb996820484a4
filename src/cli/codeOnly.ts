// rt replace --in code: where a file's strings and comments are, so that its matches there are
// left alone. The grammars of the files' languages are loaded before the write begins (loading
// is asynchronous, the write's planning is not); each file is parsed under its lock, on the bytes
// that were matched, after the timed matching: the parse never spends the pattern's time.

import { PARSING, type LanguageId } from '../lang/languages.js';
import { isMarkdown } from '../lang/markdown.js';
import { prepareChecker, stringsAndComments } from '../lang/syntax.js';
import { nonCodeRanges } from '../model/codeRanges.js';
import { lineContent, type FileLines } from '../model/lines.js';
import type { ByteRange } from '../model/replacement.js';
import type { Candidate } from '../search/candidates.js';
import { listedPath, type ResolvedPath } from '../store/root.js';
import { languageFor } from '../store/syntaxCheck.js';
import type { Context } from './context.js';

/** Bytes of a file's start that tell its language when its name does not (as the syntax check reads). */
const HEAD_BYTES = 64 * 1024;

/**
 * Where a file's code is: the byte ranges of each matched line that are strings or comments;
 * `prose` for a Markdown file (all of it is text for people, fenced examples too); `unparsed`
 * when rt cannot parse it (no grammar, too big, too slow): it is replaced everywhere.
 */
export type CodeOf = ReadonlyMap<number, readonly ByteRange[]> | 'prose' | 'unparsed';

/** Loads the grammars of the languages of `files` (each once); one that fails leaves its files unparsed. */
export async function prepareCodeOnly(ctx: Context, files: readonly Candidate[]): Promise<void> {
  const languages = new Set<LanguageId>();
  for (const file of files) {
    let resolved: ResolvedPath;
    try {
      resolved = listedPath(ctx.root, file.abs, file.display);
    } catch {
      continue; // gone or moved out: refused or skipped when it is planned
    }
    const language = isMarkdown(file.abs) ? undefined : languageFor(ctx.root.dir, resolved);
    if (language !== undefined && PARSING[language].kind === 'tree-sitter') languages.add(language);
  }
  await Promise.all([...languages].map((language) => prepareChecker(language)));
}

/** Where the code of `file` (read as `lines`) is on its lines `rows` (0-based, ascending). */
export function codeOf(ctx: Context, file: ResolvedPath, lines: FileLines, rows: readonly number[]): CodeOf {
  if (isMarkdown(file.abs)) return 'prose';
  const language = languageFor(ctx.root.dir, file, () => lines.bytes.subarray(0, HEAD_BYTES));
  const spans = language === undefined ? undefined : stringsAndComments(language, lines.bytes, rows);
  if (!spans) return 'unparsed';
  return nonCodeRanges(spans, rows, (row) => lineContent(lines, row));
}
