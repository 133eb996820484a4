// Binary detection (SPEC §4): a NUL byte in the first 8 KiB, or mostly non-text there.

export const SNIFF_BYTES = 8192;

/** Bytes whose share of control characters decides "mostly non-text". */
export const RATIO_BYTES = 1024;

/**
 * True when `head` (the first bytes of a file) looks binary: a NUL byte in its first 8 KiB, or
 * more than a third of its first 1 KiB control bytes that text does not use. Bytes >= 0x80 count
 * as text, so Latin-1 and other non-UTF-8 text files are still text.
 */
export function looksBinary(head: Buffer): boolean {
  const sniff = head.length > SNIFF_BYTES ? head.subarray(0, SNIFF_BYTES) : head;
  if (sniff.indexOf(0) !== -1) return true;
  const n = Math.min(head.length, RATIO_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i]!;
    // Tab, LF, VT, FF, CR, ESC and backspace occur in real text files.
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b && b !== 0x08) {
      control++;
    }
  }
  return n > 0 && control * 3 > n;
}
