// An open-addressing table keyed by line fingerprints (h1, h2). It hands out slot numbers;
// callers keep their values in typed arrays indexed by slot. Cheap at a million lines, where a
// Map of objects is not.

export class FingerprintTable {
  private readonly h1: Uint32Array;
  private readonly h2: Uint32Array;
  private readonly used: Uint8Array;
  private readonly mask: number;

  /** `entries`: the most distinct fingerprints it will hold. */
  constructor(entries: number) {
    let capacity = 64;
    while (capacity < entries * 2) capacity *= 2;
    this.h1 = new Uint32Array(capacity);
    this.h2 = new Uint32Array(capacity);
    this.used = new Uint8Array(capacity);
    this.mask = capacity - 1;
  }

  get capacity(): number {
    return this.used.length;
  }

  /** The slot of (h1, h2), claimed for it if new. */
  slot(h1: number, h2: number): number {
    let s = (h1 ^ Math.imul(h2, 0x9e3779b1)) & this.mask;
    while (this.used[s] && (this.h1[s] !== h1 || this.h2[s] !== h2)) s = (s + 1) & this.mask;
    if (!this.used[s]) {
      this.used[s] = 1;
      this.h1[s] = h1;
      this.h2[s] = h2;
    }
    return s;
  }

  /** The slot of (h1, h2), or -1 when absent. */
  find(h1: number, h2: number): number {
    let s = (h1 ^ Math.imul(h2, 0x9e3779b1)) & this.mask;
    while (this.used[s]) {
      if (this.h1[s] === h1 && this.h2[s] === h2) return s;
      s = (s + 1) & this.mask;
    }
    return -1;
  }
}

/**
 * How often the contents of chosen lines occur in whole files, saturating at 2: a table of those
 * contents, and a bitmap of their first hashes that lets most lines of a big file be passed over
 * at one look. A few contents are counted over a million lines in a few milliseconds.
 */
export class ContentCounts {
  private readonly table: FingerprintTable;
  private readonly filter = new Uint32Array(2048);

  /** The contents of lines `at` of `lines`. */
  constructor(lines: { readonly h1: Uint32Array; readonly h2: Uint32Array }, at: readonly number[], size: number) {
    this.table = new FingerprintTable(size);
    for (const i of at) {
      const h1 = lines.h1[i]!;
      this.table.slot(h1, lines.h2[i]!);
      this.filter[(h1 >>> 5) & 2047]! |= 1 << (h1 & 31);
    }
  }

  /** The slot of a content of the table, or -1. */
  slotOf(h1: number, h2: number): number {
    return this.table.find(h1, h2);
  }

  get capacity(): number {
    return this.table.capacity;
  }

  /** How many lines of `lines` hold each content of the table (by slot, saturating at 2). */
  countIn(lines: { readonly h1: Uint32Array; readonly h2: Uint32Array }): Uint8Array {
    const counts = new Uint8Array(this.table.capacity);
    const { h1, h2 } = lines;
    for (let i = 0; i < h1.length; i++) {
      const x = h1[i]!;
      if ((this.filter[(x >>> 5) & 2047]! & (1 << (x & 31))) === 0) continue;
      const slot = this.table.find(x, h2[i]!);
      if (slot >= 0 && counts[slot]! < 2) counts[slot]!++;
    }
    return counts;
  }
}
