// The identifiers of a parsed file that spell a given name: named leaves of the grammar's
// identifier kinds (identifier, property_identifier, type_identifier, field_identifier, Ruby's
// constant, PHP's name, Bash's variable_name...). Strings and comments hold none (an interpolation
// inside a string is code, and its identifiers count), so what they say is never a place of the
// name. By name, not by scope: a shadowing local of the same name is one too.

import type { Tree } from 'web-tree-sitter';

/** Node kinds that name something, across rt's grammars. */
const NAMING = /identifier|^name$|^constant$|^variable_name$/;

/** A place in the parsed text: 0-based row, and column in UTF-16 code units (as web-tree-sitter counts). */
export interface Place {
  readonly row: number;
  readonly column: number;
}

/** The places of identifiers spelling `name` in `tree`, in the order of the text. */
export function identifiersIn(tree: Tree, name: string): Place[] {
  const found: Place[] = [];
  const cursor = tree.walk();
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) continue;
      if (cursor.nodeIsNamed && NAMING.test(cursor.nodeType) && cursor.nodeText === name)
        found.push(cursor.startPosition);
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return found;
    }
  } finally {
    cursor.delete();
  }
}
