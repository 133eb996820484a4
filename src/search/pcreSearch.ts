// grep -P: patterns in PCRE2's dialect, which rt cannot match itself, are matched by ripgrep
// (rg --pcre2), in the files rt chose (named on its command line: ignore rules are rt's own).
// Its JSON output gives each line found, as it read it, with its matches. As ripgrep reads them:
// a UTF-8 byte order mark is not part of line 1; bytes that are not UTF-8 read as U+FFFD (it
// decodes them so for PCRE2, as rt decodes them for JavaScript); $ matches before the \r of a
// CRLF ending (--crlf), and "." any character of the line ((?s) leads each pattern: the lines
// are matched one by one, so it never reaches into the next).

import path from 'node:path';
import { RtError } from '../model/errors.js';
import { childOutput } from '../io/childOutput.js';
import type { Settings } from '../settings/env.js';

export interface PcreRequest {
  readonly patterns: readonly string[];
  readonly ignoreCase: boolean;
  readonly smartCase: boolean;
  readonly word: boolean;
  readonly invert: boolean;
}

export interface PcreFound {
  /**
   * The lines selected, by their content (decoded, as rt takes it: no line ending), with their
   * matches as UTF-16 ranges of it. Matching a line depends on its content alone, so these say
   * of any line whether it is selected (match.ts's knownLinesMatcher).
   */
  readonly lines: ReadonlyMap<string, ReadonlyArray<readonly [number, number]>>;
  /** What ripgrep said of files it could not search to the end (a match limit reached), as "PATH: message". */
  readonly problems: readonly string[];
}

/** The most bytes of file names on one command line of ripgrep (Linux takes 2 MiB of arguments and environment). */
const NAMES_PER_RUN = 256 * 1024;

/**
 * The lines of `files` (absolute paths, shown as `display` gives them) that ripgrep's PCRE2
 * selects. Refused (exit 2) when ripgrep cannot be run, has no PCRE2, or refuses a pattern.
 */
export async function pcreLines(
  files: readonly string[],
  request: PcreRequest,
  settings: Settings,
  display: (abs: string) => string,
): Promise<PcreFound> {
  if (!settings.ripgrep) {
    throw new RtError('usage', '-P matches through ripgrep, which RT_RIPGREP=off turns off', withoutPcre);
  }
  const flags = ['--json', '--pcre2', '--crlf', '--text', '--no-config', '--no-ignore', '--hidden'];
  if (request.ignoreCase) flags.push('--ignore-case');
  else if (request.smartCase) flags.push('--smart-case');
  if (request.word) flags.push('--word-regexp');
  if (request.invert) flags.push('--invert-match');
  // (?s) after the start-of-pattern verbs PCRE2 takes only first, such as (*UCP).
  for (const p of request.patterns) {
    const verbs = /^(?:\(\*[A-Z_]+(?:=[0-9]+)?\))*/.exec(p)![0];
    flags.push('--regexp', `${verbs}(?s)${p.slice(verbs.length)}`);
  }
  flags.push('--');
  const lines = new Map<string, ReadonlyArray<readonly [number, number]>>();
  const problems: string[] = [];
  // With no file, ripgrep reads an empty one: the patterns are checked all the same.
  for (const group of files.length ? namesByRun(files) : [[]]) {
    const r = await childOutput(
      'rg',
      [...flags, ...(group.length ? group : [path.sep === '/' ? '/dev/null' : 'NUL'])],
      { env: { PATH: settings.env.PATH ?? '', HOME: settings.env.HOME ?? '' }, stderr: true },
    );
    if (!r) throw new RtError('usage', '-P matches through ripgrep (rg), which is not installed', withoutPcre);
    const stderr = r.stderr.toString('utf8').trim();
    if (r.status === 2 && /PCRE2 is not available/.test(stderr))
      throw new RtError('usage', 'this ripgrep was built without PCRE2, which -P needs', withoutPcre);
    if (
      r.status !== 0 &&
      r.status !== 1 &&
      (r.stdout.length === 0 || /error compiling pattern|regex parse error/.test(stderr))
    ) {
      throw new RtError(
        'usage',
        `ripgrep refused the pattern: ${stderr.split('\n').find((l) => l.trim() !== '') ?? `exit ${r.status}`}`,
        ['PCRE2 syntax: see pcre2pattern(3); or leave out -P for a JavaScript regular expression'],
      );
    }
    readJson(r.stdout, lines);
    for (const line of stderr.split('\n')) {
      if (line === '') continue;
      const file = group.find((abs) => line.startsWith(`${abs}: `));
      problems.push(file ? `${display(file)}${line.slice(file.length)}` : line);
    }
  }
  if (problems.length > 0) {
    // A file not searched to its end: what was found is not the answer (as rg -P says, exit 2).
    problems.sort();
    throw new RtError(
      'usage',
      `ripgrep could not search ${problems.length === 1 ? 'a file' : `${problems.length} files`} to the end: ` +
        `${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`,
      [
        'PCRE2 gave up on a line (its match limit): write the pattern without nested repetition, ' +
          'or search for a literal string with -F',
      ],
    );
  }
  return { lines, problems };
}

const withoutPcre = [
  'install ripgrep built with PCRE2 (rg --pcre2-version says), or leave out -P: ' +
    'PATTERN is then a JavaScript regular expression, with lookarounds, named groups and \\p{…}',
];

/** `files` in groups whose names fit on one command line. */
function namesByRun(files: readonly string[]): string[][] {
  const groups: string[][] = [];
  let bytes = Infinity;
  for (const file of files) {
    const size = Buffer.byteLength(file) + 1;
    if (bytes + size > NAMES_PER_RUN) {
      groups.push([]);
      bytes = 0;
    }
    groups[groups.length - 1]!.push(file);
    bytes += size;
  }
  return groups;
}

/** ripgrep's JSON lines: each line of a "match" message, with its matches, into `out`. */
function readJson(stdout: Buffer, out: Map<string, ReadonlyArray<readonly [number, number]>>): void {
  for (const line of stdout.toString('utf8').split('\n')) {
    if (!line.startsWith('{"type":"match"')) continue;
    const { data } = JSON.parse(line) as { data: RgMatch };
    const bytes =
      data.lines.text !== undefined
        ? Buffer.from(data.lines.text, 'utf8')
        : Buffer.from(data.lines.bytes ?? '', 'base64');
    const whole = bytes.toString('utf8');
    // The line as rt takes it: without its \n, nor the \r before it.
    const text = whole.endsWith('\r\n') ? whole.slice(0, -2) : whole.endsWith('\n') ? whole.slice(0, -1) : whole;
    const unit = (offset: number) => Math.min(text.length, bytes.subarray(0, offset).toString('utf8').length);
    const matches = data.submatches.map((m) => [unit(m.start), unit(m.end)] as const).filter(([s, e]) => s < e);
    out.set(text, matches);
  }
}

interface RgMatch {
  lines: { text?: string; bytes?: string };
  submatches: Array<{ start: number; end: number }>;
}
