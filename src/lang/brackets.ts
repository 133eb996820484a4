// How many brackets an edit opens or closes: the parser's own tokens (so none in strings or
// comments) on the changed lines, `(` `[` `{` counting +1 and their closers -1, one sum each.
// Pure: takes a parsed tree.
//
// This is the check for languages whose grammar cannot be trusted to parse valid code (C and
// C++ through their macros, CSS through syntax newer than its grammar): there a new error
// blocks an edit only when the edit also unbalanced brackets, which a macro or a newer syntax
// does not do, and a lost or stray `}` does.

import type { Tree } from 'web-tree-sitter';

/** Rows [first, last] of the file (0-based, both included). */
export type Rows = readonly [number, number];

const INDEX: Readonly<Record<string, number>> = { '(': 0, ')': 0, '[': 1, ']': 1, '{': 2, '}': 2 };
const OPENERS = new Set(['(', '[', '{']);

/** The net count of each bracket pair, `()` `[]` `{}`, among the tokens on `rows`. */
export function bracketBalance(tree: Tree, rows: readonly Rows[]): [number, number, number] {
  const balance: [number, number, number] = [0, 0, 0];
  if (rows.length === 0) return balance;
  const cursor = tree.walk();
  const overlaps = (): boolean => {
    const start = cursor.startPosition.row;
    const end = cursor.endPosition.row;
    return rows.some(([first, last]) => start <= last && end >= first);
  };
  // Depth-first over the nodes that reach a changed row; leaves are the tokens.
  let descend = true;
  for (;;) {
    if (descend && overlaps()) {
      if (cursor.gotoFirstChild()) continue;
      const type = cursor.nodeType;
      const index = INDEX[type];
      if (index !== undefined && !cursor.nodeIsMissing) {
        const row = cursor.startPosition.row;
        if (rows.some(([first, last]) => row >= first && row <= last))
          balance[index] = (balance[index] ?? 0) + (OPENERS.has(type) ? 1 : -1);
      }
    }
    if (cursor.gotoNextSibling()) {
      descend = true;
      continue;
    }
    if (!cursor.gotoParent()) break;
    descend = false;
  }
  cursor.delete();
  return balance;
}
