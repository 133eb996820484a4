// A map from 32-bit unsigned integers to 32-bit signed ones, in typed arrays (open addressing):
// some 10 bytes an entry, where a Map of numbers takes 50 or more of the JavaScript heap. Fresh
// LIDs of a million lines settle some 60,000 clashes with three of them (see assignByKeys).

export class IntMap {
  private keys: Uint32Array;
  private values: Int32Array;
  private used: Uint8Array;
  private count = 0;

  constructor(expected = 8) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.keys = new Uint32Array(capacity);
    this.values = new Int32Array(capacity);
    this.used = new Uint8Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  get(key: number): number | undefined {
    const slot = this.find(key >>> 0);
    return this.used[slot] ? this.values[slot] : undefined;
  }

  set(key: number, value: number): void {
    const k = key >>> 0;
    let slot = this.find(k);
    if (!this.used[slot]) {
      if ((this.count + 1) * 2 > this.keys.length) {
        this.grow();
        slot = this.find(k);
      }
      this.used[slot] = 1;
      this.keys[slot] = k;
      this.count++;
    }
    this.values[slot] = value;
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  private find(key: number): number {
    const mask = this.keys.length - 1;
    let slot = spread(key) & mask;
    while (this.used[slot] && this.keys[slot] !== key) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const { keys, values, used } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.values = new Int32Array(keys.length * 2);
    this.used = new Uint8Array(keys.length * 2);
    this.count = 0;
    for (let i = 0; i < keys.length; i++) if (used[i]) this.set(keys[i]!, values[i]!);
  }
}

/** A 32-bit key's bits spread over a table's slots (a table of LID codes uses it too: lid.ts). */
export function spread(key: number): number {
  let x = Math.imul(key ^ (key >>> 16), 0x45d9f3b);
  x ^= x >>> 16;
  return x;
}
