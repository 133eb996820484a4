// The one error type of rt. Every failure is an RtError with a code; its exit status and its
// place in `--json` output follow from the code alone (see exitStatusFor), in this one place.

export type ErrorCode =
  | 'usage' // bad command line
  | 'input' // bad input: an invalid range, a line past the end, empty stdin
  | 'stale' // an anchor no longer names what was shown
  | 'unshown' // a range covers lines never shown
  | 'exists' // the target exists already
  | 'not_found' // a missing file
  | 'binary' // a binary file where text is needed
  | 'outside_root' // a path that resolves outside the root
  | 'access'; // permission or I/O failure

const EXIT_BY_CODE: Record<ErrorCode, number> = {
  usage: 2,
  input: 2,
  stale: 3,
  unshown: 3,
  exists: 3,
  not_found: 4,
  binary: 4,
  outside_root: 4,
  access: 4,
};

export function exitStatusFor(code: ErrorCode): number {
  return EXIT_BY_CODE[code];
}

export class RtError extends Error {
  readonly code: ErrorCode;
  /** Further lines for the user: what to run instead. */
  readonly hints: readonly string[];
  /** Machine-readable details for --json. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, hints: readonly string[] = [], details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'RtError';
    this.code = code;
    this.hints = hints;
    this.details = details;
  }

  get exitStatus(): number {
    return exitStatusFor(this.code);
  }
}

/** Quotes an argument for a shell command shown to the user, only when it needs it. */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** A path as shown in output: control characters (a newline in a file name) escaped as \xNN, so one path stays one line. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\x00-\x1f\x7f]/.test(text) ? text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`) : text;
}
