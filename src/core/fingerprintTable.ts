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
