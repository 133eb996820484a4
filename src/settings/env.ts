// Every RT_* variable rt reads, read here and only here, into one typed object (a test keeps
// it so). A leaf: every room may import it, and it imports nothing but the error type.
//
// One rule for every switch: unset or empty, a variable has its default; 0, false, no or off
// (in any case) turn it off; any other value turns it on. Every variable that takes a value
// reads an empty value as unset too.

import { RtError } from '../model/errors.js';

/** The longest session name (RT_SESSION). */
const SESSION_MAX = 64;

const OFF = new Set(['0', 'false', 'no', 'off']);

/** A switch's setting under the one rule: `fallback` when unset or empty. */
export function switchOf(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !OFF.has(value.toLowerCase());
}

/** A value's setting: undefined when unset or empty. */
function valueOf(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}

/**
 * What the environment sets, read once. RT_WINDOW and RT_SESSION are checked where they are
 * first used (a bad one is refused by the commands that read it, and only by those).
 */
export class Settings {
  /** RT_ROOT: the root, as --root. */
  readonly root: string | undefined;
  /** RT_DIFF: edits also print a unified diff, as --diff. */
  readonly diff: boolean;
  /** RT_READONLY: every command that would write a file is refused (--dry-run still works). */
  readonly readOnly: boolean;
  /** RT_STATE (on by default): off keeps no state in .rt/. */
  readonly state: boolean;
  /** RT_CHECK (on by default): off writes without the syntax check, as --no-check. */
  readonly check: boolean;
  /** RT_INDENT: auto shifts new lines to the indentation around them, as --indent auto; anything else keeps them. */
  readonly indent: 'auto' | 'keep';
  /** RT_RIPGREP (on by default): off never runs ripgrep. */
  readonly ripgrep: boolean;
  /** RT_GIT_GREP (on by default): off never runs git grep. */
  readonly gitGrep: boolean;
  /** RT_DEBUG: errors are printed with their stack traces. */
  readonly debug: boolean;

  private readonly windowText: string | undefined;
  private readonly sessionText: string | undefined;

  /** The whole environment, as the programs rt runs are given it (PATH, HOME). */
  readonly env: NodeJS.ProcessEnv;

  constructor(env: NodeJS.ProcessEnv) {
    this.env = env;
    this.root = valueOf(env.RT_ROOT);
    this.diff = switchOf(env.RT_DIFF, false);
    this.readOnly = switchOf(env.RT_READONLY, false);
    this.state = switchOf(env.RT_STATE, true);
    this.check = switchOf(env.RT_CHECK, true);
    this.indent = env.RT_INDENT === 'auto' ? 'auto' : 'keep';
    this.ripgrep = switchOf(env.RT_RIPGREP, true);
    this.gitGrep = switchOf(env.RT_GIT_GREP, true);
    this.debug = switchOf(env.RT_DEBUG, false);
    this.windowText = valueOf(env.RT_WINDOW);
    this.sessionText = valueOf(env.RT_SESSION);
  }

  /** RT_WINDOW: lines per window when --window is not given; undefined when unset. */
  get window(): number | undefined {
    return this.windowText === undefined ? undefined : positiveInt(this.windowText, 'RT_WINDOW');
  }

  /**
   * The session RT_SESSION names: each agent of several in one root its own view state (what
   * counts as shown, the last window) and, with it, its own undo; undefined (unset or empty)
   * for the one shared session. A name is letters, digits, '.', '_' and '-', at most 64 (it
   * becomes part of file names); anything else is refused (exit 2).
   */
  get session(): string | undefined {
    const name = this.sessionText;
    if (name === undefined) return undefined;
    if (name.length > SESSION_MAX || !/^[A-Za-z0-9._-]+$/.test(name) || name === '.' || name === '..') {
      throw new RtError(
        'usage',
        "RT_SESSION must be a name of letters, digits, '.', '_' and '-', " +
          `at most ${SESSION_MAX} characters: ${JSON.stringify(name.slice(0, 80))}`,
        ['e.g. RT_SESSION=agent-1'],
      );
    }
    return name;
  }

  /** These settings, with RT_SESSION set to `session()` where it is unset or empty (rt mcp: a session a connection). */
  withSession(session: () => string): Settings {
    return this.sessionText === undefined ? new Settings({ ...this.env, RT_SESSION: session() }) : this;
  }
}

/** The settings of an environment (`process.env`, or the one a test or rt mcp gives). */
export function readSettings(env: NodeJS.ProcessEnv): Settings {
  return new Settings(env);
}

/** A whole number of `counting` from `text`, else bad usage naming `what` (an option or RT_WINDOW). */
export function positiveInt(text: string, what: string, counting = 'lines, 1 or more'): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1) {
    throw new RtError('usage', `${what} takes a whole number of ${counting} (got ${JSON.stringify(text)})`, [
      `e.g. ${what === 'RT_WINDOW' ? 'RT_WINDOW=100' : `${what} 100`}`,
    ]);
  }
  return n;
}
