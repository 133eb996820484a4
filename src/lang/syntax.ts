// The syntax check and outline as the CLI calls them. Loading a grammar is
// asynchronous and the write pipeline is not, so it goes in two steps:
//
//   const language = languageOf(path, head);
//   if (language) await prepareChecker(language);      // loads that grammar only, once
//   ... later, synchronously, in the pipeline:
//   const check = newErrors(language, oldBytes, newBytes, hunks);
//
// A check that cannot run (grammar failed to load, file too large, parse too slow) answers
// `skipped` with a one-line reason and never blocks a write.

import type { Engine } from './engine.js';
import type { Place } from './identifiers.js';
import { PARSING, type LanguageId } from './languages.js';
import { loadEngine } from './loadEngine.js';
import { hunkBetween, newProblems, type ChangedLines } from './newProblems.js';
import type { Definition } from './outline.js';
import { ownParserOf, ownVerdict, type OwnParser } from './ownParsers.js';
import type { SyntaxProblem } from './problem.js';
import { isPythonTokenProblem } from './pythonTokens.js';
import { sourceOf } from './source.js';
import { typeScriptReads, typeScriptVerdict } from './typeScriptCheck.js';
import { hunksInWindow, lineOffsets, windowOf, WINDOWED_FROM_LINES } from './window.js';

export type { Definition } from './outline.js';
export type { SyntaxProblem } from './problem.js';
export type { ChangedLines } from './newProblems.js';

/**
 * Files larger than this are not checked or outlined: decoding them alone costs more than the
 * check is worth. Long files are parsed in a window around the edit (window.ts), so what
 * bounds a check's time is the text parsed, MAX_PARSED_CHARS.
 */
export const MAX_CHECK_BYTES = 16 * 1024 * 1024;

/**
 * More text than this to parse (a window of very long lines: a minified bundle) is not
 * checked. Parsing costs 100-400 ms of CPU a MB (notes/syntax-research.md).
 */
export const MAX_PARSED_CHARS = 1024 * 1024;

/** Longer than this, one parse is given up (a pathological input: deep nesting, a grammar's worst case). */
export const PARSE_BUDGET_MS = 1000;

/** The whole-file parses that confirm a windowed check's refusal (rare) may take longer. */
export const CONFIRM_BUDGET_MS = 3000;

/** An outline, asked for by a command of its own, may take longer. */
export const OUTLINE_BUDGET_MS = 5000;

/**
 * Languages whose grammar cannot be trusted with valid code: C and C++ (macros the grammar
 * sees unexpanded: a third of git's and redis's C files parse with errors) and CSS (media
 * ranges, nesting, unquoted relative `url(…)` are errors to its grammar), and C# (its
 * `#if` sections, parsed both ways at once). There a new error
 * blocks an edit only if the edit also unbalanced the file's brackets (brackets.ts); numbers in
 * notes/syntax-research.md.
 */
export const BRACKETS_ONLY: ReadonlySet<LanguageId> = new Set(['c', 'cpp', 'csharp', 'css']);

/**
 * YAML with template tags (Rails fixtures' ERB, Helm's Go templates, Ansible's Jinja) is not
 * YAML until rendered: such files are not checked.
 */
const TEMPLATE = /<%|\{\{|\{%/;
const TEMPLATE_REASON = 'a template (ERB, Go or Jinja tags), not plain YAML';

export type Check =
  | { readonly status: 'ok' }
  /** `unconfirmed`: why errors a window around the edit found could not be confirmed on the whole file. */
  | { readonly status: 'errors'; readonly errors: readonly SyntaxProblem[]; readonly unconfirmed?: string }
  | { readonly status: 'skipped'; readonly reason: string };

let engine: Promise<Engine> | undefined;
let ready: Engine | undefined;
const failed = new Map<LanguageId, string>();

/**
 * Loads what checking `language` needs (web-tree-sitter and the language's grammar, the first
 * time). Never rejects: a grammar that cannot load leaves its language unchecked, with the
 * reason as the check's `skipped` note.
 */
export async function prepareChecker(language: LanguageId): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    engine ??= loadEngine();
    const loaded = await engine;
    await loaded.prepare(language);
    ready = loaded;
    failed.delete(language);
    return { ok: true };
  } catch (error) {
    engine = undefined;
    const reason = `the ${language} grammar did not load (${error instanceof Error ? error.message : String(error)})`;
    failed.set(language, reason);
    return { ok: false, reason };
  }
}

/** The loaded engine, if `prepareChecker(language)` succeeded. */
function prepared(language: LanguageId): Engine | string {
  const why = failed.get(language);
  if (why !== undefined) return why;
  if (!ready) return `the ${language} grammar is not loaded`;
  return ready.isPrepared(language) ? ready : `the ${language} grammar is not loaded`;
}

/** The syntax errors in `bytes`, or why there is no answer. */
export function syntaxErrors(language: LanguageId, bytes: Uint8Array): Check {
  return guarded(() => errorsOf(language, bytes));
}

function errorsOf(language: LanguageId, bytes: Uint8Array): Check {
  const parser = prepared(language);
  if (typeof parser === 'string') return skipped(parser);
  if (bytes.length > MAX_CHECK_BYTES) return tooLarge(bytes.length);
  const problems = parser.problems(language, sourceOf(bytes).text, PARSE_BUDGET_MS);
  if (problems === undefined) return skipped(`parsing took longer than ${PARSE_BUDGET_MS} ms`);
  return problems.length === 0 ? { status: 'ok' } : { status: 'errors', errors: problems };
}

/**
 * The syntax errors `newBytes` has that `oldBytes` did not (the edit's), the file's lines
 * [oldStart, oldEnd) having become [newStart, newEnd) for each hunk; without hunks, the one
 * hunk between the first and last lines the two contents share. The old content is parsed only
 * when the new one has errors: a clean edit costs one parse.
 */
export function newErrors(
  language: LanguageId,
  oldBytes: Uint8Array,
  newBytes: Uint8Array,
  hunks?: readonly ChangedLines[],
  lines?: LineStarts,
): Check {
  return guarded(() => check(language, oldBytes, newBytes, hunks, lines));
}

/**
 * What newErrors answers for content of these lengths when it is not to be parsed for its size
 * (or the language's grammar is not loaded); undefined when it may be. Asked first, a big file's
 * new bytes, held as parts, are not joined only to be found too large.
 */
export function skippedForSize(language: LanguageId, oldLength: number, newLength: number): Check | undefined {
  const parser = prepared(language);
  return typeof parser === 'string' ? skipped(parser) : tooLargeOf(oldLength, newLength);
}

/** A change too large to parse, of content of these lengths; undefined when it is not. */
function tooLargeOf(oldLength: number, newLength: number): Check | undefined {
  if (newLength > MAX_CHECK_BYTES) return tooLarge(newLength);
  if (oldLength > MAX_CHECK_BYTES) return tooLarge(oldLength);
  return undefined;
}

/**
 * Where the lines of the old and new content start (their byte offsets, and the length last), when the caller has them.
 */
export interface LineStarts {
  readonly old: ArrayLike<number>;
  readonly new: ArrayLike<number>;
}

function check(
  language: LanguageId,
  oldBytes: Uint8Array,
  newBytes: Uint8Array,
  hunks: readonly ChangedLines[] | undefined,
  lines?: LineStarts,
): Check {
  const parser = prepared(language);
  if (typeof parser === 'string') return skipped(parser);
  const large = tooLargeOf(oldBytes.length, newBytes.length);
  if (large) return large;
  const newLines = lines?.new ?? lineOffsets(newBytes);
  // JSON is parsed whole (its parser is quick, and a fragment of it is never JSON).
  if (newLines.length - 1 <= WINDOWED_FROM_LINES || PARSING[language].kind === 'json')
    return wholeFile(parser, language, oldBytes, newBytes, hunks, PARSE_BUDGET_MS);
  const edit = hunks ?? hunkBetween(sourceOf(oldBytes).text, sourceOf(newBytes).text);
  const oldLines = lines?.old ?? lineOffsets(oldBytes);
  const window = windowOf(newBytes, newLines, oldLines, edit);
  if (!window) return wholeFile(parser, language, oldBytes, newBytes, edit, PARSE_BUDGET_MS);
  let newPart = newBytes.subarray(newLines[window.newFrom], newLines[window.newTo]);
  let oldPart = oldBytes.subarray(oldLines[window.oldFrom], oldLines[window.oldTo]);
  const mark = WINDOW_MARK[language];
  if (mark && window.newFrom > 0) {
    newPart = Buffer.concat([mark, newPart]);
    oldPart = Buffer.concat([mark, oldPart]);
  }
  const after = sourceOf(newPart).text;
  if (after.length > MAX_PARSED_CHARS)
    return skipped(
      `lines too long to check (${(newPart.length / 1024 / 1024).toFixed(1)} MB in ${newLines.length - 1} ` +
        `lines: minified?)`,
    );
  if (language === 'yaml' && TEMPLATE.test(after)) return skipped(TEMPLATE_REASON);
  const found = parser.problems(language, after, PARSE_BUDGET_MS);
  if (found === undefined) return skipped(`parsing took longer than ${PARSE_BUDGET_MS} ms`);
  if (found.length === 0) return { status: 'ok' };
  const before = sourceOf(oldPart).text;
  const was = parser.problems(language, before, PARSE_BUDGET_MS);
  // The old content could not be read: nothing says the errors are new, so none is.
  if (was === undefined) return skipped('the file as it was could not be parsed in time');
  // A window whose cut makes errors of its own (a class body cut from its class, a mapping from
  // its key) cannot tell what the edit did: those errors may stop the parser, or fill the list,
  // before the edit's lines. The whole file says.
  if (was.length > 0)
    return wholeFile(
      parser,
      language,
      oldBytes,
      newBytes,
      edit,
      CONFIRM_BUDGET_MS,
      undefined,
      (mb) =>
        // Its lines are short (they were cut into a window): the file is long, not minified.
        `the lines around the edit had errors before it, and the file is too long (${mb} MB) to check whole`,
    );
  const windowEdit = hunksInWindow(edit, window.newFrom);
  const made = newProblems(was, found, windowEdit);
  if (made.length === 0) return { status: 'ok' };
  if (BRACKETS_ONLY.has(language) && !unbalances(parser, language, before, after)) return { status: 'ok' };
  // JavaScript and TypeScript: the language's own parser reads the window too (a grammar older
  // than the language takes `accessor`, `<in T>`, `import defer` for errors).
  if (
    typeScriptReads(language) &&
    typeScriptVerdict(language, before, after, windowEdit, { made: true, old: false })?.made.length === 0
  )
    return { status: 'ok' };
  // A window's cut can make an error of its own that the edit moves (a docstring opened in the
  // window, closed past it): the whole file confirms the refusal, and when it cannot, the
  // window's errors refuse the change (--no-check writes it).
  const inFile = made.map((problem) => shifted(problem, window.newFrom));
  return wholeFile(parser, language, oldBytes, newBytes, edit, CONFIRM_BUDGET_MS, inFile);
}

/**
 * The check on the whole file. `windowFound` holds the errors a window around the edit found
 * (in file lines), when this confirms them: then a confirmation that cannot run refuses.
 * `tooLong` says why a file too long to parse whole is not checked.
 */
function wholeFile(
  parser: Engine,
  language: LanguageId,
  oldBytes: Uint8Array,
  newBytes: Uint8Array,
  hunks: readonly ChangedLines[] | undefined,
  budget: number,
  windowFound?: readonly SyntaxProblem[],
  tooLong = (mb: string) => `lines too long to check (${mb} MB: minified?)`,
): Check {
  const unconfirmed = (why: string): Check =>
    windowFound ? { status: 'errors', errors: nearestFirst(windowFound, hunks ?? []), unconfirmed: why } : skipped(why);
  const after = sourceOf(newBytes).text;
  if (after.length > MAX_PARSED_CHARS) {
    return unconfirmed(
      windowFound
        ? `the file is too long (${(newBytes.length / 1024 / 1024).toFixed(1)} MB) to confirm them on the whole file`
        : tooLong((newBytes.length / 1024 / 1024).toFixed(1)),
    );
  }
  if (language === 'yaml' && TEMPLATE.test(after)) return skipped(TEMPLATE_REASON);
  const before = sourceOf(oldBytes).text;
  const edit = hunks ?? hunkBetween(before, after);
  let dialect = language;
  // A .json file that already has comments is read by a tool that allows them.
  if (language === 'json' && oldBytes.length > 0 && parser.jsonDialect(before) === 'jsonc') dialect = 'jsonc';
  const both = parser.problemsOfChange(dialect, before, after, budget);
  if (both === undefined)
    return unconfirmed(`parsing ${windowFound ? 'the whole file ' : ''}took longer than ${budget} ms`);
  const { found, was } = both;
  if (found.length === 0) return { status: 'ok' };
  // The old content could not be read: nothing says the errors are new, so none is.
  if (was === undefined) return unconfirmed('the file as it was could not be parsed in time');
  const made = newProblems(was, found, edit);
  // Python, shell scripts and Rust: the language's own parser judges (see ownParserJudges).
  const own = ownParserOf(language, after);
  if (own) {
    if (made.length === 0) return hiddenBreak(own, before, after);
    const unbalanced = () => unbalances(parser, language, before, after);
    return ownParserJudges(own, before, after, nearestFirst(windowFound ?? made, edit), edit, unbalanced);
  }
  if (BRACKETS_ONLY.has(language) && made.length > 0 && !unbalances(parser, language, before, after))
    return { status: 'ok' };
  // JavaScript and TypeScript: the language's own parser has the last word, on errors the
  // grammar finds new (a window's, it has read already) and where the grammar finds errors in
  // the old content (it may misread it).
  if (typeScriptReads(language) && (made.length > 0 ? !windowFound : was.length > 0)) {
    const verdict = typeScriptVerdict(language, before, after, edit, { made: made.length > 0, old: was.length > 0 });
    if (verdict) {
      if (verdict.made.length === 0) return { status: 'ok' };
      return { status: 'errors', errors: nearestFirst(made.length > 0 ? made : verdict.made, edit) };
    }
  }
  if (made.length === 0) return { status: 'ok' };
  return { status: 'errors', errors: nearestFirst(windowFound ?? made, edit) };
}

/** An error of a window as an error of the file, the window starting at 0-based line `from`. */
function shifted(problem: SyntaxProblem, from: number): SyntaxProblem {
  return {
    ...problem,
    line: problem.line + from,
    endLine: problem.endLine + from,
    contextStart: problem.contextStart + from,
    contextEnd: problem.contextEnd + from,
  };
}

/**
 * The errors nearest the changed lines first (a refusal shows the first few): the error a
 * parser reports at the end of the file, or from line 1 when it gave up on the whole file,
 * is rarely where the change went wrong. Ties keep the file's order.
 */
export function nearestFirst(errors: readonly SyntaxProblem[], hunks: readonly ChangedLines[]): SyntaxProblem[] {
  if (hunks.length === 0) return [...errors];
  const distance = (problem: SyntaxProblem): number =>
    Math.min(
      ...hunks.map((hunk) =>
        problem.line < hunk.newStart
          ? hunk.newStart - problem.line
          : problem.line >= hunk.newEnd
            ? problem.line - Math.max(hunk.newStart, hunk.newEnd - 1)
            : 0,
      ),
    );
  return errors
    .map((problem, order) => ({ problem, order, away: distance(problem) }))
    .sort((a, b) => a.away - b.away || a.order - b.order)
    .map((e) => e.problem);
}

/**
 * What a window cut below the first line starts with, for a language whose code starts with a
 * mark: PHP is text until `<?php`, and a window without it had no errors. The mark goes on the
 * window's first line, so its lines keep their numbers (that line's columns are off by its
 * length, but the errors rt shows come from the whole file, which confirms every refusal).
 */
const WINDOW_MARK: Partial<Record<LanguageId, Buffer>> = { php: Buffer.from('<?php ') };

/**
 * Python, shell scripts and Rust: the language's own parser judges a change the grammar would
 * refuse. It accepts what it reads without error. Where it finds an error the old content did not
 * have, that error refuses; where its first error was already there, it cannot see past it and
 * the grammar's new errors stand. With no verdict (not installed, too slow), only what the
 * grammar is sure of refuses: in Python, the tokenizer's and indentation rules (pythonTokens.ts);
 * in Rust, whose grammar lags the language (`safe fn` in an `unsafe extern` block), an error only
 * if the change also unbalanced the brackets, as for C's macros; in shell scripts, any.
 */
function ownParserJudges(
  parser: OwnParser,
  before: string,
  after: string,
  made: readonly SyntaxProblem[],
  edit: readonly ChangedLines[],
  unbalanced: () => boolean,
): Check {
  const now = ownVerdict(parser, after);
  if (now.status === 'ok') return { status: 'ok' };
  if (now.status === 'none') {
    const sure =
      parser === 'python3' ? made.filter(isPythonTokenProblem) : parser === 'rustfmt' && !unbalanced() ? [] : made;
    return sure.length === 0 ? { status: 'ok' } : { status: 'errors', errors: sure };
  }
  const was = ownVerdict(parser, before);
  if (was.status === 'error' && newProblems([was.problem], [now.problem], edit).length === 0)
    return { status: 'errors', errors: made };
  // The indentation rules say what python3 says, and where on the line.
  const sure = made.filter(isPythonTokenProblem);
  const errors = sure.some((problem) => problem.line === now.problem.line) ? sure : [now.problem, ...sure];
  return { status: 'errors', errors: errors.sort((a, b) => a.line - b.line) };
}

/**
 * The grammar finds only old errors. If the language's own parser reads the old content without
 * error, the grammar misread it (syntax newer than the grammar), and its old errors may hide the
 * change's: the own parser judges the new content alone.
 */
function hiddenBreak(parser: OwnParser, before: string, after: string): Check {
  if (ownVerdict(parser, before).status !== 'ok') return { status: 'ok' };
  const now = ownVerdict(parser, after);
  return now.status === 'error' ? { status: 'errors', errors: [now.problem] } : { status: 'ok' };
}

/**
 * True when the new content's brackets are further from balanced than the old content's, for
 * one pair at least: the edit lost or added a bracket. (Counted over the whole file: an edit's
 * own lines need not balance, a function moved in two steps does not.)
 */
function unbalances(parser: Engine, language: LanguageId, before: string, after: string): boolean {
  const all: Array<[number, number]> = [[0, Number.MAX_SAFE_INTEGER]];
  const old = parser.problemsAndBalance(language, before, all, PARSE_BUDGET_MS)?.balance;
  const now = parser.problemsAndBalance(language, after, all, PARSE_BUDGET_MS)?.balance;
  if (!old || !now) return false;
  return old.some((count, i) => Math.abs(now[i]!) > Math.abs(count));
}

/** The definitions in `bytes`, in file order; undefined when the file cannot be outlined (see syntaxErrors). */
export function outline(language: LanguageId, bytes: Uint8Array): readonly Definition[] | undefined {
  const parser = prepared(language);
  if (typeof parser === 'string' || bytes.length > MAX_CHECK_BYTES) return undefined;
  if (PARSING[language].kind !== 'tree-sitter') return [];
  try {
    return parser.outline(language, sourceOf(bytes).text, OUTLINE_BUDGET_MS);
  } catch {
    return undefined; // as a file too deep to outline (a stack overflow): not an internal error
  }
}

/**
 * Where identifiers spelling `name` stand in `bytes` (0-based rows, UTF-16 columns of the text
 * sourceOf gives); undefined when the file cannot be parsed (see outline).
 */
export function identifiersNamed(language: LanguageId, bytes: Uint8Array, name: string): readonly Place[] | undefined {
  const parser = prepared(language);
  if (typeof parser === 'string' || bytes.length > MAX_CHECK_BYTES) return undefined;
  try {
    return parser.identifiers(language, sourceOf(bytes).text, name, OUTLINE_BUDGET_MS);
  } catch {
    return undefined;
  }
}

/**
 * The definitions in `bytes` with the syntax errors of the same parse (a write by name is refused
 * near one: see symbols.ts); undefined as for `outline`.
 */
export function outlineChecked(
  language: LanguageId,
  bytes: Uint8Array,
): { definitions: readonly Definition[]; problems: readonly SyntaxProblem[] } | undefined {
  const parser = prepared(language);
  if (typeof parser === 'string' || bytes.length > MAX_CHECK_BYTES) return undefined;
  if (PARSING[language].kind !== 'tree-sitter') return { definitions: [], problems: [] };
  try {
    return parser.outlineChecked(language, sourceOf(bytes).text, OUTLINE_BUDGET_MS);
  } catch {
    return undefined; // as a file too deep to outline
  }
}

/**
 * The strings and comments of `bytes` that touch `rows` (0-based, ascending), as codeSpans.ts
 * gives them; undefined when the file cannot be parsed (grammar not loaded, too big, too slow, or
 * not a tree-sitter language): `rt replace --in code` then replaces in it everywhere, and says so.
 */
export function stringsAndComments(
  language: LanguageId,
  bytes: Uint8Array,
  rows: readonly number[],
): number[] | undefined {
  const parser = prepared(language);
  if (typeof parser === 'string' || bytes.length > MAX_CHECK_BYTES) return undefined;
  if (PARSING[language].kind !== 'tree-sitter') return undefined;
  try {
    return parser.nonCode(language, sourceOf(bytes).text, rows, OUTLINE_BUDGET_MS);
  } catch {
    return undefined; // as a file too deep to outline
  }
}

/**
 * The check's answer, or its skipping when anything inside it throws (a parser's bug, a stack
 * overflow on deep nesting): a check that cannot run never blocks a write, and never ends one.
 */
function guarded(run: () => Check): Check {
  try {
    return run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return skipped(`the check failed (${message.split('\n', 1)[0]!.slice(0, 200)})`);
  }
}

function skipped(reason: string): Check {
  return { status: 'skipped', reason };
}

function tooLarge(size: number): Check {
  return skipped(
    `${(size / 1024 / 1024).toFixed(1)} MB is more than the ${MAX_CHECK_BYTES / 1024 / 1024} MB rt checks`,
  );
}
