// The engines of a search (see engine.ts): each starts its program, if any, and tells each
// file's hit lines. ripgrep runs while git lists what it tracks; git grep only when ripgrep did
// not answer; PCRE once the files are known.

import { BOM, hasBom } from '../model/lines.js';
import type { Candidate } from './candidates.js';
import type { SearchEngine, EnginePlan, Tracked } from './engine.js';
import { gitGrepLines } from './gitGrep.js';
import { trackedFiles } from './listFiles.js';
import { knownLinesMatcher, matchesLine, matchingAmong, type LineMatcher } from './match.js';
import { pcreLines } from './pcreSearch.js';
import type { SearchQuery } from './query.js';
import { ripgrepCandidates, ripgrepLines, type PrefilterAnswer } from './ripgrep.js';
import { pcrePattern } from './ripgrepPattern.js';
import { bomLengthOf, isFileNotFollowed, isSearchable, lastByteIs, readSearchable } from './searchable.js';
import type { Settings } from '../settings/env.js';

/** rt's own matcher: it reads every file and matches its pattern in it. */
export function ownEngine(matcher: LineMatcher): SearchEngine {
  return {
    kind: 'own',
    undecodable: [],
    hitsIn: (abs, limit) => matchedIn(matcher, abs, limit),
    linesRead: () => undefined,
  };
}

function matchedIn(matcher: LineMatcher, abs: string, limit: number): number[] {
  const bytes = readSearchable(abs);
  return bytes ? matcher.matchingLines(bytes, bomLengthOf(bytes), limit) : [];
}

/**
 * The prefilter among `plan.kinds` that answers first (ripgrep, then git grep), with the lines
 * or files it found; undefined when none does: rt then reads every file itself.
 */
export async function prefilterEngine(
  plan: EnginePlan,
  matcher: LineMatcher,
  settings: Settings,
  knownText: (abs: string) => boolean = () => false,
): Promise<SearchEngine | undefined> {
  // A file found is searched if rt reads it as text: known so from its saved index, else by a look at its first bytes.
  const textNow = (abs: string) => knownText(abs) || isSearchable(abs);
  for (const kind of plan.kinds) {
    const engine =
      kind === 'ripgrep-lines' || kind === 'ripgrep-files'
        ? await ripgrepEngine(kind, plan, matcher, settings, textNow)
        : kind === 'git-grep'
          ? await gitGrepEngine(plan, matcher, settings, textNow)
          : undefined;
    if (engine) return engine;
  }
  return undefined;
}

/**
 * ripgrep: for a plain literal it finds the very lines (with -l, the files); otherwise the lines
 * its translation of the expression matches, in which rt matches the pattern itself (reading
 * only the files it prints). What git tracks is read from its index meanwhile (no look at the
 * work tree), to tell which files ripgrep found git would list: far less than listing a large
 * tree while ripgrep needs both cores. Outside git (told without starting it), the files ripgrep
 * found are checked against the walk's rules folder by folder (listedAmong), which beat walking
 * the whole tree while ripgrep runs: 80 ms against 92 for the bench's folder of npm packages.
 */
async function ripgrepEngine(
  kind: 'ripgrep-lines' | 'ripgrep-files',
  plan: EnginePlan,
  matcher: LineMatcher,
  settings: Settings,
  textNow: (abs: string) => boolean,
): Promise<SearchEngine | undefined> {
  const request = plan.ripgrep!;
  if (kind === 'ripgrep-files') {
    const filesRun = ripgrepCandidates(request, settings);
    const trackedRun = Promise.all(request.dirs.map(trackedFiles));
    const files = await filesRun;
    if (!files) return undefined;
    const only = new Set([...files.found, ...files.unanswered]);
    return {
      kind,
      narrowed: { only, tracked: await trackedRun },
      undecodable: files.undecodable ?? [],
      // ripgrep said the file holds the literal, so a line of it does (the literal has no line
      // ending, nor a BOM): one line stands for them, as only whether there are hits is asked.
      hitsIn: (abs, limit) =>
        files.found.has(abs) && !files.unanswered.has(abs) ? (textNow(abs) ? [0] : []) : matchedIn(matcher, abs, limit),
      linesRead: () => undefined,
    };
  }
  // The lines themselves when rt is to match its pattern in them: it then reads only the files it
  // prints. For a plain literal they are the hits, printed as ripgrep read them when the files'
  // indexes hold them so (not with -c, which prints no line).
  const linesRun = ripgrepLines(request, settings, !plan.exact ? 'match' : plan.counting ? 'none' : 'print');
  if (!linesRun) return undefined;
  const trackedRun = Promise.all(request.dirs.map(trackedFiles));
  const answer = await linesRun;
  if (!answer) return undefined;
  return linesEngine('ripgrep-lines', answer, await trackedRun, plan.exact, matcher, textNow);
}

/** git grep, in a work tree, finds the lines holding the literal texts every match holds. */
async function gitGrepEngine(
  plan: EnginePlan,
  matcher: LineMatcher,
  settings: Settings,
  textNow: (abs: string) => boolean,
): Promise<SearchEngine | undefined> {
  const { required, regexSource } = plan.gitGrep!;
  const found = await gitGrepLines(
    {
      required,
      ignoreCase: plan.ignoreCase,
      dirs: plan.dirs!,
      pcre: regexSource === undefined ? undefined : pcrePattern(regexSource, plan.ignoreCase)?.regex,
    },
    settings,
  );
  // (What git lists: tracked files and untracked ones not ignored.)
  return found && linesEngine('git-grep', found.answer, found.listed, false, matcher, textNow);
}

/** An engine from a prefilter's lines: `exact` when they are the hits, else the only lines that may be. */
function linesEngine(
  kind: 'ripgrep-lines' | 'git-grep',
  answer: PrefilterAnswer<Map<string, number[]>>,
  tracked: Tracked,
  exact: boolean,
  matcher: LineMatcher,
  textNow: (abs: string) => boolean,
): SearchEngine {
  const { found, unanswered, contents } = answer;
  return {
    kind,
    narrowed: { only: new Set([...found.keys(), ...unanswered]), tracked },
    undecodable: answer.undecodable ?? [],
    hitsIn(abs, limit) {
      const known = !unanswered.has(abs) ? found.get(abs) : undefined;
      if (!known) return matchedIn(matcher, abs, limit);
      if (exact) return textNow(abs) ? known.map((n) => n - 1) : [];
      const lines = contents?.get(abs);
      const verified = lines && textNow(abs) ? matchingLinesRead(matcher, abs, lines) : undefined;
      if (verified) return verified;
      const bytes = readSearchable(abs);
      return bytes
        ? matchingAmong(
            matcher,
            bytes,
            bomLengthOf(bytes),
            known.map((n) => n - 1),
          )
        : [];
    },
    linesRead: (abs) => (unanswered.has(abs) ? undefined : contents?.get(abs)),
  };
}

/**
 * -P: ripgrep matches PCRE2 in the files rt chose, and rt's matcher knows the lines it selected
 * by their content. Only regular files go to ripgrep, which follows a link named on its command
 * line (to a FIFO, where it would wait for ever; to a folder, which it would walk): rt follows none.
 */
export async function pcreEngine(
  files: readonly Candidate[],
  query: SearchQuery,
  settings: Settings,
  warn: (message: string) => void,
): Promise<{ engine: SearchEngine; matcher: LineMatcher }> {
  const plain = files.filter((f) => isFileNotFollowed(f.abs));
  const shown = new Map(plain.map((f) => [f.abs, f.display]));
  const matcher = await pcreMatcher(
    plain.map((f) => f.abs),
    query,
    settings,
    (abs) => shown.get(abs) ?? abs,
    warn,
  );
  return { engine: { ...ownEngine(matcher), kind: 'pcre' }, matcher };
}

/**
 * A matcher that knows the lines of `files` (absolute paths, shown as `display` gives them)
 * ripgrep's PCRE2 selects; what ripgrep says of files it could not search to the end goes to `warn`.
 */
export async function pcreMatcher(
  files: readonly string[],
  query: SearchQuery,
  settings: Settings,
  display: (abs: string) => string,
  warn: (message: string) => void,
): Promise<LineMatcher> {
  const found = await pcreLines(files, query, settings, display);
  for (const problem of found.problems) warn(`ripgrep: ${problem}`);
  return knownLinesMatcher(found.lines);
}

/**
 * The 0-based numbers of the lines (1-based numbers to the bytes of each, as the prefilter read them,
 * without the \n) that match, taken as rt takes a line's content: without a BOM on line 1, nor
 * the \r of a CRLF ending. Undefined when that cannot be told from the line alone: one ending in
 * \r, in a file whose last byte is \r, may be the last line, without \n (whose \r is content).
 */
export function matchingLinesRead(
  matcher: LineMatcher,
  abs: string,
  lines: ReadonlyMap<number, Buffer>,
): number[] | undefined {
  const out: number[] = [];
  let endsInCr: boolean | undefined;
  for (const [n, line] of [...lines].sort((a, b) => a[0] - b[0])) {
    let content = n === 1 && hasBom(line) ? line.subarray(BOM.length) : line;
    if (content[content.length - 1] === 0x0d) {
      endsInCr ??= lastByteIs(abs, 0x0d);
      if (endsInCr) return undefined;
      content = content.subarray(0, -1);
    }
    if (matchesLine(matcher, content)) out.push(n - 1);
  }
  return out;
}
