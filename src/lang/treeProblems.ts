// The syntax errors in a tree-sitter tree: its ERROR nodes (text the grammar could not place)
// and MISSING nodes (a token the parser made up to go on). Pure: takes a parsed tree.

import type { Node, Tree } from 'web-tree-sitter';
import { MAX_ERRORS, quoted, type SyntaxProblem } from './problem.js';

export function treeProblems(tree: Tree): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const root = tree.rootNode;
  if (!root.hasError) return problems;
  const visit = (node: Node): void => {
    if (problems.length >= MAX_ERRORS) return;
    if (node.isMissing) {
      problems.push(problemAt(node, `missing ${quoted(node.type)}`, `missing ${node.type}`));
      return;
    }
    if (node.isError) {
      problems.push(unexpected(node, root));
      // An ERROR node may hold parsed constructs with errors of their own: those count too.
    }
    for (const child of node.children) if (child.hasError || child.isMissing) visit(child);
  };
  visit(root);
  return problems;
}

function unexpected(node: Node, root: Node): SyntaxProblem {
  const first = firstLeaf(node);
  const text = node.text;
  if (text.trim() === '' && node.startIndex >= root.endIndex - 1) {
    return problemAt(node, 'unexpected end of file', 'unexpected end');
  }
  // The kind names the first token only: the rest of the text the ERROR swallowed changes as
  // the code around it is edited, the token that could not be placed does not.
  const token = first ? first.text : text;
  return problemAt(node, `unexpected ${quoted(text)}`, `unexpected ${token.split('\n', 1)[0]!.slice(0, 32)}`);
}

function firstLeaf(node: Node): Node | null {
  let at: Node | null = node;
  while (at && at.childCount > 0) at = at.child(0);
  return at;
}

function problemAt(node: Node, message: string, kind: string): SyntaxProblem {
  const context = contextOf(node);
  return {
    line: node.startPosition.row + 1,
    column: node.startPosition.column + 1,
    endLine: node.endPosition.row + 1,
    message,
    kind,
    contextStart: context.startPosition.row + 1,
    contextEnd: context.endPosition.row + 1,
  };
}

/** The nearest ancestor that is not itself an error: the construct the error broke. */
function contextOf(node: Node): Node {
  let at = node.parent;
  while (at && (at.isError || at.isMissing) && at.parent) at = at.parent;
  return at ?? node;
}
