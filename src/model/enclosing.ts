// The definitions that enclose a search's hits (grep --function, --function-context): from a
// file's outline where rt has its grammar, else (and for a hit no definition of the outline
// holds) by git grep's own rule for a function line (one that starts with a letter, "_" or "$"),
// which needs nothing but the lines.

/** A definition as the enclosing one of hits: its lines, 1-based. */
export interface Enclosure {
  /** The line it is listed by (its `def`/`class`/`function` line; a heading). */
  readonly line: number;
  /** Its first line (decorators, attributes, doc comment included) and its last. */
  readonly startLine: number;
  readonly endLine: number;
  /**
   * Where it joins several parts (overload signatures and their implementation, a getter and its
   * setter): the line each part after the first is listed by, ascending.
   */
  readonly parts?: readonly number[];
  /** Its kind and qualified name, from an outline; none for git grep's rule. */
  readonly kind?: string;
  readonly name?: string;
}

/** How a definition was found: from the file's outline, or by git grep's rule. */
export type EnclosedBy = 'outline' | 'heuristic';

/**
 * Definitions by git grep's rule: every line that starts with a letter, "_" or "$" is a
 * function line, and a function runs to the line before the next one (or the end of the file).
 * `contents`: every line of the file, without its line ending (nor a BOM).
 */
export function functionLines(contents: readonly Uint8Array[]): Enclosure[] {
  const starts: number[] = [];
  for (let i = 0; i < contents.length; i++) if (startsFunction(contents[i]!)) starts.push(i + 1);
  return starts.map((line, k) => ({ line, startLine: line, endLine: (starts[k + 1] ?? contents.length + 1) - 1 }));
}

function startsFunction(line: Uint8Array): boolean {
  const c = line[0];
  if (c === undefined) return false;
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24;
}

/**
 * For each line 1..total, the innermost of `definitions` that holds it: with `heading`, below the
 * line it is listed by (what --function prints: a hit on a method's own line is enclosed by its
 * class); else from its first line on (what --function-context prints). Painted outer first, so
 * that an inner one overwrites its lines: work in proportion to the lines times the nesting.
 */
export function innermostAt(
  definitions: readonly Enclosure[],
  total: number,
  heading: boolean,
): Array<Enclosure | undefined> {
  const at = new Array<Enclosure | undefined>(total + 2).fill(undefined);
  const from = (d: Enclosure) => (heading ? d.line + 1 : d.startLine);
  const order = [...definitions].sort((a, b) => from(a) - from(b) || b.endLine - a.endLine);
  for (const d of order) for (let n = Math.max(1, from(d)); n <= Math.min(d.endLine, total); n++) at[n] = d;
  return at;
}

/** The line a definition's part holding line `n` is listed by: its own line, or the last part's above `n`. */
export function partLine(d: Enclosure, n: number, below: boolean): number {
  let line = d.line;
  for (const p of d.parts ?? []) if (below ? p < n : p <= n) line = p;
  return line;
}

/** What a line of a definition that encloses hits is: its definition, and how it was found. */
export interface EnclosingLine {
  readonly definition: Enclosure;
  readonly by: EnclosedBy;
}

/**
 * The lines --function (or, with `body`, --function-context) adds to a file's `hits` (0-based,
 * ascending): the spans to print, [from, to), and the line each definition is listed by, to be
 * marked so. The outline's definitions first (`outline`, when the file has one); for a hit none
 * of them holds, git grep's rule: the nearest function line above it (with `body`, the function
 * it is in).
 */
export function enclosingLines(
  outline: readonly Enclosure[] | undefined,
  contents: readonly Uint8Array[],
  hits: readonly number[],
  body: boolean,
): { spans: Array<[number, number]>; listed: Map<number, EnclosingLine> } {
  const total = contents.length;
  const fromOutline = outline && innermostAt(outline, total, !body);
  let byRule: Array<Enclosure | undefined> | undefined;
  const spans: Array<[number, number]> = [];
  const listed = new Map<number, EnclosingLine>();
  for (const hit of hits) {
    const n = hit + 1;
    let d = fromOutline?.[n];
    const by: EnclosedBy = d ? 'outline' : 'heuristic';
    if (!d) {
      // By git grep's rule: -p takes the function line strictly above (even for a hit on one).
      byRule ??= body ? innermostAt(functionLines(contents), total, false) : aboveAt(functionLines(contents), total);
      d = byRule[n];
    }
    if (!d) continue;
    const line = partLine(d, n, !body);
    spans.push(body ? [d.startLine - 1, d.endLine] : [line - 1, line]);
    listed.set(line - 1, { definition: d, by });
  }
  return { spans, listed };
}

/** For each line 1..total, the nearest of `lines` (function lines) strictly above it. */
function aboveAt(lines: readonly Enclosure[], total: number): Array<Enclosure | undefined> {
  const at = new Array<Enclosure | undefined>(total + 2).fill(undefined);
  let k = -1;
  for (let n = 1; n <= total + 1; n++) {
    while (k + 1 < lines.length && lines[k + 1]!.line < n) k++;
    at[n] = k >= 0 ? lines[k] : undefined;
  }
  return at;
}
