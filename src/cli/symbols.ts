// A file's definitions, for `rt outline` and `rt open PATH:@NAME`: its language (by
// name, then shebang), its grammar loaded, the file parsed whole; a Markdown file's headings.

import { editDistance } from '../model/editDistance.js';
import { RtError, quotePath } from '../model/errors.js';
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
  const bytes = readWhole(
    file,
    MAX_CHECK_BYTES,
    (size) =>
      new RtError(
        'input',
        `${file.display} is ${(size / 2 ** 20).toFixed(1)} MB: ` +
          `rt finds definitions in files of ${MAX_CHECK_BYTES / 2 ** 20} MB at most`,
        [`search it instead: rt grep-file PATTERN ${quotePath(file.display)}`],
      ),
  );
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
