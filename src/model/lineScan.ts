// Small scans over raw bytes shared by matching and reading.

/**
 * The content end (before `\r\n` or `\n`) of the line starting at `start`, and where the next line starts (-1 at the
 * end).
 */
export function lineContentRange(
  bytes: Uint8Array & { indexOf(value: number, from: number): number },
  start: number,
): { contentEnd: number; next: number } {
  const nl = bytes.indexOf(0x0a, start);
  if (nl === -1) return { contentEnd: bytes.length, next: -1 };
  return { contentEnd: nl > start && bytes[nl - 1] === 0x0d ? nl - 1 : nl, next: nl + 1 };
}
