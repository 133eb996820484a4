// What a change of a text changed, for a parser that parses the text again from its earlier
// tree (tree-sitter's, TypeScript's): all between the two texts' common start and common end.
// Pure.

export interface ChangedSpan {
  /** Offset of the first character that differs (UTF-16 code units). */
  readonly start: number;
  /** Offset, in the first text, of the end of what differs. */
  readonly oldEnd: number;
  /** Offset, in the second text, of the end of what differs. */
  readonly newEnd: number;
}

export function changedSpan(from: string, to: string): ChangedSpan {
  let head = 0;
  while (head < from.length && head < to.length && from.charCodeAt(head) === to.charCodeAt(head)) head++;
  let tail = 0;
  while (
    tail < from.length - head &&
    tail < to.length - head &&
    from.charCodeAt(from.length - 1 - tail) === to.charCodeAt(to.length - 1 - tail)
  )
    tail++;
  return { start: head, oldEnd: from.length - tail, newEnd: to.length - tail };
}
