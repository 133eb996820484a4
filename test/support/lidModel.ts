import fc from 'fast-check';

// The documented promise of fresh LIDs (docs/DESIGN.md, LIDs are never reused; man page "LINE
// IDS"), written out for tests independently of rt's code: a line whose content occurs once in
// the file is that content; a repeated line is told apart by its stretch, the lines from the
// nearest line above whose content occurs once (or the file's start) to the nearest such line
// below (or the file's end), and its offset in it. Only a line with the same content, stretch and
// offset is indistinguishable from it.

/** What tells a line apart in a fresh reading of `lines` (see above), as a string. */
export function surroundings(lines: readonly string[], i: number): string {
  const count = new Map<string, number>();
  for (const l of lines) count.set(l, (count.get(l) ?? 0) + 1);
  const unique = (k: number) => count.get(lines[k]!) === 1;
  if (unique(i)) return JSON.stringify(['unique', lines[i]]);
  let s = i;
  while (s > 0 && !unique(s - 1)) s--;
  let e = i;
  while (e < lines.length && !unique(e)) e++;
  const above = s > 0 ? ['line', lines[s - 1]] : ['start'];
  const below = e < lines.length ? ['line', lines[e]] : ['end'];
  return JSON.stringify([above, lines.slice(s, e), below, i - s]);
}

/** A line of a model file: its identity survives edits elsewhere and moves; a change makes a new line. */
export interface ModelLine {
  readonly id: number;
  readonly content: string;
}

/** One change to a model file, as an editor or another program would make it. */
export type ModelOp =
  | { kind: 'insert'; at: number; lines: string[] }
  | { kind: 'delete'; at: number; count: number }
  | { kind: 'change'; at: number; content: string }
  | { kind: 'move'; at: number; to: number; count?: number };

/** Random changes whose new lines are drawn from `content`. */
export function modelOp(content: fc.Arbitrary<string>): fc.Arbitrary<ModelOp> {
  return fc.oneof(
    fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      lines: fc.array(content, { minLength: 1, maxLength: 4 }),
    }),
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }),
    fc.record({ kind: fc.constant('change' as const), at: fc.nat(), content }),
    fc.record({
      kind: fc.constant('move' as const),
      at: fc.nat(),
      to: fc.nat(),
      count: fc.integer({ min: 1, max: 3 }),
    }),
  );
}

let nextId = 0;

/** New model lines of `contents`. */
export function modelLines(contents: readonly string[]): ModelLine[] {
  return contents.map((content) => ({ id: nextId++, content }));
}

/** The model file after `o`: positions are taken modulo the file's length. */
export function applyModelOp(lines: readonly ModelLine[], o: ModelOp): ModelLine[] {
  const out = lines.slice();
  if (o.kind === 'insert') {
    out.splice(o.at % (lines.length + 1), 0, ...modelLines(o.lines));
  } else if (lines.length > 0 && o.kind === 'delete') {
    out.splice(o.at % lines.length, o.count);
  } else if (lines.length > 0 && o.kind === 'change') {
    const at = o.at % lines.length;
    if (out[at]!.content !== o.content) out[at] = modelLines([o.content])[0]!;
  } else if (lines.length > 0 && o.kind === 'move') {
    // Lines moved unchanged (a block cut and pasted) are the same lines; moved among lines equal
    // to them, they change nothing.
    const moved = out.splice(o.at % lines.length, o.count ?? 1);
    out.splice(o.to % (out.length + 1), 0, ...moved);
    if (out.every((l, i) => l.content === lines[i]!.content)) return lines.slice();
  }
  return out;
}
