// One kind of edit, with its algebra (after helix's ChangeSet and zed's Patch): a `LineEdit`
// replaces a run of lines with new ones, an `EditSet` is edits of one file in file order, none
// overlapping. Lines are counted from 0 and an edit reads as `Array.prototype.splice` does:
// from line `start`, `deleteCount` lines go and the `insert` lines take their place. Every
// operation here walks the edits once (linear in their number), never the file's lines
// outside them.
//
// Several inserts may stand at one place (a patch may add lines before and after one line), in
// the order their lines take; an insert at the start of a replaced range goes before it.

/** Lines start..start+deleteCount-1 of a file (0-based) replaced by `insert`. */
export interface LineEdit<L = Buffer> {
  /** First line replaced, or the line an insert goes before (the line count: at the end). */
  readonly start: number;
  /** Lines removed from `start` on (0 for an insert). */
  readonly deleteCount: number;
  /** The new lines (without line endings, when they are bytes). */
  readonly insert: readonly L[];
}

/** Where an edit's lines are: `oldCount` lines from `oldStart` before it, `newCount` from `newStart` after. */
export interface EditSpan {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
}

/**
 * For a line inside a replaced range, which side of the replacement `mapLine` names: the first
 * new line (`before`), or the line after the new ones (`after`).
 */
export type Bias = 'before' | 'after';

/** Edits of one file, in file order, none overlapping; immutable. */
export class EditSet<E extends LineEdit<unknown> = LineEdit> {
  private spanList: readonly EditSpan[] | undefined;

  private constructor(readonly edits: readonly E[]) {}

  /** The edits, given in file order; refuses (throws) two that overlap or come out of order. */
  static of<E extends LineEdit<unknown>>(edits: readonly E[]): EditSet<E> {
    for (let i = 0; i < edits.length; i++) {
      const edit = edits[i]!;
      if (
        !Number.isInteger(edit.start) ||
        edit.start < 0 ||
        !Number.isInteger(edit.deleteCount) ||
        edit.deleteCount < 0
      )
        throw new RangeError(`edit ${i} has no valid range: start ${edit.start}, deleteCount ${edit.deleteCount}`);
      const before = edits[i - 1];
      if (before && before.start + before.deleteCount > edit.start)
        throw new RangeError(
          `edit ${i} (lines from ${edit.start}) overlaps or precedes edit ${i - 1} ` +
            `(lines ${before.start}..${before.start + before.deleteCount})`,
        );
    }
    return new EditSet([...edits]);
  }

  get size(): number {
    return this.edits.length;
  }

  /** Each edit's lines on both sides, in file order (worked out once). */
  spans(): readonly EditSpan[] {
    if (this.spanList) return this.spanList;
    let delta = 0;
    this.spanList = this.edits.map(({ start, deleteCount, insert }) => {
      const span = { oldStart: start, oldCount: deleteCount, newStart: start + delta, newCount: insert.length };
      delta += insert.length - deleteCount;
      return span;
    });
    return this.spanList;
  }

  /** How many lines the edits add (negative: remove) in all. */
  get delta(): number {
    let delta = 0;
    for (const { deleteCount, insert } of this.edits) delta += insert.length - deleteCount;
    return delta;
  }

  /** `lines` with the edits made. */
  apply<L>(this: EditSet<LineEdit<L>>, lines: readonly L[]): L[] {
    const last = this.edits[this.edits.length - 1];
    if (last && last.start + last.deleteCount > lines.length)
      throw new RangeError(`the edits reach line ${last.start + last.deleteCount} of ${lines.length}`);
    const out: L[] = [];
    let read = 0;
    for (const { start, deleteCount, insert } of this.edits) {
      for (let i = read; i < start; i++) out.push(lines[i]!);
      for (const line of insert) out.push(line);
      read = start + deleteCount;
    }
    for (let i = read; i < lines.length; i++) out.push(lines[i]!);
    return out;
  }

  /**
   * Where old line `line` is after the edits. A line an edit replaced maps, by `bias`, to that
   * edit's first new line or to the line after its new ones.
   */
  mapLine(line: number, bias: Bias = 'before'): number {
    let delta = 0;
    for (const { start, deleteCount, insert } of this.edits) {
      // An insert at the line itself goes before it, as Array.prototype.splice puts it.
      if (start + deleteCount <= line) delta += insert.length - deleteCount;
      else if (start > line) break;
      else return start + delta + (bias === 'after' ? insert.length : 0);
    }
    return line + delta;
  }

  /** The edits that turn the result back into `before` (the lines these edits were made to). */
  invert<L>(this: EditSet<LineEdit<L>>, before: readonly L[]): EditSet<LineEdit<L>> {
    return new EditSet(
      this.edits.map(({ start, deleteCount, insert }, i) => ({
        start: this.spans()[i]!.newStart,
        deleteCount: insert.length,
        insert: before.slice(start, start + deleteCount),
      })),
    );
  }
}

/** One step of the walk `compose` makes: keep lines, remove them, or add lines[from..]. */
type Op<L> =
  | { kind: 'retain'; count: number }
  | { kind: 'delete'; count: number }
  | { kind: 'insert'; lines: readonly L[]; from: number };

/** The edits as a stream of operations over the whole file, ending in keeping every line after them. */
function* opsOf<L>(set: EditSet<LineEdit<L>>): Generator<Op<L>, never> {
  let at = 0;
  for (const { start, deleteCount, insert } of set.edits) {
    if (start > at) yield { kind: 'retain', count: start - at };
    if (deleteCount > 0) yield { kind: 'delete', count: deleteCount };
    if (insert.length > 0) yield { kind: 'insert', lines: insert, from: 0 };
    at = start + deleteCount;
  }
  for (;;) yield { kind: 'retain', count: Number.POSITIVE_INFINITY };
}

/** What is left of `op` once `n` of its lines are taken, or the stream's next op. */
function rest<L>(op: Op<L>, n: number, ops: Generator<Op<L>, never>): Op<L> {
  if (op.kind === 'insert') return op.lines.length - op.from > n ? { ...op, from: op.from + n } : ops.next().value;
  return op.count > n ? { ...op, count: op.count - n } : ops.next().value;
}

function lengthOf<L>(op: Op<L>): number {
  return op.kind === 'insert' ? op.lines.length - op.from : op.count;
}

/**
 * The edits `a` then `b` make (b counts lines in what a leaves), as one set over a's lines:
 * applying it is applying `a`, then `b`. Touching edits come out as one.
 */
export function compose<L>(a: EditSet<LineEdit<L>>, b: EditSet<LineEdit<L>>): EditSet<LineEdit<L>> {
  const out: Array<{ start: number; deleteCount: number; insert: L[] }> = [];
  let at = 0; // line of a's file reached
  let open: { start: number; deleteCount: number; insert: L[] } | undefined;
  const edit = () => {
    if (!open) {
      open = { start: at, deleteCount: 0, insert: [] };
      out.push(open);
    }
    return open;
  };
  const sa = opsOf(a);
  const sb = opsOf(b);
  let x = sa.next().value;
  let y = sb.next().value;
  for (;;) {
    if (x.kind === 'delete') {
      // Lines a removed: b never saw them.
      edit().deleteCount += x.count;
      at += x.count;
      x = sa.next().value;
      continue;
    }
    if (y.kind === 'insert') {
      // Lines b added: a never saw them.
      for (let i = y.from; i < y.lines.length; i++) edit().insert.push(y.lines[i]!);
      y = sb.next().value;
      continue;
    }
    if (x.kind === 'retain' && y.kind === 'retain' && x.count === Number.POSITIVE_INFINITY && y.count === x.count)
      break;
    const n = Math.min(lengthOf(x), lengthOf(y));
    if (x.kind === 'retain' && y.kind === 'retain') open = undefined;
    else if (x.kind === 'retain')
      edit().deleteCount += n; // b removes lines a kept
    else if (y.kind === 'retain') for (let i = 0; i < n; i++) edit().insert.push(x.lines[x.from + i]!);
    else edit(); // b removes lines a added: neither file has them
    if (x.kind === 'retain') at += n;
    x = rest(x, n, sa);
    y = rest(y, n, sb);
  }
  return EditSet.of(out.filter((e) => e.deleteCount > 0 || e.insert.length > 0));
}
