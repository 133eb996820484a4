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
  /**
   * A member's name: a field's (Go's, Rust's, C's `field_identifier`, a Go method's) or one
   * selected after `.` or `->` (`x.Name`). It lives in its type's or operand's scope, so it
   * never clashes with a name of the file's or package's scope.
   */
  readonly member?: true;
}

/** Tokens after which a name is a member's, selected from what stands before. */
const SELECTING = new Set(['.', '->', '?.']);

/** The places of identifiers spelling `name` in `tree`, in the order of the text. */
export function identifiersIn(tree: Tree, name: string): Place[] {
  const found: Place[] = [];
  const cursor = tree.walk();
  // The kind of the node before the cursor's among its siblings, and those of its ancestors' (a
  // cursor has no way back; asking a node for its sibling costs a node object on every leaf).
  let before: string | undefined;
  const befores: Array<string | undefined> = [];
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) {
        befores.push(before);
        before = undefined;
        continue;
      }
      if (cursor.nodeIsNamed && NAMING.test(cursor.nodeType) && cursor.nodeText === name) {
        const member = cursor.nodeType === 'field_identifier' || (before !== undefined && SELECTING.has(before));
        found.push(member ? { ...cursor.startPosition, member } : cursor.startPosition);
      }
      for (;;) {
        const left = cursor.nodeType;
        if (cursor.gotoNextSibling()) {
          before = left;
          break;
        }
        if (!cursor.gotoParent()) return found;
        before = befores.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}
