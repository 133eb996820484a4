// Binary detection (SPEC §4): a NUL byte in the first 8 KiB, or mostly non-text there.

export const SNIFF_BYTES = 8192;

/**
 * True when `head` (the first bytes of a file) looks binary: it holds a NUL byte, or more than
 * a third of it is control bytes that text does not use. Bytes >= 0x80 count as text, so
 * Latin-1 and other non-UTF-8 text files are still text.
 */
export function looksBinary(head: Uint8Array): boolean {
  const n = Math.min(head.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i]!;
    if (b === 0) return true;
    // Tab, LF, VT, FF, CR, ESC and backspace occur in real text files.
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b && b !== 0x08) {
      control++;
    }
  }
  return n > 0 && control * 3 > n;
}
