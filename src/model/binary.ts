// Binary detection (rt reads text files only): a NUL byte in the first 8 KiB, or mostly non-text there.

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
  // Counted by a regular expression over the bytes as Latin-1 (one character a byte): far less
  // work than a loop in a program that runs once, and the files searched are sniffed each.
  const control = head.toString('latin1', 0, n).match(CONTROL)?.length ?? 0;
  return n > 0 && control * 3 > n;
}

/**
 * Control bytes that text does not use: all below 0x20 but backspace, tab, LF, VT, FF, CR and ESC, which occur in real
 * text files.
 */
const CONTROL = /[\x00-\x07\x0e-\x1a\x1c-\x1f]/g;
