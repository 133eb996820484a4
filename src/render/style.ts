// Colour for people at a terminal; never in a pipe or in JSON. Renderers take a Style and stay
// pure: with PLAIN every function returns its input unchanged.
//
// The codes are the eight basic SGR colours plus bold and dim, written here rather than through
// a colour library: rt uses nothing else, and loading one (with its terminal probing) would cost
// every run start-up time even when, as in every pipe, there is no colour at all.

export interface Style {
  readonly header: (s: string) => string;
  readonly note: (s: string) => string;
  readonly number: (s: string) => string;
  readonly lid: (s: string) => string;
  readonly separator: (s: string) => string;
  readonly path: (s: string) => string;
  readonly added: (s: string) => string;
  readonly removed: (s: string) => string;
  readonly hunk: (s: string) => string;
  readonly verb: (s: string) => string;
  /** A search's match within a line. */
  readonly match: (s: string) => string;
}

const same = (s: string) => s;

export const PLAIN: Style = {
  header: same,
  note: same,
  number: same,
  lid: same,
  separator: same,
  path: same,
  added: same,
  removed: same,
  hunk: same,
  verb: same,
  match: same,
};

/** The style for a colour level (0: none; 1, 2 or 3: the basic colours, which every level has). */
export function styleFor(level: 0 | 1 | 2 | 3): Style {
  if (level === 0) return PLAIN;
  const bold = sgr(1, 22);
  const green = sgr(32, 39);
  return {
    header: bold,
    note: sgr(2, 22),
    number: green,
    lid: sgr(33, 39),
    separator: sgr(2, 22),
    path: sgr(35, 39),
    added: green,
    removed: sgr(31, 39),
    hunk: sgr(36, 39),
    verb: (s) => bold(green(s)),
    // As grep and ripgrep mark a match: bold red.
    match: (s) => bold(sgr(31, 39)(s)),
  };
}

/**
 * Wraps text in an SGR attribute and its reset; where the text already holds that reset (a
 * nested style), the attribute is opened again after it, so nesting reads as expected.
 */
function sgr(open: number, close: number): (s: string) => string {
  const on = `\u001b[${open}m`;
  const off = `\u001b[${close}m`;
  return (s) => (s === '' ? s : `${on}${s.includes(off) ? s.split(off).join(off + on) : s}${off}`);
}

export type ColorChoice = 'auto' | 'always' | 'never';

/**
 * Whether to colour output: --color always/never decides; otherwise NO_COLOR (any non-empty
 * value) turns colour off, FORCE_COLOR (not "0") turns it on, and else only a terminal that is
 * not "dumb" gets colour.
 */
export function colorLevel(choice: ColorChoice, env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): 0 | 1 | 2 | 3 {
  if (choice === 'never') return 0;
  if (choice === 'always') return forcedLevel(env.FORCE_COLOR) || 1;
  if (env.NO_COLOR) return 0;
  if (env.FORCE_COLOR !== undefined) return forcedLevel(env.FORCE_COLOR);
  if (!stdoutIsTTY || env.TERM === 'dumb') return 0;
  return /-256(color)?$/.test(env.TERM ?? '') || env.COLORTERM ? 2 : 1;
}

function forcedLevel(value: string | undefined): 0 | 1 | 2 | 3 {
  if (value === undefined) return 0;
  if (value === '0' || value === 'false') return 0;
  const n = Number(value);
  return n === 2 || n === 3 ? n : 1;
}

/** Bytes wrapped in a style's codes (the bytes themselves are left as they are). */
export function styleBytes(style: (s: string) => string, bytes: Buffer): Buffer {
  const marked = style('\u0000');
  if (marked === '\u0000') return bytes;
  const [open, close] = marked.split('\u0000') as [string, string];
  return Buffer.concat([Buffer.from(open), bytes, Buffer.from(close)]);
}
