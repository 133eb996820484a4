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
  /**
   * It stands in the body of a type (a class, struct, impl, trait, interface), not in one of its
   * functions': a method's or field's declaration (`def helper(self)` in a class, Java's
   * `int count;`), whose name a subclass or a call through the type may meet.
   */
  readonly inType?: true;
}

/** Nodes that hold a type's members. */
const TYPE_BODY = /class|struct|impl_item|trait|interface|enum|record|union/;

/** Nodes that open a function's scope: what stands in them is the function's, not the type's. */
const FUNCTION = /function|method|lambda|closure|constructor|arrow|func_literal/;

/**
 * Whether a name whose ancestors are `kinds` (the root first) stands in a type's body: the nearest
 * type or function around it is a type, the definition the name is the name of left aside.
 */
function inTypeBody(kinds: readonly string[]): boolean {
  // (The parent is the function the name names, `def helper`: what counts is what holds it.)
  const top = kinds.length - 1;
  for (let i = FUNCTION.test(kinds[top] ?? '') ? top - 1 : top; i >= 0; i--) {
    if (FUNCTION.test(kinds[i]!)) return false;
    if (TYPE_BODY.test(kinds[i]!)) return true;
  }
  return false;
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
  const kinds: string[] = [];
  try {
    for (;;) {
      const kind = cursor.nodeType;
      if (cursor.gotoFirstChild()) {
        kinds.push(kind);
        befores.push(before);
        before = undefined;
        continue;
      }
      if (cursor.nodeIsNamed && NAMING.test(cursor.nodeType) && cursor.nodeText === name) {
        const member = cursor.nodeType === 'field_identifier' || (before !== undefined && SELECTING.has(before));
        const inType = inTypeBody(kinds) ? { inType: true as const } : {};
        found.push({ ...cursor.startPosition, ...(member ? { member } : {}), ...inType });
      }
      for (;;) {
        const left = cursor.nodeType;
        if (cursor.gotoNextSibling()) {
          before = left;
          break;
        }
        if (!cursor.gotoParent()) return found;
        kinds.pop();
        before = befores.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}
