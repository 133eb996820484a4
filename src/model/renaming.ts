// Where a name stands in a line, and a line with some of its places renamed. Pure.
//
// A parser gives places as (line, column) in the text it read: the file decoded, its BOM gone,
// bytes that are not UTF-8 each one U+FFFD. The name is valid text, so the k-th time it occurs
// in that decoded line is the k-th time its bytes occur in the line's bytes: a place is carried
// to the bytes by its rank among the name's occurrences, never by converting columns (see Byte
// fidelity).

/** One place of a line to rename: the `rank`-th occurrence of the old name becomes `text`. */
export interface LinePlace {
  readonly rank: number;
  readonly text: string;
}

/** The starts of `name`'s occurrences in `text`, left to right, none overlapping. */
export function occurrences(text: string, name: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + name.length)) found.push(at);
  return found;
}

/** The rank of the occurrence of `name` starting at `column` of `text`; -1 when none starts there. */
export function rankAt(text: string, name: string, column: number): number {
  return occurrences(text, name).indexOf(column);
}

/** The byte offsets of `name`'s occurrences in `content`, left to right, none overlapping. */
export function byteOccurrences(content: Buffer, name: Buffer): number[] {
  const found: number[] = [];
  for (let at = content.indexOf(name); at !== -1; at = content.indexOf(name, at + name.length)) found.push(at);
  return found;
}

/**
 * `content` with the places renamed, `name` occurring in it `count` times as when the places
 * were found; undefined when it does not (the line changed since: nothing may be renamed on it).
 */
export function renameInLine(
  content: Buffer,
  name: string,
  count: number,
  places: readonly LinePlace[],
): Buffer | undefined {
  const bytes = Buffer.from(name);
  const at = byteOccurrences(content, bytes);
  if (at.length !== count) return undefined;
  const sorted = [...places].sort((a, b) => a.rank - b.rank);
  const parts: Buffer[] = [];
  let from = 0;
  for (const place of sorted) {
    const start = at[place.rank];
    if (start === undefined || start < from) return undefined;
    parts.push(content.subarray(from, start), Buffer.from(place.text));
    from = start + bytes.length;
  }
  parts.push(content.subarray(from));
  return Buffer.concat(parts);
}

/** Whether `name` is an identifier as most languages spell one: a letter or _ ($ with `dollar`), then digits too. */
export function isPlainIdentifier(name: string, dollar: boolean): boolean {
  return (
    dollar
      ? /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*$/u
      : /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u
  ).test(name);
}
