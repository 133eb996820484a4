// A file's definitions, for `rt outline`, `rt open PATH:@NAME` and the writes that name one
// (`rt edit PATH:@NAME`, `@@ edit @NAME`): its language (by name, then shebang), its grammar
// loaded, the file parsed whole; a Markdown file's headings.

import { editDistance } from '../model/editDistance.js';
import { RtError, quotePath } from '../model/errors.js';
import { lidToString } from '../model/lid.js';
import { lineContent, type FileLines } from '../model/lines.js';
import type { Symbols } from '../store/fileChanges.js';
import type { ResolvedPath } from '../store/root.js';
import { languageFor } from '../store/syntaxCheck.js';
import { readWhole } from '../store/userFiles.js';
import { LANGUAGES, PARSING, type LanguageId } from '../lang/languages.js';
import { isMarkdown, markdownOutline } from '../lang/markdown.js';
import { sourceOf } from '../lang/source.js';
import { MAX_CHECK_BYTES, outline, prepareChecker, type Definition } from '../lang/syntax.js';
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

/** The definitions of `file` as it is now (read within its folder); its grammar must be loaded (grammarFor). */
export function definitionsOf(file: ResolvedPath, language: Outlined): readonly Definition[] {
  return definitionsIn(
    file,
    readWhole(file, MAX_CHECK_BYTES, (size) => tooLarge(file, size)),
    language,
  );
}

function tooLarge(file: ResolvedPath, size: number): RtError {
  return new RtError(
    'input',
    `${file.display} is ${(size / 2 ** 20).toFixed(1)} MB: ` +
      `rt finds definitions in files of ${MAX_CHECK_BYTES / 2 ** 20} MB at most`,
    [`search it instead: rt grep-file PATTERN ${quotePath(file.display)}`],
  );
}

/** The definitions in `bytes`, the content of `file`; its grammar must be loaded (grammarFor). */
function definitionsIn(file: ResolvedPath, bytes: Buffer, language: Outlined): readonly Definition[] {
  if (bytes.length > MAX_CHECK_BYTES) throw tooLarge(file, bytes.length);
  if (language === 'markdown') return markdownOutline(sourceOf(bytes).text);
  const found = outline(language, bytes);
  if (!found)
    throw new RtError('input', `${file.display} could not be parsed in time to find its definitions`, [
      `search it instead: rt grep-file PATTERN ${quotePath(file.display)}`,
    ]);
  return found;
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
): RtError {
  const shown = found
    .slice(0, 20)
    .map(
      (d) =>
        `  ${d.line}:${lines.lid(d.line)}|${lines.content(d.line).toString('utf8')}  (${d.kind} ${d.qualifiedName})`,
    );
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
  const parsed = new WeakMap<FileLines, readonly Definition[]>();
  return {
    async prepare(file) {
      try {
        languages.set(file.abs, await grammarFor(ctx, file));
      } catch (error) {
        // What to do instead is a write by lines, not a search.
        if (!(error instanceof RtError) || error.code !== 'input') throw error;
        const instead = `name its lines by LID instead: see them with rt open ${quotePath(file.display)}`;
        throw new RtError(error.code, error.message, [instead], error.details as Record<string, unknown>);
      }
    },
    find(file, lines, lids, name) {
      let definitions = parsed.get(lines);
      if (!definitions) {
        const all = definitionsIn(file, lines.bytes, languages.get(file.abs)!);
        definitions = all.filter((d) => d.endLine <= lines.count);
        parsed.set(lines, definitions);
      }
      const found = definitionsNamed(definitions, name);
      const display = file.display;
      if (found.length === 0) {
        const near = closestNames(definitions, name);
        throw new RtError(
          'no_definition',
          `no definition named ${name} in ${display}${closestSaid(definitions, near)}; nothing was written`,
          [`see them all: rt outline ${quotePath(display)}`],
          { name, closest: near },
        );
      }
      if (found.length > 1) {
        const q = found[0]!.qualifiedName;
        throw severalNamed(
          found,
          name,
          display,
          { lid: (n) => lidToString(lids[n - 1]!), content: (n) => lineContent(lines, n - 1) },
          (distinct, lid) =>
            `${distinct ? `name one by its qualified name (${named(display, q)}), or ` : ''}name its lines by ` +
            `LID instead (see them: rt open ${quotePath(`${display}:${lid}`)})`,
        );
      }
      const d = found[0]!;
      return { line: d.line, start: d.startLine, end: d.endLine };
    },
  };
}
