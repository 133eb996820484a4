// The parsers: web-tree-sitter with one WASM grammar per language, and jsonc-parser for JSON.
// Loading is asynchronous (WebAssembly compiles asynchronously), parsing is not: `prepare`
// loads what a language needs once, then `problems` and `outline` run synchronously.
//
// This module and what it imports are heavy (web-tree-sitter's runtime alone is 170 KB of
// JavaScript and a 200 KB WASM module), so rt's bundle does not hold them: the build makes
// dist/lang.cjs of this file, and loadEngine.ts loads it only when a command needs a parser.

import { setFlagsFromString } from 'node:v8';
import { Edit, Language, Parser, type Point, type Tree } from 'web-tree-sitter';
import { bracketBalance, type Rows } from './brackets.js';
import { changedSpan } from './changedSpan.js';
import { identifiersIn, type Place } from './identifiers.js';
import { nonCodeSpans } from './codeSpans.js';
import { jsonProblems, usesJsonComments } from './jsonProblems.js';
import { PARSING, type LanguageId } from './languages.js';
import { outlineOf, type Definition } from './outline.js';
import type { SyntaxProblem } from './problem.js';
import { pythonTokenProblems } from './pythonTokens.js';
import { treeProblems } from './treeProblems.js';
import { cpuMs } from '../search/timeBudget.js';

/** Calls of a parse's progress callback between two readings of the clock (see parse). */
const CLOCK_EVERY = 32;

/**
 * The bytes of a grammar file, by file name (`tree-sitter-go.wasm`): from node_modules, from
 * dist/grammars/, or from a single executable's assets (the caller knows which).
 */
export type ReadGrammar = (file: string) => Uint8Array;

export interface Engine {
  /** Loads what `language` needs; rejects when its grammar cannot be loaded. */
  prepare(language: LanguageId): Promise<void>;
  /** True once `prepare(language)` has resolved. */
  isPrepared(language: LanguageId): boolean;
  /**
   * The syntax errors of `text`, or undefined when parsing took longer than `budgetMs` (the
   * check is then skipped: a check that cannot finish never blocks a write).
   */
  problems(language: LanguageId, text: string, budgetMs?: number): SyntaxProblem[] | undefined;
  /**
   * The syntax errors of `text` and the balance of brackets on `rows` (brackets.ts), from one
   * parse; undefined as for `problems`. JSON has no balance (its parser is not tree-sitter).
   */
  problemsAndBalance(
    language: LanguageId,
    text: string,
    rows: readonly Rows[],
    budgetMs?: number,
  ): { problems: SyntaxProblem[]; balance?: [number, number, number] } | undefined;
  /**
   * The syntax errors of `after` and, when it has some, of `before` (the same file before a
   * change), parsed again from the tree of `after` (a change of a few lines costs a fraction of
   * a parse); undefined as for `problems` when `after` could not be parsed in time, `was`
   * undefined when `before` could not.
   */
  problemsOfChange(
    language: LanguageId,
    before: string,
    after: string,
    budgetMs?: number,
  ): { found: SyntaxProblem[]; was: SyntaxProblem[] | undefined } | undefined;
  /** The definitions of `text` (tree-sitter languages; JSON has none). */
  outline(language: LanguageId, text: string, budgetMs?: number): Definition[] | undefined;
  /** The definitions of `text` as `outline` gives them, with the syntax errors of the same parse (treeProblems.ts). */
  outlineChecked(
    language: LanguageId,
    text: string,
    budgetMs?: number,
  ): { definitions: Definition[]; problems: SyntaxProblem[] } | undefined;
  /**
   * Where identifiers spelling `name` stand in `text` (identifiers.ts), in text order; undefined
   * when it could not be parsed in time.
   */
  identifiers(language: LanguageId, text: string, name: string, budgetMs?: number): Place[] | undefined;
  /**
   * The strings and comments of `text` that touch `rows` (codeSpans.ts), or undefined when it
   * could not be parsed in time.
   */
  nonCode(language: LanguageId, text: string, rows: readonly number[], budgetMs?: number): number[] | undefined;
  /** The dialect an existing `.json` file is written in: JSONC when it already uses comments or trailing commas. */
  jsonDialect(text: string): 'json' | 'jsonc';
}

export function createEngine(read: ReadGrammar): Engine {
  let runtime: Promise<void> | undefined;
  const loading = new Map<string, Promise<Language>>();
  const parsers = new Map<LanguageId, Parser>();

  const init = (): Promise<void> => {
    // A command parses once or twice and ends: V8's optimising tier for WebAssembly costs such a
    // process more than it saves (a 1,000-line TypeScript file: 65-90 ms to the first tree with
    // it, 22 ms without; notes/syntax-research.md). The flag is the process's: rt's own modules
    // (src/model/wasm) compiled after it stay on the baseline tier too, which costs a big file's
    // work some speed in a command or `rt mcp` server that parsed first, never its results.
    if (!runtime) setFlagsFromString('--liftoff-only');
    return (runtime ??= Parser.init({ wasmBinary: read('web-tree-sitter.wasm') }));
  };

  const load = (grammar: string): Promise<Language> => {
    let language = loading.get(grammar);
    if (!language) {
      language = init().then(() => Language.load(read(grammar)));
      loading.set(grammar, language);
      // A failed load may be tried again (by a later command of a server, say).
      language.catch(() => loading.delete(grammar));
    }
    return language;
  };

  const parse = (
    language: LanguageId,
    text: string,
    budgetMs: number,
    earlier: Tree | null = null,
  ): Tree | undefined => {
    const parser = parsers.get(language);
    if (!parser) throw new Error(`rt: the ${language} grammar is not loaded (prepare it first)`);
    // CPU time, so that other work on a busy machine does not make a check give up.
    // The clock is read every CLOCK_EVERY calls: the parser calls back so often that reading it
    // each time cost as much as the parse of a long line.
    const deadline = cpuMs() + budgetMs;
    let calls = 0;
    const progressCallback = () => ++calls % CLOCK_EVERY === 0 && cpuMs() > deadline;
    const tree = parser.parse(text, earlier, budgetMs === Infinity ? undefined : { progressCallback });
    // A cancelled parse leaves the parser mid-way: reset it so the next parse starts afresh.
    if (!tree) parser.reset();
    return tree ?? undefined;
  };

  return {
    async prepare(language) {
      const parsing = PARSING[language];
      if (parsing.kind !== 'tree-sitter' || parsers.has(language)) return;
      const grammar = await load(parsing.grammar);
      if (!parsers.has(language)) {
        const parser = new Parser();
        parser.setLanguage(grammar);
        parsers.set(language, parser);
      }
    },
    isPrepared(language) {
      return PARSING[language].kind !== 'tree-sitter' || parsers.has(language);
    },
    problems(language, text, budgetMs = Infinity) {
      const parsing = PARSING[language];
      if (parsing.kind === 'json') return jsonProblems(text, parsing.dialect);
      if (parsing.kind !== 'tree-sitter') return undefined;
      const tree = parse(language, text, budgetMs);
      if (!tree) return undefined;
      try {
        return withOwnRules(language, text, treeProblems(tree));
      } finally {
        tree.delete();
      }
    },
    problemsAndBalance(language, text, rows, budgetMs = Infinity) {
      const parsing = PARSING[language];
      if (parsing.kind === 'json') return { problems: jsonProblems(text, parsing.dialect) };
      if (parsing.kind !== 'tree-sitter') return undefined;
      const tree = parse(language, text, budgetMs);
      if (!tree) return undefined;
      try {
        return { problems: withOwnRules(language, text, treeProblems(tree)), balance: bracketBalance(tree, rows) };
      } finally {
        tree.delete();
      }
    },
    problemsOfChange(language, before, after, budgetMs = Infinity) {
      const parsing = PARSING[language];
      if (parsing.kind === 'json') {
        const found = jsonProblems(after, parsing.dialect);
        return { found, was: found.length > 0 ? jsonProblems(before, parsing.dialect) : [] };
      }
      if (parsing.kind !== 'tree-sitter') return undefined;
      const tree = parse(language, after, budgetMs);
      if (!tree) return undefined;
      try {
        const found = withOwnRules(language, after, treeProblems(tree));
        if (found.length === 0) return { found, was: [] };
        tree.edit(editBetween(after, before));
        const old = parse(language, before, budgetMs, tree);
        if (!old) return { found, was: undefined };
        try {
          return { found, was: withOwnRules(language, before, treeProblems(old)) };
        } finally {
          old.delete();
        }
      } finally {
        tree.delete();
      }
    },
    outline(language, text, budgetMs = Infinity) {
      if (PARSING[language].kind !== 'tree-sitter') return [];
      const tree = parse(language, text, budgetMs);
      if (!tree) return undefined;
      try {
        return outlineOf(language, tree);
      } finally {
        tree.delete();
      }
    },
    identifiers(language, text, name, budgetMs = Infinity) {
      if (PARSING[language].kind !== 'tree-sitter') return [];
      const tree = parse(language, text, budgetMs);
      if (!tree) return undefined;
      try {
        return identifiersIn(tree, name);
      } finally {
        tree.delete();
      }
    },
    outlineChecked(language, text, budgetMs = Infinity) {
      if (PARSING[language].kind !== 'tree-sitter') return { definitions: [], problems: [] };
      const tree = parse(language, text, budgetMs);
      if (!tree) return undefined;
      try {
        return { definitions: outlineOf(language, tree), problems: treeProblems(tree) };
      } finally {
        tree.delete();
      }
    },
    nonCode(language, text, rows, budgetMs = Infinity) {
      const tree = parse(language, text, budgetMs);
      if (!tree) return undefined;
      try {
        return nonCodeSpans(language, tree, rows);
      } finally {
        tree.delete();
      }
    },
    jsonDialect(text) {
      return usesJsonComments(text) ? 'jsonc' : 'json';
    },
  };
}

/**
 * The edit that makes `from` into `to`: what lies between their common start and common end.
 * Indices and columns are UTF-16 code units, as web-tree-sitter counts a JavaScript string.
 */
function editBetween(from: string, to: string): Edit {
  const { start, oldEnd, newEnd } = changedSpan(from, to);
  const pointOf = (text: string, index: number): Point => {
    let row = 0;
    for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) row++;
    return { row, column: index - (text.lastIndexOf('\n', index - 1) + 1) };
  };
  return new Edit({
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointOf(from, start),
    oldEndPosition: pointOf(from, oldEnd),
    newEndPosition: pointOf(to, newEnd),
  });
}

/**
 * The grammar's errors and, for Python, those of its tokenizer and indentation rules, which the
 * grammar does not see (pythonTokens.ts), in the order of their lines.
 */
function withOwnRules(language: LanguageId, text: string, problems: SyntaxProblem[]): SyntaxProblem[] {
  if (language !== 'python') return problems;
  const tokens = pythonTokenProblems(text);
  if (tokens.length === 0) return problems;
  return [...problems, ...tokens].sort((a, b) => a.line - b.line || a.column - b.column);
}
