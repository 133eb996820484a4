// The syntax errors in a tree-sitter tree: its ERROR nodes (text the grammar could not place)
// and MISSING nodes (a token the parser made up to go on). Pure: takes a parsed tree.

import type { Node, Tree } from 'web-tree-sitter';
import { MAX_ERRORS, quoted, type SyntaxProblem } from './problem.js';

export function treeProblems(tree: Tree): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  const root = tree.rootNode;
  if (!root.hasError) return problems;
  // `context` is the nearest ancestor that is not itself an error (the root at least): the
  // construct the error broke. It is carried down the walk rather than asked of a node
  // (`node.parent`), which corrupts web-tree-sitter 0.27's memory in some broken trees (a
  // `foo(` inserted into a 1,100-line TypeScript file: "memory access out of bounds", then
  // "table index is out of bounds" at the tree's delete).
  // A walk with a stack of its own, not recursion: a tree may nest as deep as its text does
  // (20,000 brackets), deeper than JavaScript's stack.
  const stack: Array<[Node, Node]> = [[root, root]];
  while (stack.length > 0 && problems.length < MAX_ERRORS) {
    const [node, context] = stack.pop()!;
    if (node.isMissing) {
      problems.push(problemAt(node, context, `missing ${quoted(node.type)}`, `missing ${node.type}`));
      continue;
    }
    if (node.isError) {
      problems.push(unexpected(node, context, root));
      // An ERROR node may hold parsed constructs with errors of their own: those count too.
    }
    const inner = node.isError ? context : node;
    const broken = node.children.filter((child) => child.hasError || child.isMissing);
    for (let i = broken.length - 1; i >= 0; i--) stack.push([broken[i]!, inner]);
  }
  return problems;
}

function unexpected(node: Node, context: Node, root: Node): SyntaxProblem {
  const first = firstLeaf(node);
  const text = node.text;
  if (text.trim() === '' && node.startIndex >= root.endIndex - 1) {
    return problemAt(node, context, 'unexpected end of file', 'unexpected end');
  }
  // The kind names the first token only: the rest of the text the ERROR swallowed changes as
  // the code around it is edited, the token that could not be placed does not.
  const token = first ? first.text : text;
  return problemAt(node, context, `unexpected ${quoted(text)}`, `unexpected ${token.split('\n', 1)[0]!.slice(0, 32)}`);
}

function firstLeaf(node: Node): Node | null {
  let at: Node | null = node;
  while (at && at.childCount > 0) at = at.child(0);
  return at;
}

function problemAt(node: Node, context: Node, message: string, kind: string): SyntaxProblem {
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
