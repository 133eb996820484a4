// grep --function and --function-context: the definitions enclosing a file's hits, found in its
// outline where rt has the file's grammar (loaded before the hits are reported, which happens
// synchronously), in its headings for Markdown; else (src/model/enclosing.ts) by git grep's rule
// for a function line.

import type { Enclosure } from '../model/enclosing.js';
import { LANGUAGES, PARSING, type LanguageId } from '../lang/languages.js';
import { isMarkdown, markdownOutline } from '../lang/markdown.js';
import { sourceOf } from '../lang/source.js';
import type { Definition } from '../lang/outline.js';
import { MAX_CHECK_BYTES, outline, prepareChecker } from '../lang/syntax.js';
import type { Candidate } from '../search/candidates.js';
import type { Enclosing } from '../search/report.js';
import { listedPath, type ResolvedPath } from '../store/root.js';
import { languageFor } from '../store/syntaxCheck.js';
import type { Context } from './context.js';

const GRAMMARS = new Set<LanguageId>(LANGUAGES.filter((l) => PARSING[l].kind === 'tree-sitter'));

/**
 * How the report finds the definitions enclosing hits in `files` (those it will print), with the
 * grammars of their languages loaded; undefined when neither --function nor --function-context
 * is asked.
 */
export async function enclosingFor(
  ctx: Context,
  files: readonly Candidate[],
  asked: { readonly function?: boolean; readonly functionContext?: boolean },
): Promise<Enclosing | undefined> {
  if (!asked.function && !asked.functionContext) return undefined;
  const languages = new Map<string, LanguageId | 'markdown' | undefined>();
  for (const file of files) {
    let resolved: ResolvedPath;
    try {
      resolved = listedPath(ctx.root, file.abs, file.display);
    } catch {
      continue; // gone or moved out: not reported either
    }
    languages.set(file.abs, isMarkdown(file.abs) ? 'markdown' : languageFor(ctx.root.dir, resolved));
  }
  const ready = new Set<LanguageId>();
  for (const language of new Set(languages.values())) {
    if (language === undefined || language === 'markdown' || !GRAMMARS.has(language)) continue;
    // A grammar that cannot load leaves its files to git grep's rule.
    if ((await prepareChecker(language)).ok) ready.add(language);
  }
  return {
    body: asked.functionContext === true,
    definitions(file, contents) {
      const language = languages.get(file.abs);
      if (language === undefined || (language !== 'markdown' && !ready.has(language))) return undefined;
      // (Too big to parse: not joined into one more copy of it either.)
      if (contents.reduce((n, c) => n + c.length + 1, 0) > MAX_CHECK_BYTES) return undefined;
      const bytes = joinLines(contents);
      // (Undefined: not parsed in time.)
      return (language === 'markdown' ? markdownOutline(sourceOf(bytes).text) : outline(language, bytes))?.map(
        asEnclosure,
      );
    },
  };
}

function asEnclosure(d: Definition): Enclosure {
  const parts = d.parts ? { parts: d.parts } : {};
  return { line: d.line, startLine: d.startLine, endLine: d.endLine, kind: d.kind, name: d.qualifiedName, ...parts };
}

/** The file's text again from its lines, one "\n" after each: every line stays at its number. */
function joinLines(contents: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [];
  const newline = Buffer.from('\n');
  for (const line of contents) parts.push(line, newline);
  return Buffer.concat(parts);
}
