// Anchors: how a command names a line — an LID, a line number, both (`N:LID`), or
// `$`/`end` for the position after the last line. Resolution is pure: it is given what the file
// holds now and what rt showed, and either names one line or refuses with where things are now.

import { RtError, quotePath } from './errors.js';
import { isLidText, lidToString, parseLid } from './lid.js';

export type Anchor =
  | { readonly kind: 'lid'; readonly text: string; readonly lid: string }
  | { readonly kind: 'line'; readonly text: string; readonly line: number }
  | { readonly kind: 'both'; readonly text: string; readonly line: number; readonly lid: string }
  | { readonly kind: 'end'; readonly text: string };

export function parseAnchor(text: string): Anchor {
  const t = text.trim();
  if (t === '$' || t === 'end') return { kind: 'end', text };
  if (/^\d+$/.test(t)) return { kind: 'line', text, line: lineNumber(t, text) };
  const both = /^(\d+):([0-9a-z]+)$/.exec(t);
  if (both && isLidText(both[2]!)) return { kind: 'both', text, line: lineNumber(both[1]!, text), lid: both[2]! };
  if (isLidText(t)) return { kind: 'lid', text, lid: t };
  if (t !== t.toLowerCase() && /^(\d+:)?[0-9a-z]+$/.test(t.toLowerCase())) {
    throw new RtError('usage', `LIDs are lowercase: ${JSON.stringify(t)}`, [`use ${t.toLowerCase()}`]);
  }
  throw new RtError('usage', `not an anchor: ${JSON.stringify(text)}`, [
    'an anchor is an LID (kq3f), a line number (101), both (101:kq3f), or $ for the end',
  ]);
}

function lineNumber(digits: string, text: string): number {
  const n = Number(digits);
  if (n < 1)
    throw new RtError('usage', `line numbers start at 1: ${JSON.stringify(text)}`, [
      'name the line by its LID instead',
    ]);
  // Digits past 2^53 name a line past the end of any file rt reads: they stand at that end.
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}

/** What anchors are resolved against: the file now, and what rt has shown of it. */
export interface AnchorWorld {
  /** Shown path, quoted for commands in messages. */
  readonly display: string;
  readonly total: number;
  /** 0-based line holding LID code, or -1. */
  lineOf(code: number): number;
  /** LID code of 0-based line i. */
  lidCodeAt(i: number): number;
  /** For a retired LID, where its line was right after it changed (1-based); else undefined. */
  retiredLine(code: number): number | undefined;
  /** LIDs shown at a line number since the last window showing it; null when no view state is kept. */
  shownAt(line: number): readonly string[] | null;
  /** --force: a line number never shown (or not checkable) names the line now there. */
  readonly force: boolean;
}

/**
 * The 1-based line an anchor names now; `end` gives total + 1. Refuses (exit 3) an anchor that
 * no longer names the line that was shown, saying where that line is now.
 */
export function resolveAnchor(anchor: Anchor, world: AnchorWorld): number {
  const file = quotePath(world.display);
  switch (anchor.kind) {
    case 'end':
      return world.total + 1;
    case 'lid':
      return lineOfLid(anchor.lid, world, file);
    case 'both': {
      const at = lineOfLid(anchor.lid, world, file);
      if (at !== anchor.line) {
        throw new RtError(
          'stale',
          `${anchor.text} disagrees with the file: ${anchor.lid} is now line ${at}, and line ` +
            `${anchor.line} is ${lidText(world, anchor.line)}`,
          [
            `if you meant the line you saw as ${anchor.lid}, name it ${at}:${anchor.lid} (or just ${anchor.lid})`,
            `see the lines as they are now: rt open ${file}:${anchor.lid}`,
          ],
          { lid: anchor.lid, line: at },
        );
      }
      return at;
    }
    case 'line':
      return lineByNumber(anchor.line, world, file);
  }
}

function lineOfLid(lid: string, world: AnchorWorld, file: string): number {
  const code = parseLid(lid);
  const at = world.lineOf(code);
  if (at >= 0) return at + 1;
  const was = world.retiredLine(code);
  if (was !== undefined) throw retiredError(lid, was, world);
  throw new RtError(
    'stale',
    `no line of ${world.display} has LID ${lid}`,
    [`check the LID, or see the lines of the file: rt open ${file}`],
    { lid },
  );
}

/** A bare line number counts only if it can mean one line alone (see Only shown lines are edited). */
function lineByNumber(line: number, world: AnchorWorld, file: string): number {
  const shown = world.shownAt(line);
  if (line > world.total) {
    if (shown?.length) {
      throw new RtError(
        'stale',
        `line ${line} is past the end of ${world.display} now (${world.total} lines): ` +
          `${shown.map((lid) => describe(lid, world)).join('; ')}`,
        [`see the file as it is now: rt open ${file}`],
        { line, total: world.total },
      );
    }
    throw new RtError(
      'input',
      `line ${line} is past the end of ${world.display} (${world.total} lines)`,
      [world.total ? `see its end: rt open ${file}:${world.total}` : `append with: rt insert ${file} '$' <<'EOF'`],
      { total: world.total },
    );
  }
  const now = lidToString(world.lidCodeAt(line - 1));
  if ((shown === null || shown.length === 0) && world.force) return line;
  if (shown === null) {
    throw new RtError(
      'stale',
      `line number ${line} cannot be checked: no view state is kept (RT_STATE=off or .rt not writable)`,
      [`name the line by LID or as ${line}:${now} after checking it: rt open ${file}:${line}`],
      { line, lid: now },
    );
  }
  if (shown.length === 0) {
    throw new RtError(
      'unshown',
      `line ${line} of ${world.display} has not been shown since it last changed`,
      [`see it first: rt open ${file}:${line}`],
      { line, lid: now },
    );
  }
  if (shown.length > 1) {
    const where = shown.map((lid) => describe(lid, world)).join('; ');
    throw new RtError(
      'stale',
      `line number ${line} is ambiguous: different lines were shown there (${where})`,
      [`name the line you mean by its LID, e.g. ${shown[shown.length - 1]}`],
      { line, shown },
    );
  }
  const lid = shown[0]!;
  if (lid !== now) {
    throw new RtError(
      'stale',
      `line ${line} is not the line shown there: ${describe(lid, world)}; line ${line} is now ${now}`,
      [`name it by its LID (${lid}) if it still exists, or look again: rt open ${file}:${line}`],
      { line, lid },
    );
  }
  return line;
}

/** The refusal of a retired LID, saying what stands where its line was. */
export function retiredError(
  lid: string,
  was: number,
  world: Pick<AnchorWorld, 'display' | 'total' | 'lidCodeAt'>,
): RtError {
  const file = quotePath(world.display);
  if (world.total === 0)
    return new RtError(
      'stale',
      `${lid} is no longer in ${world.display}: its line was deleted (the file is empty now)`,
      [`see it: rt open ${file}`],
      { lid },
    );
  const line = Math.min(Math.max(was, 1), world.total);
  const now = lidToString(world.lidCodeAt(line - 1));
  return new RtError(
    'stale',
    `${lid} is no longer in ${world.display}: its line was changed or deleted since it was ` +
      `shown; line ${line} (${now}) is where it was`,
    [`see the lines there now and take their LIDs: rt open ${quotePath(`${world.display}:${line}`)}`],
    { lid, line, now },
  );
}

function describe(lid: string, world: AnchorWorld): string {
  const at = world.lineOf(parseLid(lid));
  return at >= 0 ? `${lid} is now line ${at + 1}` : `${lid} was changed or deleted`;
}

function lidText(world: AnchorWorld, line: number): string {
  return line >= 1 && line <= world.total ? lidToString(world.lidCodeAt(line - 1)) : 'past the end';
}
