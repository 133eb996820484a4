// Where a search's hits go: the one sink every search reports through, in this order for each
// file with hits: begin, its lines (hits and their context, ascending), finish. Printers
// implement it (text, --json, counts), so that every search prints the same way.

import type { EnclosedBy } from '../model/enclosing.js';
import type { ResolvedPath } from '../store/root.js';
import type { Candidate } from './candidates.js';
import type { MatchRange } from './match.js';

/** A file reported: as listed, and (when its lines are reported) resolved, for its saved state. */
export interface ReportedFile extends Candidate {
  readonly resolved?: ResolvedPath;
}

/** A line reported, with the LID `rt open` shows for it. */
export interface FoundLine {
  /** 1-based. */
  readonly n: number;
  readonly lid: string;
  /** Without its line ending (nor, on line 1, a BOM). */
  readonly content: Buffer;
  /** A hit's matches that show (coloured, cut around, or printed alone with -o); none for context. */
  readonly marks: readonly MatchRange[];
  /**
   * With --function (or --function-context), on a line of context: it is the line a definition
   * enclosing hits is listed by, found from the file's outline or by git grep's rule.
   */
  readonly definition?: { readonly by: EnclosedBy; readonly kind?: string; readonly name?: string };
}

export interface SearchSink {
  /** A file with hits begins. */
  begin(file: ReportedFile): void;
  /** A hit. */
  matched(line: FoundLine): void;
  /** A line of context around hits (or of a definition enclosing them: see FoundLine.definition). */
  context(line: FoundLine): void;
  /** The file's lines are all reported; `found` is how many hits it holds (with -c -o, matches). */
  finish(file: ReportedFile, found: number): void;
}
