// A file's definitions, for `rt outline`, `rt open PATH:@NAME` and the writes that name one
// (`rt edit PATH:@NAME`, `@@ edit @NAME`): its language (by name, then shebang), its grammar
// loaded, the file parsed whole; a Markdown file's headings.

import { editDistance } from '../model/editDistance.js';
import { RtError, quotePath, shellQuote } from '../model/errors.js';
import { lidToString } from '../model/lid.js';
import { lineContent, type FileLines } from '../model/lines.js';
import type { Symbols } from '../store/fileChanges.js';
import type { ResolvedPath } from '../store/root.js';
import { languageFor } from '../store/syntaxCheck.js';
import { readWhole } from '../store/userFiles.js';
import { LANGUAGES, PARSING, type LanguageId } from '../lang/languages.js';
import { isMarkdown, markdownOutline } from '../lang/markdown.js';
import { sourceOf } from '../lang/source.js';
import type { SyntaxProblem } from '../lang/problem.js';
import { MAX_CHECK_BYTES, outlineChecked, prepareChecker, type Definition } from '../lang/syntax.js';
import type { Context } from './context.js';

export type { Definition } from '../lang/syntax.js';

/**
 * What rt outlines: the languages of its grammars (JSON has no definitions), and Markdown (markdown.ts, no grammar).
 */
export type Outlined = LanguageId | 'markdown';

const GRAMMARS = LANGUAGES.filter((l) => PARSING[l].kind === 'tree-sitter');
export const OUTLINED: readonly Outlined[] = [...GRAMMARS, 'markdown'];

/** Loads the grammar of `file` (a path of the root, not read yet): its language, or a refusal naming those rt knows. */
export async function grammarFor(ctx: Context, file: ResolvedPath): Promise<Outlined> {
  if (isMarkdown(file.abs)) return 'markdown';
  const language = languageFor(ctx.root.dir, file);
  if (language === undefined || !OUTLINED.includes(language)) {
    throw new RtError(
      'input',
      `rt knows no ${language === undefined ? 'language' : `definitions in ${language}`} for ${file.display}: ` +
        `it finds definitions in ${OUTLINED.join(', ')} files, by their names or #! lines`,
      [`search it instead: rt grep-file PATTERN ${quotePath(file.display)}`],
    );
  }
  const ready = await prepareChecker(language);
  if (!ready.ok)
    throw new RtError('access', `${file.display} cannot be outlined: ${ready.reason}`, [
      'reinstall rt (its grammars come with it, in dist/grammars/)',
    ]);
  return language;
}

/** A file's definitions, and the line of the first error of their parse (where the grammar may have lost some). */
export interface FileOutline {
  readonly definitions: readonly Definition[];
  readonly errorsFrom?: number;
}

/** The definitions of `file` as it is now (read within its folder); its grammar must be loaded (grammarFor). */
export function definitionsOf(file: ResolvedPath, language: Outlined): readonly Definition[] {
  return outlineOfFile(file, language).definitions;
}

/** The outline of `file` as it is now (read within its folder); its grammar must be loaded (grammarFor). */
export function outlineOfFile(file: ResolvedPath, language: Outlined): FileOutline {
  return outlineIn(
    file,
    readWhole(file, MAX_CHECK_BYTES, (size) => tooLarge(file, size)),
    language,
  );
}

/**
 * What to say when a parse had errors from line `line`: the grammar may have taken the rest of
 * the file as one error (tree-sitter's TypeScript does with valid code, e.g. a generic call
 * signature on the line after a member with no `;`), so a definition after it may be missing.
 */
export function errorsNote(display: string, line: number): string {
  return `the parse of ${display} had errors from line ${line}: definitions after it may be missing`;
}

/** The hint after errorsNote for a definition `name` not found: where to look for it instead. */
export function lookByLines(display: string, name: string): string {
  // (Word and literal: a name such as $x or a.b is no pattern.)
  const grep = `rt grep -n -w -F -- ${shellQuote(name)} ${quotePath(display)}`;
  return `look for ${name} by its lines instead: ${grep}, then open them by LID`;
}

function tooLarge(file: ResolvedPath, size: number): RtError {
  return new RtError(
    'input',
    `${file.display} is ${(size / 2 ** 20).toFixed(1)} MB: ` +
      `rt finds definitions in files of ${MAX_CHECK_BYTES / 2 ** 20} MB at most`,
    [`search it instead: rt grep-file PATTERN ${quotePath(file.display)}`],
  );
}

/** The outline of `bytes`, the content of `file`; its grammar must be loaded (grammarFor). */
function outlineIn(file: ResolvedPath, bytes: Buffer, language: Outlined): FileOutline {
  if (bytes.length > MAX_CHECK_BYTES) throw tooLarge(file, bytes.length);
  if (language === 'markdown') return { definitions: markdownOutline(sourceOf(bytes).text) };
  const found = outlineChecked(language, bytes);
  if (!found)
    throw new RtError('input', `${file.display} could not be parsed in time to find its definitions`, [
      `search it instead: rt grep-file PATTERN ${quotePath(file.display)}`,
    ]);
  const from = firstErrorLine(found.problems, () => sourceOf(bytes).text);
  return { definitions: found.definitions, ...(from === undefined ? {} : { errorsFrom: from }) };
}

/**
 * The line where a parse first went wrong: its first error that holds no other (an error that
 * does is where the grammar gave up, often from the file's first line, not where it lost its way),
 * or an error holding it that starts after the first line, where the text it could not place
 * begins (`export function b( {` on line 5: the error is in its body, line 6, but b is lost). A
 * token missing with nothing before it on its line (at the end of the file) is missing from the
 * line of the last text before it; never past the file's last line. `text`: the file as parsed.
 */
function firstErrorLine(problems: readonly SyntaxProblem[], text: () => string): number | undefined {
  const after = (q: SyntaxProblem, p: SyntaxProblem) => q.line > p.line || (q.line === p.line && q.column > p.column);
  const holds = (p: SyntaxProblem, q: SyntaxProblem) => after(q, p) && q.endLine <= p.endLine;
  const first = problems
    .filter((p) => !problems.some((q) => holds(p, q)))
    .reduce<SyntaxProblem | undefined>((at, p) => (at === undefined || after(at, p) ? p : at), undefined);
  if (first === undefined) return undefined;
  const rows = text().split('\n');
  let line = first.line;
  if (first.kind.startsWith('missing ') && (rows[line - 1] ?? '').slice(0, first.column - 1).trim() === '') {
    let above = line - 2;
    while (above >= 0 && rows[above]!.trim() === '') above--;
    if (above >= 0) line = above + 1;
  }
  for (const p of problems) if (p.line > 1 && p.line < line && holds(p, first)) line = p.line;
  // (A final line end ends the last line: no line follows it.)
  return Math.min(line, Math.max(1, rows.length - (rows.at(-1) === '' ? 1 : 0)));
}

/**
 * The definitions `name` names: those whose qualified name it is (`Cart.add`); a Markdown
 * heading whose anchor it is, in any case (`@Set-up`); else those whose qualified name ends
 * with it after a dot, or whose own name it is; else a heading whose anchor it is but for the
 * dashes at its edges. A type wins over its impl blocks (Rust's `struct Config` over `impl
 * Config`, whose methods are `Config.new`).
 */
export function definitionsNamed(definitions: readonly Definition[], name: string): Definition[] {
  const exact = definitions.filter((d) => d.qualifiedName === name);
  if (exact.length) return typesFirst(exact);
  const anchor = name.toLowerCase();
  const headings = definitions.filter((d) => d.level !== undefined);
  const byAnchor = headings.filter((d) => d.qualifiedName === anchor);
  if (byAnchor.length) return byAnchor;
  const named = definitions.filter((d) => d.qualifiedName.endsWith(`.${name}`) || d.name === name);
  if (named.length) return typesFirst(named);
  // An emoji or an HTML tag at a heading's edge leaves a `-` there (`-news`): `@news` names it too.
  return headings.filter((d) => d.qualifiedName.replace(/^-+|-+$/g, '') === anchor);
}

function typesFirst(found: Definition[]): Definition[] {
  const types = found.filter((d) => d.kind !== 'impl');
  return types.length ? types : found;
}

/** The names closest to `name` among the definitions, for a refusal (at most 5): near in spelling, or holding it. */
export function closestNames(definitions: readonly Definition[], name: string): string[] {
  const wanted = name.toLowerCase();
  const near = Math.max(2, Math.floor(wanted.length / 3));
  const scored = [...new Set(definitions.map((d) => d.qualifiedName))].map((n) => {
    const lower = n.toLowerCase();
    const distance = Math.min(
      editDistance(wanted, lower),
      editDistance(wanted, lower.slice(lower.lastIndexOf('.') + 1)),
    );
    return { n, score: lower.includes(wanted) ? -1 : distance };
  });
  return scored
    .filter((s) => s.score <= near)
    .sort((a, b) => a.score - b.score)
    .slice(0, 5)
    .map((s) => s.n);
}

/** "; the closest: …" (or what else to say) after "no definition named NAME in PATH", for a refusal. */
export function closestSaid(definitions: readonly Definition[], near: readonly string[]): string {
  return near.length ? `; the closest: ${near.join(', ')}` : definitions.length ? '' : ' (it has none rt finds)';
}

/**
 * The refusal (exit 2) of a NAME that several definitions have: each listed by its line with its
 * LID, then `hint`, told whether their qualified names tell them apart and the LID of the first.
 */
export function severalNamed(
  found: readonly Definition[],
  name: string,
  display: string,
  lines: { lid(line: number): string; content(line: number): Buffer },
  hint: (distinct: boolean, firstLid: string) => string,
  each?: (d: Definition) => string,
): RtError {
  const shown = found.slice(0, 20).map((d) => {
    const text = lines.content(d.line).toString('utf8');
    const listed = `  ${d.line}:${lines.lid(d.line)}|${text}  (${d.kind} ${d.qualifiedName}`;
    return each ? `${listed}, lines ${d.startLine}-${d.endLine}: ${each(d)})` : `${listed})`;
  });
  const distinct = new Set(found.map((d) => d.qualifiedName)).size === found.length;
  const hints = [...shown, hint(distinct, lines.lid(found[0]!.line))];
  return new RtError('usage', `${found.length} definitions in ${display} are named ${name}:`, hints, {
    candidates: found.map((d) => ({
      qualifiedName: d.qualifiedName,
      kind: d.kind,
      line: d.line,
      start: d.startLine,
      end: d.endLine,
    })),
  });
}

/**
 * How a write finds the definitions it names (rt edit PATH:@NAME, @@ edit @NAME): each file's
 * grammar loaded before the batch's locks, its definitions found in the bytes the write reads
 * under them (parsed once a reading). None of that name is refused with exit 1 and the closest
 * names; several with exit 2, listed (as rt open PATH:@NAME does). `named`: how the write names
 * a definition (rt edit PATH:@Cart.add, @@ edit @Cart.add), for that refusal's hint.
 */
export function symbolsFor(ctx: Context, named: (display: string, qualifiedName: string) => string): Symbols {
  const languages = new Map<string, Outlined>();
  const parsed = new WeakMap<FileLines, Parsed>();
  return {
    async prepare(file) {
      try {
        languages.set(file.abs, await grammarFor(ctx, file));
      } catch (error) {
        // What to do instead is a write by lines, not a search.
        if (!(error instanceof RtError) || error.code !== 'input') throw error;
        throw byLinesInstead(error, file.display);
      }
    },
    find(file, lines, lids, name) {
      let found = parsed.get(lines);
      if (!found) {
        found = parseForWrite(file, lines, languages.get(file.abs)!);
        parsed.set(lines, found);
      }
      const { definitions, problems } = found;
      const display = file.display;
      const lidOf = (n: number) => lidToString(lids[n - 1]!);
      const matching = definitionsNamed(definitions, name);
      if (matching.length === 0) {
        const near = closestNames(definitions, name);
        const from = firstErrorLine(problems, () => sourceOf(lines.bytes).text);
        throw new RtError(
          'no_definition',
          `no definition named ${name} in ${display}${closestSaid(definitions, near)}; nothing was written`,
          from === undefined
            ? [`see them all: rt outline ${quotePath(display)}`]
            : [errorsNote(display, from), lookByLines(display, name)],
          { name, closest: near, ...(from === undefined ? {} : { parseErrorsFrom: from }) },
        );
      }
      if (matching.length > 1) {
        const q = matching[0]!.qualifiedName;
        throw severalNamed(
          matching,
          name,
          display,
          { lid: lidOf, content: (n) => lineContent(lines, n - 1) },
          (distinct) =>
            `${distinct ? `name one by its qualified name (${named(display, q)}), or ` : ''}name its lines by ` +
            'LID instead: see them with the rt open above',
          (d) => `rt open ${quotePath(`${display}:${d.startLine}-${d.endLine}`)}`,
        );
      }
      const d = matching[0]!;
      const blank = (n: number) => /^[ \t\f]*$/.test(lineContent(lines, n - 1).toString('latin1'));
      let end = d.endLine;
      // A section's blank lines before the next heading are spacing, not its text: a write by name leaves them.
      if (d.level !== undefined) while (end > d.line && blank(end)) end--;
      const byLid = `rt edit ${quotePath(display)} ${lidOf(d.startLine)} ${lidOf(end)}`;
      refuseShared(d, end, definitions, display, byLid);
      refuseBroken(d, end, definitions, problems, lines.count, display, byLid);
      return {
        line: d.line,
        start: d.startLine,
        end,
        ...(end === d.endLine ? {} : { listedEnd: d.endLine }),
        parts: 1 + (d.parts?.length ?? 0),
        named: { name: d.name, kind: d.kind, qualified: d.qualifiedName },
      };
    },
  };
}

interface Parsed {
  readonly definitions: readonly Definition[];
  /** The lines of the parse's errors and missing nodes (none for Markdown), ascending. */
  readonly problems: readonly SyntaxProblem[];
}

function parseForWrite(file: ResolvedPath, lines: FileLines, language: Outlined): Parsed {
  try {
    if (lines.bytes.length > MAX_CHECK_BYTES) throw tooLarge(file, lines.bytes.length);
    const keep = (all: readonly Definition[]) => all.filter((d) => d.endLine <= lines.count);
    if (language === 'markdown')
      return { definitions: keep(outlineIn(file, lines.bytes, language).definitions), problems: [] };
    const found = outlineChecked(language, lines.bytes);
    if (!found) throw new RtError('input', `${file.display} could not be parsed in time to find its definitions`);
    const problems = [...found.problems].sort((a, b) => a.line - b.line);
    return { definitions: keep(found.definitions), problems };
  } catch (error) {
    if (error instanceof RtError && error.code === 'input') throw byLinesInstead(error, file.display);
    throw error;
  }
}

/** `error` (a file rt finds no definitions in) with what to do instead: a write of its lines by LID. */
function byLinesInstead(error: RtError, display: string): RtError {
  const instead = `name its lines by LID instead: see them with rt open ${quotePath(display)}`;
  return new RtError(error.code, error.message, [instead], error.details as Record<string, unknown>);
}

/**
 * Refuses a write by name of `d` (lines d.startLine..end) when another definition has text on its
 * first or last line (`const a = 1, b = 2;`, `} function d() {`): written by name, it would go
 * too. Definitions inside `d` go with it; one around it is in the way when its listed line is one
 * of `d`'s (`class A: def f(): pass`) or, but in Python, whose blocks end with their last
 * statement, when it ends on `d`'s last line (the `}` of `m() {} }`). A Markdown section holds
 * its subsections, and shares no text.
 */
function refuseShared(d: Definition, end: number, all: readonly Definition[], display: string, byLid: string): void {
  if (d.level !== undefined) return;
  // Inside by its name (a class's method), or by its lines when it starts on a line of its own.
  const inside = (a: Definition, b: Definition) =>
    a.startLine >= b.startLine &&
    a.endLine <= b.endLine &&
    (a.qualifiedName.startsWith(`${b.qualifiedName}.`) || a.startLine > b.startLine);
  const indented = /\.pyi?$/.test(display);
  const other = all.find((e) => {
    if (e === d || e.endLine < d.startLine || e.startLine > end || inside(e, d)) return false;
    if (inside(d, e)) return e.line >= d.startLine || (!indented && e.endLine === end);
    return true;
  });
  if (!other) return;
  const shared = other.endLine >= d.startLine && other.startLine <= d.startLine ? d.startLine : end;
  throw new RtError(
    'usage',
    `@${d.qualifiedName} shares line ${shared} of ${display} with ${other.kind} ${other.qualifiedName}: written by ` +
      'name, that would be written too; nothing was written',
    [`write the lines you mean by LID instead: ${byLid} (the lines of @${d.qualifiedName}; or rt delete …)`],
    { name: d.qualifiedName, other: other.qualifiedName, line: shared },
  );
}

/**
 * Refuses a write by name of `d` when the parse has an error beginning between its first line and
 * the start of the definition after it (or the end of the definition holding it, or the file's
 * end): its range may then run past its end (a `(` left open swallows the next function), and be
 * written with the lines of another.
 */
function refuseBroken(
  d: Definition,
  end: number,
  all: readonly Definition[],
  problems: readonly SyntaxProblem[],
  count: number,
  display: string,
  byLid: string,
): void {
  // The next definition's start, within the definition holding this one (a block ends where its holder does).
  const holder = all.reduce<Definition | undefined>(
    (at, e) => (e !== d && e.startLine <= d.startLine && e.endLine >= end && (!at || e.endLine <= at.endLine) ? e : at),
    undefined,
  );
  const bound = holder ? holder.endLine + 1 : count + 1;
  const next = all.reduce((at, e) => (e.startLine > end && e.startLine < at ? e.startLine : at), bound);
  // Only an error that begins there counts: one around the definition (a grammar that lost its way above
  // it, and took the rest of the file as one error) says nothing of where this one ends.
  const error = problems.find((p) => p.line >= d.startLine && p.line < next);
  if (!error) return;
  throw new RtError(
    'usage',
    `${display} has a syntax error at line ${error.line}, column ${error.column} (${error.message}), within or ` +
      `after @${d.qualifiedName}: where it ends is not known; nothing was written`,
    [
      `write the lines you mean by LID instead: ${byLid} (see them: rt open ` +
        `${quotePath(`${display}:${d.startLine}-${Math.min(next, count)}`)})`,
    ],
    { name: d.qualifiedName, line: error.line, column: error.column },
  );
}
