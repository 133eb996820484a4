// The one error type of rt. Every failure is an RtError with a code; its exit status and its
// place in `--json` output follow from the code alone (see exitStatusFor), in this one place.

export type ErrorCode =
  | 'usage' // bad command line
  | 'input' // bad input: an invalid range, a line past the end, empty stdin
  | 'stale' // an anchor no longer names what was shown
  | 'unshown' // a range covers lines never shown
  | 'exists' // the target exists already
  | 'not_found' // a missing file
  | 'no_definition' // no definition has the name a write gives (PATH:@NAME)
  | 'binary' // a binary file where text is needed
  | 'outside_root' // a path that resolves outside the root
  | 'access' // permission or I/O failure
  | 'syntax'; // the change would leave a file with a syntax error it did not have

const EXIT_BY_CODE: Record<ErrorCode, number> = {
  usage: 2,
  input: 2,
  stale: 3,
  unshown: 3,
  exists: 3,
  no_definition: 1,
  not_found: 4,
  binary: 4,
  outside_root: 4,
  access: 4,
  syntax: 5,
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

  /** The refusal as stderr says it: the message, then each hint, on `rt: ` lines. */
  get lines(): string {
    return [this.message, ...this.hints].map((line) => `rt: ${line}\n`).join('');
  }

  /** The refusal as --json gives it: {"error": {code, message, hints, exit, …details}}. */
  get document(): { error: Record<string, unknown> } {
    return {
      error: { code: this.code, message: this.message, hints: this.hints, exit: this.exitStatus, ...this.details },
    };
  }
}

/**
 * Quotes an argument for a shell command shown to the user, only when it needs it. Text holding
 * control characters (a newline in a file name) is written in bash's ANSI-C quoting, $'new\nline.txt',
 * the one form in which such a name can be pasted; so is a path printable() escaped for display
 * (new\x0aline.txt), found in `arg` and quoted as the name it stands for.
 */
export function shellQuote(arg: string): string {
  const real = unescapedPaths(arg);
  // A value spelled like a usage placeholder (a file named PATH) is quoted: it is no placeholder.
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(real) && !/^[A-Z][A-Z_]*$/.test(real)) return real;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(real)) return `$'${real.replace(/[\\'\x00-\x1f\x7f]/g, ansiC)}'`;
  return `'${real.replace(/'/g, `'\\''`)}'`;
}

/**
 * A path (or PATH:LINE…) quoted for a command rt suggests: as shellQuote does, and with ./ before
 * one that begins with a dash, which the command would read as an option (-i.ts).
 */
export function quotePath(path: string): string {
  return shellQuote(path.startsWith('-') ? `./${path}` : path);
}

/** One character escaped inside $'…'. */
function ansiC(c: string): string {
  const named: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\t': '\\t', '\r': '\\r' };
  return named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/**
 * Texts printable() escaped in this run, by their escaped form: paths, which messages show
 * escaped and commands must name as they are. Few (the paths of one command's output).
 */
const escapedTexts = new Map<string, string>();

/** `arg` with every escaped text printable() made in this run given back as it was (longest first). */
function unescapedPaths(arg: string): string {
  if (escapedTexts.size === 0 || !arg.includes('\\x')) return arg;
  let out = arg;
  for (const [shown, real] of [...escapedTexts].sort((x, y) => y[0].length - x[0].length))
    if (out.includes(shown)) out = out.split(shown).join(real);
  return out;
}

/**
 * A path as shown in output: control characters (a newline in a file name) escaped as \xNN, so one path stays one line.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/[\x00-\x1f\x7f]/.test(text)) return text;
  // eslint-disable-next-line no-control-regex
  const shown = text.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  escapedTexts.set(shown, text);
  return shown;
}
