// Where a file's text is not code: its comments and string literals (`rt replace --in code`
// leaves matches there alone). Pure: walks a parsed tree by node types, one table a language.
//
// A string is all of its node, quotes and prefixes included, less the holes in it that hold code
// again: a template's `${…}`, an f-string's `{…}`, C#'s and Ruby's interpolations, the `$x` and
// `$(…)` of a shell string or here-document, the variables of a PHP string. A hole may hold a
// string or a comment again, and is walked as code. Regex literals and JSX text count as strings
// (a pattern and text shown to people, not names the program uses); Python's docstrings are its
// strings; symbols (Ruby's `:name`) and YAML's plain scalars are code. Only the rows asked about
// are walked (a node that spans none of them is skipped whole), so a file of a few matches costs
// its parse and a walk down to them.

import type { Tree, TreeCursor } from 'web-tree-sitter';
import { firstAtLeast } from '../model/codeRanges.js';
import type { LanguageId } from './languages.js';

interface Table {
  /** Named node types that are strings (holes aside) or comments. */
  readonly text: ReadonlySet<string>;
  /** Named node types inside a string that are code. */
  readonly holes: ReadonlySet<string>;
}

const C_LIKE = ['string_literal', 'raw_string_literal', 'char_literal', 'system_lib_string', 'comment'];
const SHELL_HOLES = ['simple_expansion', 'expansion', 'command_substitution', 'arithmetic_expansion'];
const JS = {
  text: [
    'string',
    'template_string',
    'template_literal_type',
    'regex',
    'jsx_text',
    'comment',
    'html_comment',
    'hash_bang_line',
  ],
  holes: ['template_substitution', 'template_type'],
};

const TABLES: Readonly<Partial<Record<LanguageId, { text: string[]; holes: string[] }>>> = {
  javascript: JS,
  typescript: JS,
  tsx: JS,
  python: { text: ['string', 'comment'], holes: ['interpolation'] },
  go: { text: ['interpreted_string_literal', 'raw_string_literal', 'rune_literal', 'comment'], holes: [] },
  rust: { text: ['string_literal', 'raw_string_literal', 'char_literal', 'line_comment', 'block_comment'], holes: [] },
  java: { text: ['string_literal', 'character_literal', 'line_comment', 'block_comment'], holes: [] },
  c: { text: C_LIKE, holes: [] },
  cpp: { text: C_LIKE, holes: [] },
  csharp: {
    text: [
      'string_literal',
      'verbatim_string_literal',
      'raw_string_literal',
      'interpolated_string_expression',
      'character_literal',
      'comment',
    ],
    holes: ['interpolation'],
  },
  ruby: {
    text: ['string', 'heredoc_body', 'regex', 'character', 'string_array', 'comment'],
    holes: ['interpolation'],
  },
  php: {
    text: ['string', 'encapsed_string', 'heredoc', 'nowdoc', 'comment', 'text'],
    holes: ['variable_name', 'member_access_expression', 'subscript_expression', 'dynamic_variable_name'],
  },
  bash: {
    text: ['string', 'raw_string', 'ansi_c_string', 'translated_string', 'heredoc_body', 'comment'],
    holes: SHELL_HOLES,
  },
  css: { text: ['string_value', 'comment'], holes: [] },
  yaml: { text: ['double_quote_scalar', 'single_quote_scalar', 'block_scalar', 'comment'], holes: [] },
};

const COMPILED = new Map<LanguageId, Table>();

function tableOf(language: LanguageId): Table | undefined {
  let table = COMPILED.get(language);
  const given = TABLES[language];
  if (!table && given) COMPILED.set(language, (table = { text: new Set(given.text), holes: new Set(given.holes) }));
  return table;
}

/**
 * The spans of `tree` that are strings or comments and touch one of `rows` (0-based, ascending),
 * four numbers each: start row, start column, end row, end column (columns in UTF-16 units of
 * the row's text, the end not included), in text order.
 */
export function nonCodeSpans(language: LanguageId, tree: Tree, rows: readonly number[]): number[] {
  const table = tableOf(language);
  const spans: number[] = [];
  if (!table || rows.length === 0) return spans;
  /** Whether a row of `rows` lies in [from, to]. */
  const touches = (from: number, to: number): boolean => {
    const at = firstAtLeast(rows, from);
    return at < rows.length && rows[at]! <= to;
  };
  const cursor = tree.walk();
  try {
    // Code: enter the children that touch a row; a string or comment is a span (less its holes).
    const code = (c: TreeCursor): void => {
      if (!c.gotoFirstChild()) return;
      do {
        const start = c.startPosition;
        const end = c.endPosition;
        if (!touches(start.row, end.row)) continue;
        if (c.nodeIsNamed && table.text.has(c.nodeType)) text(c);
        else code(c);
      } while (c.gotoNextSibling());
      c.gotoParent();
    };
    const text = (c: TreeCursor): void => {
      let from = c.startPosition;
      const end = c.endPosition;
      // A hole may lie deeper than the string's children (PHP's here-document holds a body that holds them).
      const holes = (c: TreeCursor): void => {
        if (!c.gotoFirstChild()) return;
        do {
          if (!c.nodeIsNamed) continue;
          if (!table.holes.has(c.nodeType)) holes(c);
          else {
            const hole = c.startPosition;
            spans.push(from.row, from.column, hole.row, hole.column);
            code(c);
            from = c.endPosition;
          }
        } while (c.gotoNextSibling());
        c.gotoParent();
      };
      if (table.holes.size > 0) holes(c);
      spans.push(from.row, from.column, end.row, end.column);
    };
    code(cursor);
  } finally {
    cursor.delete();
  }
  return spans;
}
