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
import { END_OF_ROW, firstAtLeast } from '../model/codeRanges.js';
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
  // (A format specifier, `{x:>{width}}`'s `>`, is text again; a `{…}` in it is a hole.)
  python: { text: ['string', 'comment', 'format_specifier'], holes: ['interpolation', 'format_expression'] },
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
      'interpolation_format_clause',
    ],
    holes: ['interpolation'],
  },
  ruby: {
    text: ['string', 'heredoc_body', 'regex', 'character', 'string_array', 'comment'],
    holes: ['interpolation'],
  },
  php: {
    text: ['string', 'encapsed_string', 'heredoc', 'nowdoc', 'comment', 'text'],
    holes: [
      'variable_name',
      'member_access_expression',
      'member_call_expression',
      'subscript_expression',
      'dynamic_variable_name',
    ],
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
        else if (c.nodeType === 'preproc_arg' && (language === 'c' || language === 'cpp')) preprocessed(c);
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
      else if (language === 'rust' && c.nodeType !== 'line_comment' && c.nodeType !== 'block_comment' && inMacro(c))
        from = formatArguments(c.currentNode.text, from, spans);
      spans.push(from.row, from.column, end.row, end.column === 0 && end.row > from.row ? 0 : endOf(c, end));
    };
    /**
     * A macro's body in C and C++ (`#define MSG "x"`) is one token to the grammar: its strings,
     * characters and comments are found in its text.
     */
    const preprocessed = (c: TreeCursor): void => {
      const start = c.startPosition;
      const found = cTextSpans(c.currentNode.text);
      for (let k = 0; k < found.length; k += 4) {
        const [r0, c0, r1, c1] = [found[k]!, found[k + 1]!, found[k + 2]!, found[k + 3]!];
        const endColumn = r1 === 0 && c1 !== END_OF_ROW ? start.column + c1 : c1;
        spans.push(start.row + r0, r0 === 0 ? start.column + c0 : c0, start.row + r1, endColumn);
      }
    };
    code(cursor);
  } finally {
    cursor.delete();
  }
  return spans;
}

/**
 * The end column of the string or comment at `c` ending at `end`: a line comment (one that does
 * not close, on a row of its own) runs to its row's end, so text added at the end of its line
 * (a match of `$`) is in it.
 */
function endOf(c: TreeCursor, end: { row: number; column: number }): number {
  if (c.startPosition.row !== end.row || !/comment|hash_bang/.test(c.nodeType)) return end.column;
  const said = c.currentNode.text;
  return said.endsWith('*/') || said.endsWith('-->') ? end.column : END_OF_ROW;
}

/** Whether the node at `c` lies in a macro's arguments (Rust: a `token_tree`). */
function inMacro(c: TreeCursor): boolean {
  for (let node = c.currentNode.parent; node; node = node.parent) {
    if (node.type === 'token_tree') return true;
    if (node.type === 'macro_invocation' || node.type.endsWith('_item') || node.type === 'block') return false;
  }
  return false;
}

/**
 * A Rust string in a macro's arguments (`println!("{name} {}", x)`): its inline format
 * arguments, `{name}` and the `name` of `{name:>8}`, are code. Pushes the spans of text before
 * each onto `spans`; gives where the text after the last begins.
 */
function formatArguments(
  text: string,
  from: { row: number; column: number },
  spans: number[],
): { row: number; column: number } {
  let row = from.row;
  let column = from.column;
  let rowStart = 0; // index in text of `row`'s first character, when not the first row
  let at = from;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') {
      row++;
      rowStart = i + 1;
      continue;
    }
    if (ch !== '{') continue;
    if (text[i + 1] === '{') {
      i++;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1, i + 65));
    if (!name || !/^[}:]/.test(text[i + 1 + name[0].length] ?? '')) continue;
    column = (row === from.row ? from.column : 0) + (i + 1 - rowStart);
    spans.push(at.row, at.column, row, column);
    at = { row, column: column + name[0].length };
    i += name[0].length;
  }
  return at;
}

/**
 * The strings, characters and comments of C or C++ source `text` (a macro's body), as spans
 * (rows and columns from the text's start, UTF-16 units): a lexer of their quotes and escapes.
 */
export function cTextSpans(text: string): number[] {
  const spans: number[] = [];
  let row = 0;
  let rowStart = 0;
  const where = (i: number): [number, number] => [row, i - rowStart];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') {
      row++;
      rowStart = i + 1;
      continue;
    }
    let end = -1;
    if (ch === '"' || ch === "'") {
      end = i + 1;
      while (end < text.length && text[end] !== ch && text[end] !== '\n') end += text[end] === '\\' ? 2 : 1;
      end = Math.min(text.length, end + 1);
    } else if (ch === '/' && text[i + 1] === '/') {
      // A line comment runs to its row's end (see endOf).
      const stop = text.indexOf('\n', i);
      spans.push(row, i - rowStart, row, END_OF_ROW);
      if (stop === -1) break;
      i = stop - 1;
      continue;
    } else if (ch === '/' && text[i + 1] === '*') {
      end = text.indexOf('*/', i + 2);
      end = end === -1 ? text.length : end + 2;
    }
    if (end === -1) continue;
    const [r0, c0] = where(i);
    // (A comment or string may run over a continued line: the rows it crosses are counted.)
    for (let j = i; j < end; j++)
      if (text[j] === '\n') {
        row++;
        rowStart = j + 1;
      }
    const [r1, c1] = where(end);
    spans.push(r0, c0, r1, c1);
    i = end - 1;
  }
  return spans;
}
