// Where a place in a line's decoded text lies in its bytes. rt matches regular expressions on
// text (bytes.toString('utf8'), where bytes that are not UTF-8 read as U+FFFD) but prints and
// reports bytes: a match found at UTF-16 offset 7 of the text must be cut from the right byte.

/**
 * The byte offsets in `bytes` of the UTF-16 offsets `at` (ascending) of `bytes.toString('utf8')`:
 * where the bytes of the character starting there begin. The bytes are decoded as Node decodes
 * them (the WHATWG decoder: one U+FFFD for each maximal part of an invalid sequence), so the
 * offsets are exact in text that is not UTF-8 too. An offset inside a character (between the
 * two halves of a surrogate pair) is taken to its end; one past the text, to the end of `bytes`.
 */
export function byteOffsets(bytes: Buffer, at: readonly number[]): number[] {
  const out: number[] = [];
  let k = 0;
  let units = 0;
  /** A decoded character of `width` UTF-16 units from the bytes [from, to): the offsets it holds. */
  const character = (from: number, to: number, width: number): void => {
    for (; k < at.length && at[k]! < units + width; k++) out.push(at[k]! <= units ? from : to);
    units += width;
  };
  let needed = 0;
  let seen = 0;
  let lower = 0x80;
  let upper = 0xbf;
  let start = 0;
  for (let i = 0; i < bytes.length && k < at.length; i++) {
    const b = bytes[i]!;
    if (needed === 0) {
      if (b <= 0x7f) character(i, i + 1, 1);
      else if (b >= 0xc2 && b <= 0xdf) [needed, start] = [1, i];
      else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
        [needed, start] = [2, i];
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
        [needed, start] = [3, i];
      } else character(i, i + 1, 1);
      continue;
    }
    if (b < lower || b > upper) {
      // The sequence ends before this byte, as one U+FFFD; the byte starts afresh.
      character(start, i, 1);
      [needed, seen, lower, upper] = [0, 0, 0x80, 0xbf];
      i--;
      continue;
    }
    [lower, upper] = [0x80, 0xbf];
    if (++seen === needed) {
      // Four bytes make a character past U+FFFF: a surrogate pair.
      character(start, i + 1, needed === 3 ? 2 : 1);
      [needed, seen] = [0, 0];
    }
  }
  if (needed > 0) character(start, bytes.length, 1);
  for (; k < at.length; k++) out.push(bytes.length);
  return out;
}
