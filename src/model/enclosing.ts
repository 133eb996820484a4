// The definitions that enclose a search's hits (grep --function, --function-context): from a
// file's outline where rt has its grammar, else by git grep's own rule for a function line (one
// that starts with a letter, "_" or "$"), which needs nothing but the lines.

/** A definition as the enclosing one of hits: its lines, 1-based. */
export interface Enclosure {
  /** The line it is listed by (its `def`/`class`/`function` line; a heading). */
  readonly line: number;
  /** Its first line (decorators, attributes, doc comment included) and its last. */
  readonly startLine: number;
  readonly endLine: number;
  /** Its kind and qualified name, from an outline; none for git grep's rule. */
  readonly kind?: string;
  readonly name?: string;
}

/** How a file's definitions were found: from its outline, or by git grep's rule. */
export type EnclosedBy = 'outline' | 'heuristic';

/**
 * What --function prints before a hit on line `hit`: the innermost definition whose listed line
 * is above it and whose range holds it (a hit on a method's own line is enclosed by its class).
 */
export function headingOf(definitions: readonly Enclosure[], hit: number): Enclosure | undefined {
  let best: Enclosure | undefined;
  for (const d of definitions)
    if (
      d.line < hit &&
      hit <= d.endLine &&
      (!best || d.line > best.line || (d.line === best.line && d.endLine < best.endLine))
    )
      best = d;
  return best;
}

/** By git grep's rule: the nearest function line above line `hit`, whatever lies between. */
export function functionLineAbove(definitions: readonly Enclosure[], hit: number): Enclosure | undefined {
  let best: Enclosure | undefined;
  for (const d of definitions) if (d.line < hit && (!best || d.line > best.line)) best = d;
  return best;
}

/**
 * What --function-context prints around a hit on line `hit`: the innermost definition whose
 * range holds it, its first line included (a hit on a function's own line shows that function).
 */
export function bodyOf(definitions: readonly Enclosure[], hit: number): Enclosure | undefined {
  let best: Enclosure | undefined;
  for (const d of definitions)
    if (
      d.startLine <= hit &&
      hit <= d.endLine &&
      (!best || d.startLine > best.startLine || (d.startLine === best.startLine && d.endLine < best.endLine))
    )
      best = d;
  return best;
}

/**
 * Definitions by git grep's rule where rt has no grammar: every line that starts with a letter,
 * "_" or "$" is a function line, and a function runs to the line before the next one (or the end
 * of the file). `contents`: every line of the file, without its line ending (nor a BOM).
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
 * The lines --function (or, with `body`, --function-context) adds to a file's hits (0-based,
 * ascending): the spans to print, [from, to), and the line each definition is listed by, to be
 * marked as such.
 */
export function enclosingLines(
  definitions: readonly Enclosure[],
  by: EnclosedBy,
  hits: readonly number[],
  body: boolean,
): { spans: Array<[number, number]>; listed: Map<number, Enclosure> } {
  const spans: Array<[number, number]> = [];
  const listed = new Map<number, Enclosure>();
  for (const hit of hits) {
    const d = body
      ? bodyOf(definitions, hit + 1)
      : by === 'heuristic'
        ? functionLineAbove(definitions, hit + 1)
        : headingOf(definitions, hit + 1);
    if (!d) continue;
    spans.push(body ? [d.startLine - 1, d.endLine] : [d.line - 1, d.line]);
    listed.set(d.line - 1, d);
  }
  return { spans, listed };
}
