// rt's messages speak the command line: `rt open src/a.ts:12 --window 300`, `add --force`, "text
// on standard input". A model calling rt's tools has none of that: this says the same in a tool
// call's words (`open` with `target: "src/a.ts:12", window: 300`, `force: true`, the field text).
// rt mcp passes every message, hint and note it returns through it, and the tools' descriptions.
// Lines that quote a file (NUMBER:LID|TEXT, as a refusal shows the lines it is about) are left
// as they are: they are the file's bytes, not rt's words. Pure: no I/O.

import type { ArgSpec, CommandDoc, OptionSpec } from '../cli/spec.js';

/** The tool name of a command (grep_file for grep-file). */
export function toolName(command: string): string {
  return command.replace(/-/g, '_');
}

/** The JSON field of an argument or option (a long option's dashes become underscores: no_ignore). */
export function fieldOf(name: string): string {
  return name.replace(/-/g, '_');
}

/** The field that carries what the CLI reads from standard input: `patch` for apply, else `text`. */
export function stdinField(spec: CommandDoc): string | undefined {
  if (!spec.readsStdin) return undefined;
  return spec.name === 'apply' ? 'patch' : 'text';
}

/** The operands a tool takes: the command's, less one its stdin field replaces (apply's PATCH file). */
export function operandsOf(spec: CommandDoc): readonly ArgSpec[] {
  const field = stdinField(spec);
  return spec.args.filter((a) => fieldOf(a.name) !== field);
}

/** A line that quotes a file: NUMBER:LID|TEXT (NUMBER:LID-TEXT for context), or PATH:NUMBER:LID|TEXT (a grep hit). */
const QUOTES_A_FILE = /^(?:rt:)?\s*(?:\S*:)?\d+:[0-9a-z]{4,6}[|-]/;

/** Words after `rt COMMAND` that are the sentence going on, not an operand ("rt open and make it again"). */
const PROSE = new Set(
  (
    'a an and as but considers cuts does first for from if in instead is it its names of on or prints refuses ' +
    'searches shows steps takes that the then to when where which with'
  ).split(' '),
);

/** What comes before another program's flag: `rg --pcre2`, `ripgrep's -S`, `grep -a`. */
const FOREIGN = /(?:^|[\s(])(?:rg|ripgrep's|ripgrep|grep|git|fd|ls|rm|od|cat)(?: -\S+)* $/;

/** The commands a message may name, and the one whose call it answers (whose options a bare --force means). */
export interface Vocabulary {
  readonly commands: readonly CommandDoc[];
  readonly current?: CommandDoc;
}

/** A message, hint or note of rt, line by line, in a tool call's words. */
export function inToolWords(text: string, words: Vocabulary): string {
  return (
    text
      .split('\n')
      // A heredoc's closing line and its stand-in text: the field holds the text itself.
      .filter((line) => !/^(?:rt: )?\s*(?:EOF|…new lines…)$/.test(line))
      .map((line) => (QUOTES_A_FILE.test(line) ? line : lineInToolWords(line, words)))
      .join('\n')
  );
}

/**
 * A command's output with rt's own words in it said in a tool call's: the line a cap appends, last,
 * saying how many results it left out and the command that shows them ("(25 more hits … see them
 * with: rt grep --max 30 …)"), only when the run says there are more; and a write's line saying
 * its cap cut its report (CUT_NOTE). Every other line is the files' (windows, hits, paths, a file
 * named like that line) and stays as it is.
 */
export function outputInToolWords(text: string, words: Vocabulary, more = true): string {
  const capped = text.replace(CUT_NOTE, (line) => inToolWords(line, words));
  const body = capped.endsWith('\n') ? capped.slice(0, -1) : capped;
  const start = body.lastIndexOf('\n') + 1;
  const last = body.slice(start);
  if (!more || !/^\(\d+ more .*\)$/.test(last)) return capped;
  return `${body.slice(0, start)}${inToolWords(last, words)}${capped.slice(body.length)}`;
}

/**
 * The line a write's report ends its shown lines with when its cap cut them ("… 3 more changed
 * lines (--max N shows more)", rt replace): no line of a file is printed so (each is PATH:N:LID).
 */
const CUT_NOTE = /^… \d+ more [a-z ]+ \(--max N shows more\)$/gm;

/** A --json document with its error's message and hints, and its more's command, in a tool call's words. */
export function documentInToolWords<T extends Record<string, unknown> | undefined>(document: T, words: Vocabulary): T {
  const said = (text: unknown) => (typeof text === 'string' ? inToolWords(text, words) : text);
  // The command that shows what a cap left out, as the output's own line says it.
  const more = document?.more as { command?: unknown } | null | undefined;
  if (more && typeof more === 'object' && typeof more.command === 'string') {
    document = { ...document, more: { ...more, command: said(more.command) } };
  }
  const error = document?.error as { message?: unknown; hints?: unknown } | undefined;
  if (!error || typeof error !== 'object') return document;
  const hints = Array.isArray(error.hints) ? error.hints.map(said) : error.hints;
  return { ...document, error: { ...error, message: said(error.message), hints } };
}

/** The placeholders a command's usage declares: its operands' (PATH, FROM, [TO]) and its options' values (N). */
function metavariablesOf(spec: CommandDoc | undefined): ReadonlySet<string> {
  if (!spec) return new Set();
  return new Set([
    ...spec.args.map((a) => a.name.toUpperCase()),
    ...spec.options.flatMap((o) => (o.value ? [o.value] : [])),
  ]);
}

/**
 * A note of the tool's own definition (what an exit status means), in a tool call's words: its
 * operands' placeholders are the fields' names ("none of PATH" is none of path).
 */
export function noteInToolWords(text: string, words: Vocabulary): string {
  const operands = words.current ? operandsOf(words.current) : [];
  const named = text.replace(/\b[A-Z]+\b/g, (w) => operands.find((a) => a.name.toUpperCase() === w)?.name ?? w);
  return inToolWords(named, words);
}

function lineInToolWords(line: string, words: Vocabulary): string {
  const field = words.current ? (stdinField(words.current) ?? 'text') : 'text';
  // Most lines name no command and no option: they skip the walk word by word.
  const walk = /(?:^|[\s(`'"])(?:rt |-)/.test(line);
  let out = walk ? '' : line;
  let i = walk ? 0 : line.length;
  // Inside "…" is a path or pattern the message quotes: its words are the user's, never rewritten.
  let quoting = false;
  while (i < line.length) {
    if (line[i] === '"') quoting = !quoting;
    const atWord = !quoting && (i === 0 || /[\s(`']/.test(line[i - 1]!));
    if (atWord && line.startsWith('rt ', i)) {
      const call = readCall(line, i + 3, words);
      if (call) {
        out += call.said;
        i = call.end;
        continue;
      }
    }
    if (atWord && line[i] === '-' && !FOREIGN.test(line.slice(0, i))) {
      const option = readBareOption(line, i, words);
      if (option) {
        out += option.said;
        i = option.end;
        continue;
      }
    }
    out += line[i];
    i++;
  }
  return (
    out
      // A cap line's way to narrow a search, said as the fields that do it.
      .replace(/\ba PATH or glob: GLOB\b/g, 'path or glob')
      // A tool's result is never coloured: what colour does on a terminal is not the call's.
      .replace(/ ?On a terminal \(or with --color always\)[^.]*\./g, '')
      .replace(/--json (?:prints|gives)/g, 'the structured content is')
      .replace(/--json\b/g, 'the structured content')
      .replace(/ \(or RT_[A-Z_]+=\w+\)/g, '')
      .replace(/\bstandard input as a quoted heredoc\b/g, `the field ${field}`)
      .replace(/\b(?:the|a) heredoc's lines\b/g, `the lines of ${field}`)
      .replace(/\bas a quoted heredoc(?: \(<<'EOF'\))?/g, `in the field ${field}`)
      .replace(/\ba quoted heredoc(?: \(<<'EOF'\))?/g, `the field ${field}`)
      // The root is the server's, fixed when it starts: only whoever starts it can choose another.
      .replace(/--root DIR(?: \(or RT_ROOT\))?|--root(?: \(or RT_ROOT\))?/g, "rt mcp's --root")
      .replace(/ ?<<-?'?"?EOF'?"?/g, '')
      .replace(/ ?<\/dev\/null/g, '')
      .replace(/\b(?:on|from|in) standard input\b/g, `in the field ${field}`)
      .replace(/\bstandard input\b/g, `the field ${field}`)
      .replace(/\b(?:on|to) (?:standard error|stderr)\b/g, "in the result's notes")
      .replace(/\b(?:standard error|stderr) says\b/g, "the result's notes say")
      .replace(/\b(?:standard error|stderr)\b/g, "the result's notes")
      // The operands beside PATH:@NAME, as a call's fields.
      .replace(/\bgive no (FROM or TO|AT) beside it\b/g, (_, o: string) => `give no ${o.toLowerCase()} beside it`)
  );
}

/** A shell word as rt writes one in a command it suggests (shellQuote's forms): its text, and where it ends. */
interface Word {
  readonly text: string;
  readonly end: number;
  readonly quoted: boolean;
  /** Followed by `,` `;` or `)`, or the line's last `.`: the sentence goes on after it. */
  readonly last: boolean;
}

/** A word whose quoting does not close on the line: the line is not read as a command at all. */
const BROKEN = 'broken';

/**
 * The shell word at `start`, read as a POSIX shell reads it ('…', '\\'' inside it, "…" with its
 * backslash escapes, $'…', a backslash outside quotes); undefined when none starts there.
 */
function readWord(line: string, start: number): Word | typeof BROKEN | undefined {
  let text = '';
  let i = start;
  let quoted = false;
  while (i < line.length && line[i] !== ' ') {
    const c = line[i]!;
    if (c === '\\') {
      if (i + 1 >= line.length) return BROKEN;
      text += line[i + 1];
      i += 2;
      quoted = true;
      continue;
    }
    if (c === "'" || c === '"' || (c === '$' && line[i + 1] === "'")) {
      const ansi = c === '$';
      const close = ansi ? "'" : c;
      let j = i + (ansi ? 2 : 1);
      for (; j < line.length && line[j] !== close; j++) {
        if (ansi && line[j] === '\\' && j + 1 < line.length) {
          const [shown, length] = ansiEscape(line.slice(j + 1));
          text += shown;
          j += length;
        } else if (c === '"' && line[j] === '\\' && /["\\$`]/.test(line[j + 1] ?? '')) {
          text += line[++j];
        } else if (c === '"' && /[$`]/.test(line[j]!)) {
          return BROKEN;
        } else text += line[j];
      }
      if (j >= line.length) return BROKEN;
      i = j + 1;
      quoted = true;
      continue;
    }
    if (c === '`' || c === '<' || c === '>' || c === '|' || c === '(' || c === '…') break;
    text += c;
    i++;
  }
  if (i === start) return undefined;
  const raw = line.slice(start, i);
  // A sentence's full stop: at the end of the line, or before the next sentence.
  const stop = i === line.length || /^ [A-Z]/.test(line.slice(i));
  const tail = (/[,;:)]+$/.exec(raw) ?? (stop ? /(?<=[^.])\.$/.exec(raw) : null))?.[0].length ?? 0;
  if (tail > 0 && !/['"]$/.test(raw)) return { text: text.slice(0, -tail), end: i - tail, quoted, last: true };
  // A word cut off by what no word of rt's holds (`--force(`): not a word rt wrote.
  if (i < line.length && !/[ `<…]/.test(line[i]!)) return BROKEN;
  return { text, end: i, quoted, last: false };
}

function ansiEscape(after: string): [string, number] {
  const named: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'" };
  if (named[after[0]!] !== undefined) return [named[after[0]!]!, 1];
  const hex = /^x([0-9a-fA-F]{2})/.exec(after);
  if (hex) return [String.fromCharCode(parseInt(hex[1]!, 16)), 3];
  return ['\\', 0];
}

/**
 * A placeholder the usage declares (PATH, STEP, N, [TO]): said as it is, not as a string. Any other
 * word is a value (a file named PATH is quoted where rt names it: shellQuote).
 */
const isPlaceholder = (w: Word, declared: ReadonlySet<string>) =>
  !w.quoted && declared.has(w.text.replace(/^\[(.*)\]$/, '$1'));

function valueOf(w: Word, kind: OptionSpec['kind'] | 'operand', declared: ReadonlySet<string>): string {
  if (isPlaceholder(w, declared)) return w.text.replace(/[[\]]/g, '');
  if (kind === 'count' && /^\d+$/.test(w.text)) return w.text;
  return JSON.stringify(w.text);
}

function optionNamed(name: string, spec: CommandDoc | undefined, words: Vocabulary): OptionSpec | undefined {
  const long = name.startsWith('--');
  const named = (o: OptionSpec) => (long ? `--${o.long}` === name : o.short !== undefined && `-${o.short}` === name);
  const find = (s: CommandDoc | undefined) => s?.options.find(named);
  if (spec) return find(spec);
  // A bare option is the current command's; else any command's of that name (rt's letters mean one thing: -i, -C).
  return find(words.current) ?? words.commands.map(find).find((o) => o !== undefined);
}

/**
 * `rt COMMAND …` from `start` (after "rt "): the call it stands for, and where it ends; undefined
 * when it names no served command or reads as no call (an option the command does not have).
 */
function readCall(line: string, start: number, words: Vocabulary): { said: string; end: number } | undefined {
  const name = /^[a-z-]+/.exec(line.slice(start))?.[0];
  const spec = words.commands.find((c) => c.name === name);
  if (!spec || !/^($|[\s,.;:)])/.test(line.slice(start + name!.length))) return undefined;
  const fields = new Map<string, string[]>();
  const set = (key: string, value: string, many = false) =>
    fields.set(key, many ? [...(fields.get(key) ?? []), value] : [value]);
  const operands = operandsOf(spec);
  const declared = metavariablesOf(spec);
  let operand = 0;
  let end = start + name!.length;
  let onlyOperands = false;
  while (line[end] === ' ') {
    const next = end + 1;
    if (/^<<-?'?"?EOF/.test(line.slice(next)) && stdinField(spec)) {
      set(stdinField(spec)!, '…');
      end = next + /^<<-?'?"?EOF'?"?/.exec(line.slice(next))![0].length;
      continue;
    }
    if (line.startsWith('</dev/null', next)) {
      end = next + '</dev/null'.length;
      continue;
    }
    const w = readWord(line, next);
    if (w === BROKEN) return undefined;
    if (!w) break;
    if (!onlyOperands && !w.quoted && w.text === '--') {
      onlyOperands = true;
      end = w.end;
      continue;
    }
    if (!onlyOperands && !w.quoted && /^--?[A-Za-z]/.test(w.text)) {
      const [flag, inline] = w.text.split(/=(.*)/s) as [string, string | undefined];
      const o = optionNamed(flag, spec, words);
      if (!o) return undefined;
      let stop = w;
      if (o.kind === 'switch') set(fieldOf(o.long), 'true');
      else if (inline !== undefined) set(fieldOf(o.long), JSON.stringify(inline), o.kind === 'list');
      else {
        const v = w.last ? undefined : readWord(line, w.end + 1);
        if (!v || v === BROKEN) return undefined;
        set(fieldOf(o.long), valueOf(v, o.kind, declared), o.kind === 'list');
        stop = v;
      }
      end = stop.end;
      if (stop.last) break;
      continue;
    }
    // With regexp (-e), every operand is a path, as the command reads them.
    if (operands[operand]?.name === 'pattern' && fields.has('regexp')) operand++;
    const a = operands[operand];
    // A word ending in ':' begins what the sentence says next ("rt find considers: what git would show").
    if (!a || (!w.quoted && (PROSE.has(w.text) || w.text.endsWith(':')))) break;
    set(fieldOf(a.name), valueOf(w, 'operand', declared), a.variadic === true);
    if (!a.variadic) operand++;
    end = w.end;
    if (w.last) break;
  }
  const listed = [...fields].map(([key, values]) => {
    const many =
      spec.options.some((o) => fieldOf(o.long) === key && o.kind === 'list') ||
      operands.some((a) => fieldOf(a.name) === key && a.variadic);
    return `${key}: ${many ? `[${values.join(', ')}]` : values[0]}`;
  });
  return { said: listed.length ? `${toolName(spec.name)} with ${listed.join(', ')}` : toolName(spec.name), end };
}

/** A bare `--force`, `--window 300` or `-F` in a sentence: the field it is, and its value. */
function readBareOption(line: string, start: number, words: Vocabulary): { said: string; end: number } | undefined {
  const w = readWord(line, start);
  if (!w || w === BROKEN || w.quoted) return undefined;
  // The option's name alone: what follows it in the sentence ("unless --force.") stays; a word that
  // only begins like one (a file -i.ts, --force.txt) is not one.
  const flag = /^--?[A-Za-z][A-Za-z0-9-]*/.exec(w.text)?.[0];
  if (!flag) return undefined;
  const inline = w.text.startsWith(`${flag}=`) ? w.text.slice(flag.length + 1) : undefined;
  if (inline === undefined && w.text !== flag) {
    if (!/^[.,;:!?)'"]+$/.test(w.text.slice(flag.length))) return undefined;
    return { said: readBareOption(flag, 0, words)?.said ?? flag, end: start + flag.length };
  }
  const o = optionNamed(flag, undefined, words);
  if (!o) return undefined;
  const key = fieldOf(o.long);
  if (o.kind === 'switch') return { said: `${key}: true`, end: w.end };
  if (inline !== undefined) return { said: `${key}: ${JSON.stringify(inline)}`, end: w.end };
  const v = w.last ? undefined : readWord(line, w.end + 1);
  const declared = new Set(o.value ? [o.value] : []);
  const valued = v && v !== BROKEN && (v.quoted || isPlaceholder(v, declared) || /^\d+$/.test(v.text));
  if (valued) return { said: `${key}: ${valueOf(v, o.kind, declared)}`, end: v.end };
  return { said: key, end: w.end };
}
