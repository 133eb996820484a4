// The printers of searches: sinks (see search/sink.ts) that print what a search reports, as text
// and for --json. HitPrinter prints hits and their context as rt's window lines
// (PATH:NUMBER:LID|CONTENT, context with "-", groups apart separated by --), records them as shown
// and saves the view; CountPrinter prints one line a file (-l, -c), at most `max` of them.

import { jsonLine, type JsonLine } from '../render/json.js';
import { PLAIN } from '../render/style.js';
import { DISPLAY_LIMIT, renderLine } from '../render/window.js';
import type { LineMatcher } from '../search/match.js';
import type { SearchQuery } from '../search/query.js';
import { reportHits, type Enclosing, type FileHits } from '../search/report.js';
import type { FoundLine, ReportedFile, SearchSink } from '../search/sink.js';
import { ViewState } from '../store/views.js';
import type { Context } from './context.js';

export interface JsonHit extends JsonLine {
  path: string;
  /** false for a line of context (-C). */
  hit: boolean;
  /**
   * With --function or --function-context: the line (context) is the one a definition enclosing
   * hits is listed by; `by`: found from the file's outline, or by git grep's rule ("heuristic").
   */
  definition?: FoundLine['definition'];
  /** With -o: the matches, as byte ranges of the line's content, with their text. */
  matches?: Array<{ start: number; end: number; text: string; base64?: string }>;
}

/** How hits are printed. */
export interface HitOutput {
  /** Whether lines of context are printed (groups of lines are then separated by --). */
  readonly context: boolean;
  /** grep prefixes each line with its path; grep-file does not. */
  readonly prefixPath: boolean;
  /** -o: only the matching parts of hits, each on a line of its own. */
  readonly only: boolean;
  /** -W: the definitions around hits are printed whole (their lines then count as shown whole: see ShownBy). */
  readonly whole?: boolean;
}

/**
 * Prints hits with their LIDs (and context lines), records them as shown (but for the hits of
 * -o, whose lines are not shown whole), saves each file's view. With --json, keeps the hits for
 * the command's document (and prints them only when the run prints text too: see Context.text).
 */
export class HitPrinter implements SearchSink {
  /** The hits and lines of context printed, for --json. */
  readonly json: JsonHit[] = [];
  /** Whether each hit's matches are wanted: coloured, or printed alone (else only to cut a long line around). */
  readonly marking: boolean;
  /** A hit longer than this is cut for display, around its first match. */
  readonly cutOver = DISPLAY_LIMIT;
  private view: ViewState | undefined;
  private file: ReportedFile | undefined;
  private path: string | undefined;
  private firstGroup = true;
  /** The number of the line printed last in the file (a group ends where the next is not the one after). */
  private last = -1;
  /** Lines shown whole, one after another, not yet recorded as shown. */
  private run: FoundLine[] = [];
  /** The runs of lines shown whole in the file, recorded as shown together when it is finished. */
  private runs: Array<{ readonly start: number; readonly lids: readonly string[] }> = [];

  constructor(
    private readonly ctx: Context,
    private readonly output: HitOutput,
  ) {
    // Matches are looked for when they show: coloured, printed alone, or in a line cut for display.
    this.marking = output.only || ctx.style !== PLAIN;
  }

  begin(file: ReportedFile): void {
    const resolved = file.resolved!;
    this.view = ViewState.load(this.ctx.stateOf(resolved), resolved.rel);
    this.file = file;
    this.path = this.output.prefixPath ? file.display : undefined;
    this.last = -1;
  }

  matched(line: FoundLine): void {
    this.print(line, true);
  }

  context(line: FoundLine): void {
    this.print(line, false);
  }

  finish(): void {
    this.record();
    // The file's runs in one call (see recordEach), not one a run.
    if (this.runs.length) this.view!.recordEach(this.runs, this.output.whole ? 'search' : 'hit');
    this.runs = [];
    this.view!.save();
  }

  private print(row: FoundLine, hit: boolean): void {
    const { ctx, output } = this;
    if (row.n !== this.last + 1) {
      this.record();
      if (output.context && !this.firstGroup) ctx.out(`${ctx.style.separator('--')}\n`);
      this.firstGroup = false;
    }
    this.last = row.n;
    const alone = output.only && hit;
    if (ctx.json)
      this.json.push({
        path: this.file!.display,
        ...jsonLine(row.n, row.lid, row.content),
        hit,
        ...(row.definition && !hit ? { definition: row.definition } : {}),
        ...(alone ? { matches: row.marks.map(([start, end]) => jsonMatch(row.content, start, end)) } : {}),
      });
    if (ctx.text) {
      if (alone)
        for (const [s, e] of row.marks)
          ctx.out(renderLine(row.n, row.lid, row.content.subarray(s, e), '|', ctx.style, this.path, [[0, e - s]]));
      else {
        const separator = hit ? '|' : row.definition ? '=' : '-';
        ctx.out(renderLine(row.n, row.lid, row.content, separator, ctx.style, this.path, row.marks));
      }
    }
    // Shown whole: every line but, with -o, the hits.
    if (alone) this.record();
    else this.run.push(row);
  }

  /** Adds the lines shown whole since the last gap to the runs to record as shown. */
  private record(): void {
    const run = this.run;
    if (run.length === 0) return;
    this.runs.push({ start: run[0]!.n, lids: run.map((r) => r.lid) });
    this.run = [];
  }
}

function jsonMatch(
  content: Buffer,
  start: number,
  end: number,
): { start: number; end: number; text: string; base64?: string } {
  const { text, base64 } = jsonLine(0, '', content.subarray(start, end));
  return { start, end, text, ...(base64 === undefined ? {} : { base64 }) };
}

/**
 * Prints `hits` (with their context, as `query` asks) through a HitPrinter, with the LIDs of the
 * files' saved indexes (see reportHits); gives the hits printed, for --json.
 */
export function printHits(
  ctx: Context,
  hits: readonly FileHits[],
  how: {
    readonly query: SearchQuery;
    /** Hits are checked against it when read again. */
    readonly matcher: LineMatcher;
    /** The ripgrep command that does the search, for the message when matching takes too long. */
    readonly ripgrep: string;
    readonly prefixPath: boolean;
    /** --function or --function-context (see enclosingFor). */
    readonly enclosing?: Enclosing | undefined;
  },
): JsonHit[] {
  const { query, matcher, ripgrep, prefixPath, enclosing } = how;
  const { before, after, only } = query;
  // Groups are told apart by -- when lines other than hits are printed (a definition's too).
  const printer = new HitPrinter(ctx, {
    context: before > 0 || after > 0 || enclosing?.body === true,
    prefixPath,
    only,
    whole: enclosing?.body === true,
  });
  const options = {
    before,
    after,
    matcher,
    marking: printer.marking,
    cutOver: printer.cutOver,
    ripgrep,
    ...(enclosing ? { enclosing } : {}),
  };
  reportHits(ctx, hits, options, printer);
  return printer.json;
}

/**
 * Prints one line a file with hits (-l: its path; -c: PATH:COUNT; grep-file -c: COUNT), at most
 * `max` of them; counts the files past that.
 */
export class CountPrinter implements SearchSink {
  readonly shown: Array<{ path: string; count: number }> = [];
  moreFiles = 0;

  constructor(
    private readonly ctx: Context,
    private readonly max: number,
    private readonly line: (path: string, count: number) => string,
  ) {}

  begin(): void {}

  matched(): void {}

  context(): void {}

  finish(file: ReportedFile, count: number): void {
    if (this.shown.length >= this.max) {
      this.moreFiles++;
      return;
    }
    this.shown.push({ path: file.display, count });
    this.ctx.out(this.line(file.display, count));
  }
}
