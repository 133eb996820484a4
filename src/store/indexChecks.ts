// Files a search found whose saved index it checked against their stamp (see trustedIndex): such a
// file is known to be text without a look at its first bytes, and the report of its hits takes
// that check rather than making it again (a file found with no such index is read, not looked up again).

import { trustedIndex, type TrustedIndex } from './indexedFile.js';
import { listedPath, type ResolvedPath, type Root } from './root.js';
import type { StateStore } from './state.js';

/**
 * A search's check of a found file: the file as resolved, and its index that was found to describe it (undefined: it
 * had none that could stand in for reading it).
 */
export interface CheckedFile {
  readonly file: ResolvedPath;
  readonly index: TrustedIndex | undefined;
}

export class IndexChecks {
  private readonly checked = new Map<string, CheckedFile>();

  constructor(
    private readonly world: { readonly root: Root; stateOf(file: { readonly stateRoot: string }): StateStore },
  ) {}

  /** Whether the listed file `abs` is now the very text file its saved index describes. */
  knownText(abs: string): boolean {
    let file: ResolvedPath;
    try {
      file = listedPath(this.world.root, abs, abs);
    } catch {
      return false;
    }
    const trusted = trustedIndex(this.world.stateOf(file), file);
    this.checked.set(abs, { file, index: trusted });
    return trusted !== undefined;
  }

  /** The check knownText made of `abs` (once: a later report checks again). */
  take(abs: string): CheckedFile | undefined {
    const trusted = this.checked.get(abs);
    this.checked.delete(abs);
    return trusted;
  }
}
