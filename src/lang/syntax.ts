// The syntax check and outline as the CLI calls them (SPEC §9). Loading a grammar is
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
import { PARSING, type LanguageId } from './languages.js';
import { loadEngine } from './loadEngine.js';
import { hunkBetween, newProblems, type Hunk } from './newProblems.js';
import type { Definition } from './outline.js';
import type { SyntaxProblem } from './problem.js';
import { sourceOf } from './source.js';

export type { Definition } from './outline.js';
export type { SyntaxProblem } from './problem.js';
export type { Hunk } from './newProblems.js';

/**
 * Files larger than this are not checked or outlined. Parsing is linear, about 10-25 ms a MB
 * for tree-sitter grammars (notes/syntax-research.md), so a check at this size costs an edit
 * ~100 ms per parse, two parses when the new content has errors.
 */
export const MAX_CHECK_BYTES = 5 * 1024 * 1024;

/** Longer than this, one parse is given up (a pathological input: deep nesting, a grammar's worst case). */
export const PARSE_BUDGET_MS = 1000;

export type Check =
  | { readonly status: 'ok' }
  | { readonly status: 'errors'; readonly errors: readonly SyntaxProblem[] }
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
export function newErrors(language: LanguageId, oldBytes: Uint8Array, newBytes: Uint8Array, hunks?: readonly Hunk[]): Check {
  const parser = prepared(language);
  if (typeof parser === 'string') return skipped(parser);
  if (newBytes.length > MAX_CHECK_BYTES) return tooLarge(newBytes.length);
  const after = sourceOf(newBytes).text;
  let dialect = language;
  if (language === 'json' && oldBytes.length > 0) {
    // A .json file that already has comments is read by a tool that allows them.
    const old = sourceOf(oldBytes).text;
    if (parser.jsonDialect(old) === 'jsonc') dialect = 'jsonc';
  }
  const found = parser.problems(dialect, after, PARSE_BUDGET_MS);
  if (found === undefined) return skipped(`parsing took longer than ${PARSE_BUDGET_MS} ms`);
  if (found.length === 0) return { status: 'ok' };
  const before = sourceOf(oldBytes).text;
  const was = oldBytes.length > MAX_CHECK_BYTES ? undefined : parser.problems(dialect, before, PARSE_BUDGET_MS);
  // The old content could not be read: nothing says the errors are new, so none is.
  if (was === undefined) return skipped('the file as it was could not be parsed in time');
  const made = newProblems(was, found, hunks ?? hunkBetween(before, after));
  return made.length === 0 ? { status: 'ok' } : { status: 'errors', errors: made };
}

/** The definitions in `bytes`, in file order; undefined when the file cannot be outlined (see syntaxErrors). */
export function outline(language: LanguageId, bytes: Uint8Array): readonly Definition[] | undefined {
  const parser = prepared(language);
  if (typeof parser === 'string' || bytes.length > MAX_CHECK_BYTES) return undefined;
  if (PARSING[language].kind !== 'tree-sitter') return [];
  return parser.outline(language, sourceOf(bytes).text, PARSE_BUDGET_MS);
}

function skipped(reason: string): Check {
  return { status: 'skipped', reason };
}

function tooLarge(size: number): Check {
  return skipped(`${(size / 1024 / 1024).toFixed(1)} MB is more than the ${MAX_CHECK_BYTES / 1024 / 1024} MB rt checks`);
}
