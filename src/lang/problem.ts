// A syntax error (a "problem": JavaScript has its own SyntaxError) as rt reports it, whichever parser found it. Pure.

export interface SyntaxProblem {
  /** 1-based line of the file (rt's line numbers: the BOM is no line, `\r\n` ends one line). */
  readonly line: number;
  /** 1-based column, in characters (UTF-16 code units) of that line. */
  readonly column: number;
  /** What is wrong: "missing `)`", "unexpected `}`", "unexpected end of file". */
  readonly message: string;
  /**
   * What the error is, whatever its place, to tell an error the edit made from one that was there
   * and only moved: `missing )`, `unexpected }`. Two errors of one kind at the same (mapped)
   * place are the same error.
   */
  readonly kind: string;
  /** 1-based last line of the text the error covers (= line for a missing token). */
  readonly endLine: number;
  /**
   * Lines [contextStart, contextEnd] (1-based) of the smallest construct around the error that
   * parsed: a missing `}`'s class body, a stray token's statement. An edit inside it may be the
   * cause even when the error is reported lines away.
   */
  readonly contextStart: number;
  readonly contextEnd: number;
}

/** At most this many errors are reported for one file: a file that is all errors says enough with these. */
export const MAX_ERRORS = 50;

/** A token or text as a message shows it: its first line, at most 32 characters, in backquotes. */
export function quoted(text: string): string {
  let shown = text.split('\n', 1)[0]!.trim();
  if (shown.length > 32) shown = `${shown.slice(0, 31)}…`;
  return `\`${shown}\``;
}
