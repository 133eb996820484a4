// The syntax errors Python's tokenizer finds, the indentation rules its parser adds, and a few of
// its compiler's, as CPython applies them. Pure. tree-sitter's Python grammar takes every one of these for valid code
// (its
// scanner recovers from any indentation), and these errors are exact: a check may be sure of them
// without asking `python3`.
//
// What is read: strings of every prefix (raw, bytes, triple-quoted, f-strings with nested fields
// and quotes as Python 3.12 reads them), comments, backslash continuations, brackets. A logical
// line starts where no bracket is open and no backslash continues the line before; only there
// does indentation count. Blank and comment-only lines never do. The rules:
// - the tokenizer's stack of indentation levels: a line less indented than the last must be as
//   indented as one of the levels it closes ("unindent does not match any outer indentation level");
// - tabs: indentation is measured with tabs to the next multiple of 8 and with tabs as 1 column,
//   and the two measures must order the line the same way against the stack (TabError);
// - a logical line ending in `:` (a compound statement's header: `if`, `def`, `class`, `match`,
//   `case`…; a `:` anywhere else ends no valid line) must be followed by an indented one
//   ("expected an indented block"), and no other line may be ("unexpected indent");
// - every bracket closes, and in order; every string ends (its line, or the file for `"""`);
// - and rules compile() adds that the grammar does not know: `return`, `yield`, `await`, `break`
//   and `continue` only in a function, an async function or a loop; a call's arguments in order
//   (no positional one after a keyword or `**`, no keyword twice), a `def`'s parameters too.
// The tokenizer stops at its first error; this goes on (a line that matches no level leaves the
// levels as they were), so that an error the edit made is found past one already in the file.

import { MAX_ERRORS, type SyntaxProblem } from './problem.js';

/** CPython's limits: indentation levels (MAXINDENT) and open brackets (MAXLEVEL). */
const MAX_INDENT_LEVELS = 100;
const MAX_OPEN_BRACKETS = 200;

const TAB_SIZE = 8;

const STRING_PREFIXES = new Set(['r', 'u', 'f', 'b', 'br', 'rb', 'fr', 'rf']);
const CLOSER_OF: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };
const OPENER_OF: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };

interface Level {
  readonly column: number;
  /** The column with tabs counted as 1. */
  readonly tabless: number;
  /** 1-based line that opened the level. */
  readonly line: number;
  /** The block's header keyword (`def`, `async def`, `class`, `for`, `while`, `loop else`…); `other` for none. */
  readonly kind: string;
  /** The keyword of the last compound statement at this level: an `else` after a loop is the loop's. */
  lastHeader: string;
}

/** A block header's keyword: what the block it opens is (`if`, `def`, `async for`, `loop else`). */
interface Header {
  readonly line: number;
  /** As CPython's messages name it: `function definition`, `'if' statement`. */
  readonly what: string;
  readonly kind: string;
}

interface Bracket {
  readonly char: string;
  readonly line: number;
  readonly column: number;
  /** A call's arguments, a definition's parameters: the order compile() requires of them. */
  readonly list?: ArgumentList;
}

/** The problems the tokenizer and the indentation rules find in `text` (lines end with `\n`). */
export function pythonTokenProblems(text: string): SyntaxProblem[] {
  return new PythonTokens(text).run();
}

/** True for a problem pythonTokenProblems reports: one that no Python version accepts. */
export function isPythonTokenProblem(problem: SyntaxProblem): boolean {
  return problem.kind.startsWith(KIND_PREFIX);
}

const KIND_PREFIX = 'python tokens: ';

class PythonTokens {
  private at = 0;
  private line = 1;
  private lineStart = 0;
  private readonly problems: SyntaxProblem[] = [];
  private readonly levels: Level[] = [{ column: 0, tabless: 0, line: 1, kind: 'module', lastHeader: '' }];
  private readonly brackets: Bracket[] = [];
  /** The header (a logical line ending in `:`) whose block the next logical line must open. */
  private header: Header | undefined;
  /** The last token of the logical line so far is `:`. */
  private endsInColon = false;
  private logicalStart = 0;
  /** The first line of the logical line before this one. */
  private previousLogical = 1;
  /** The logical line being read opened a level of indentation, or closed one. */
  private indented = false;
  private dedented = false;
  /** The logical line before this one is a decorator (`@name`): what it decorates is at its level. */
  private decorator = false;
  /** Only the module's docstring and comments come before `from __future__ import`. */
  private futureAllowed = true;
  private sawDocstring = false;

  constructor(private readonly text: string) {}

  run(): SyntaxProblem[] {
    const text = this.text;
    while (this.at < text.length && this.problems.length < MAX_ERRORS) {
      this.logicalLine();
    }
    const lastLine = this.text.endsWith('\n') ? Math.max(1, this.line - 1) : this.line;
    if (this.header !== undefined) this.expectedBlock(lastLine);
    for (const bracket of this.brackets) {
      this.report(
        bracket.line,
        bracket.column,
        `\`${bracket.char}\` was never closed`,
        `never closed ${bracket.char}`,
        bracket.line,
        lastLine,
      );
    }
    return this.problems.slice(0, MAX_ERRORS);
  }

  /** One logical line from its first character: indentation, then tokens to its end. */
  private logicalLine(): void {
    const text = this.text;
    let column = 0;
    let tabless = 0;
    for (; this.at < text.length; this.at++) {
      const c = text[this.at];
      if (c === ' ') {
        column++;
        tabless++;
      } else if (c === '\t') {
        column = (Math.floor(column / TAB_SIZE) + 1) * TAB_SIZE;
        tabless++;
      } else if (c === '\f') {
        column = 0;
        tabless = 0;
      } else break;
    }
    const c = text[this.at];
    if (c === undefined) return;
    if (c === '#' || c === '\n' || (c === '\r' && text[this.at + 1] === '\n')) {
      this.skipToLineEnd();
      if (this.at < text.length) {
        this.at++;
        this.newLine();
      }
      return;
    }
    this.logicalStart = this.line;
    const top = this.levels[this.levels.length - 1]!.column;
    const tokenizerError = this.indent(column, tabless);
    this.dedented = column < top;
    if (!tokenizerError) this.blockRule();
    this.header = undefined;
    this.endsInColon = false;
    this.decorator = text[this.at] === '@';
    this.futureRule();
    this.tokens();
  }

  private futureRule(): void {
    const head = this.text.slice(this.at, this.at + 20);
    if (/^from[ \t]+__future__\b/.test(head)) {
      if (!this.futureAllowed)
        this.report(
          this.line,
          this.column(),
          'from __future__ imports must occur at the beginning of the file',
          'future',
          this.line,
        );
    } else if (this.futureAllowed && !this.sawDocstring && /^[rRuU]?['"]/.test(head)) {
      this.sawDocstring = true;
    } else this.futureAllowed = false;
  }

  /** Applies the tokenizer's indentation stack to a logical line's indentation; true when that is an error. */
  private indent(column: number, tabless: number): boolean {
    const line = this.line;
    const at = this.column();
    const top = this.levels[this.levels.length - 1]!;
    const tabError = (level: Level): boolean => {
      this.report(line, at, 'inconsistent use of tabs and spaces in indentation', 'tabs', level.line);
      return true;
    };
    if (column === top.column) {
      this.indented = false;
      return tabless !== top.tabless && tabError(top);
    }
    if (column > top.column) {
      this.indented = true;
      if (this.levels.length >= MAX_INDENT_LEVELS) {
        this.report(line, at, 'too many levels of indentation', 'indent levels', line);
        return true;
      }
      this.levels.push({ column, tabless, line, kind: this.header?.kind ?? 'other', lastHeader: '' });
      return tabless <= top.tabless && tabError(top);
    }
    this.indented = false;
    let kept = this.levels.length - 1;
    while (kept > 0 && column < this.levels[kept]!.column) kept--;
    const outer = this.levels[kept]!;
    if (column !== outer.column) {
      // The levels stay as they were: the lines after one misplaced line are read as before it.
      this.report(
        line,
        at,
        'unindent does not match any outer indentation level',
        'unindent',
        this.levels[kept + 1]!.line,
      );
      return true;
    }
    this.levels.length = kept + 1;
    return tabless !== outer.tabless && tabError(outer);
  }

  /** A header's block must be indented; nothing else may be, and a decorated line is not less indented. */
  private blockRule(): void {
    if (this.header !== undefined && !this.indented) {
      this.expectedBlock(this.line, this.column());
    } else if (this.header === undefined && this.indented) {
      this.report(this.line, this.column(), 'unexpected indent', 'unexpected indent', this.previousLogical);
    } else if (this.decorator && this.dedented) {
      this.report(this.line, this.column(), 'unexpected unindent', 'unexpected unindent', this.previousLogical);
    }
  }

  private expectedBlock(line: number, column = 1): void {
    const { line: header, what } = this.header!;
    this.report(line, column, `expected an indented block after ${what} on line ${header}`, 'expected block', header);
  }

  /** The tokens of a logical line, to its end (a newline outside brackets) or the file's. */
  private tokens(): void {
    const text = this.text;
    const start = this.logicalStart;
    const keyword = /^\w+(?:[ \t]+\w+)?/.exec(text.slice(this.at, this.at + 40))?.[0].replace(/[ \t]+/, ' ') ?? '';
    const statement = COMPOUND.has(keyword)
      ? keyword
      : COMPOUND.has(keyword.split(' ')[0]!)
        ? keyword.split(' ')[0]!
        : '';
    const level = this.levels[this.levels.length - 1]!;
    const kind = statement === 'else' && LOOPS.has(level.lastHeader) ? 'loop else' : statement;
    if (statement !== '') level.lastHeader = statement;
    // Where a statement may start (the line's start, after `;`, after its header's `:`), and whether
    // that is in the block of this line's own header (`for x in y: break`).
    let statementStart = true;
    let inOwnBlock = false;
    // The simple statement's first word and how many tokens it has: `import` needs a name, `as` an
    // `import`, `with`, `except` or `case` before it.
    let simple = '';
    let simpleTokens = 0;
    let simpleAt = { line: this.line, column: this.column() };
    const endSimple = (): void => {
      if (simpleTokens === 1 && NEEDS_MORE.has(simple))
        this.report(simpleAt.line, simpleAt.column, `\`${simple}\` needs more`, `needs more ${simple}`, start);
    };
    const uses: Array<{ word: string; line: number; column: number; inOwnBlock: boolean }> = [];
    let lambda = false;
    // The token before, to tell a call's `(` (after a name or a closing bracket) and a definition's.
    let previous = '';
    let beforePrevious = '';
    while (this.at < text.length) {
      const c = text[this.at]!;
      if (c === '\n') {
        this.at++;
        this.newLine();
        if (this.brackets.length === 0) break;
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\f' || c === '\r') {
        this.at++;
        continue;
      }
      if (c === '#') {
        this.skipToLineEnd();
        continue;
      }
      if (c === '\\') {
        this.continuation();
        continue;
      }
      this.endsInColon = false;
      const wasStart = statementStart;
      statementStart = false;
      if (wasStart) {
        simple = isWordChar(c) ? (/^\w+/.exec(text.slice(this.at, this.at + 20))?.[0] ?? '') : '';
        simpleTokens = 0;
        simpleAt = { line: this.line, column: this.column() };
      }
      simpleTokens++;
      const wordStart = this.at;
      const list = this.brackets[this.brackets.length - 1]?.list;
      if (this.stringOrWord(c)) {
        const word = text.slice(wordStart, this.at);
        if (list)
          this.problem(list.token(word, /^[ \t]*=(?!=)/.test(text.slice(this.at, this.at + 40)) ? word : undefined));
        beforePrevious = previous;
        previous = isWordChar(c) && !/['"]$/.test(word) ? word : '"';
        if (word === 'lambda') lambda = true;
        if (word === 'as' && this.brackets.length === 0 && !AS_STATEMENTS.has(simple))
          this.report(this.line, wordStart - this.lineStart + 1, '`as` out of place', 'as', start);
        if (SCOPED.has(word) && (wasStart || word === 'yield' || word === 'await')) {
          uses.push({ word, line: this.line, column: wordStart - this.lineStart + 1, inOwnBlock });
        }
        continue;
      }
      const token = c === '*' && text[this.at + 1] === '*' ? '**' : c;
      if (list && c !== ')') {
        if (c === ',') this.problem(list.next());
        else if (c === '=' && !'=!<>+-*/%&|^@:'.includes(text[this.at - 1] ?? '') && text[this.at + 1] !== '=')
          list.equals();
        else if (c === ':') list.colon();
        else this.problem(list.token(token));
      }
      if (c === '(') {
        const params = beforePrevious === 'def' && isWordChar(previous[0] ?? '');
        const call = (isWordChar(previous[0] ?? '') && !KEYWORDS.has(previous)) || previous === ')' || previous === ']';
        this.open(c, params || call ? new ArgumentList(params) : undefined);
      } else if (c in CLOSER_OF) this.open(c);
      else if (c in OPENER_OF) {
        if (c === ')' && list) this.problem(list.next());
        this.close(c);
      } else if (c === ';' && this.brackets.length === 0) {
        simpleTokens--;
        endSimple();
        statementStart = true;
      } else if (c === ':' && text[this.at + 1] !== '=' && this.brackets.length === 0) {
        this.endsInColon = true;
        if (statement !== '' && !inOwnBlock) statementStart = inOwnBlock = true;
      }
      beforePrevious = previous;
      previous = token;
      this.at += token.length;
    }
    endSimple();
    if (this.endsInColon) this.header = { line: start, what: headerKind(keyword), kind };
    // `yield` and `await` in a lambda belong to it: the lambda is a function of its own.
    for (const use of uses)
      if (!(lambda && (use.word === 'yield' || use.word === 'await')))
        this.scopeRule(use, use.inOwnBlock ? kind : undefined);
    this.previousLogical = start;
  }

  /**
   * The rules compile() adds on the blocks around a statement: `return` and `yield` in a
   * function, `await` in an async one, `break` and `continue` in a loop (not its `else`), none
   * of them reaching through a class or function body.
   */
  private scopeRule(use: { word: string; line: number; column: number }, ownBlock: string | undefined): void {
    const kinds = this.levels
      .slice(1)
      .map((level) => level.kind)
      .reverse();
    if (ownBlock !== undefined) kinds.unshift(ownBlock);
    const scope = kinds.find((kind) => kind === 'def' || kind === 'async def' || kind === 'class');
    let message: string | undefined;
    if (use.word === 'break' || use.word === 'continue') {
      const loop = kinds.findIndex((kind) => LOOPS.has(kind));
      const stop = kinds.findIndex((kind) => kind === 'def' || kind === 'async def' || kind === 'class');
      if (loop === -1 || (stop !== -1 && stop < loop))
        message = use.word === 'break' ? "'break' outside loop" : "'continue' not properly in loop";
    } else if (use.word === 'await') {
      if (scope !== 'async def')
        message = scope === 'def' ? "'await' outside async function" : "'await' outside function";
    } else if (scope !== 'def' && scope !== 'async def') {
      message = `'${use.word}' outside function`;
    }
    if (message) this.report(use.line, use.column, message, `outside ${use.word}`, this.logicalStart);
  }

  /**
   * A string, or a name, keyword or number (a string's prefix, `rb`, `f`, is one: then the
   * string), at `c`; false for any other token.
   */
  private stringOrWord(c: string): boolean {
    if (c === '"' || c === "'") {
      this.string('');
      return true;
    }
    if (!isWordChar(c)) return false;
    const text = this.text;
    const start = this.at;
    while (this.at < text.length && isWordChar(text[this.at]!)) this.at++;
    const quote = text[this.at];
    const prefix = text.slice(start, this.at).toLowerCase();
    if ((quote === '"' || quote === "'") && STRING_PREFIXES.has(prefix)) this.string(prefix, start);
    return true;
  }

  private open(char: string, list?: ArgumentList): void {
    if (this.brackets.length >= MAX_OPEN_BRACKETS) {
      this.report(this.line, this.column(), 'too many nested parentheses', 'nesting', this.line);
      return;
    }
    this.brackets.push({ char, line: this.line, column: this.column(), list });
  }

  /** An argument or parameter out of order, at the token where that shows. */
  private problem(message: string | undefined): void {
    if (message)
      this.report(this.line, this.column(), message, `arguments: ${message.replace(/:.*/, '')}`, this.logicalStart);
  }

  private close(char: string): void {
    const opener = this.brackets.pop();
    if (!opener) {
      this.report(this.line, this.column(), `unmatched \`${char}\``, `unmatched ${char}`, this.logicalStart);
    } else if (opener.char !== OPENER_OF[char]) {
      const where = opener.line === this.line ? '' : ` on line ${opener.line}`;
      this.report(
        this.line,
        this.column(),
        `closing \`${char}\` does not match opening \`${opener.char}\`${where}`,
        `mismatched ${char}`,
        opener.line,
      );
    }
  }

  /** A backslash: outside a string, it must end its line, and joins the next line to this one. */
  private continuation(): void {
    const text = this.text;
    const next = text[this.at + 1] === '\r' && text[this.at + 2] === '\n' ? this.at + 2 : this.at + 1;
    if (text[next] === '\n') {
      this.at = next + 1;
      this.newLine();
      return;
    }
    if (next >= text.length) {
      this.at = next;
      return;
    }
    this.report(
      this.line,
      this.column(),
      'unexpected character after line continuation character',
      'continuation',
      this.line,
    );
    this.at++;
  }

  /**
   * A string literal whose opening quote is at `this.at` (its prefix from `prefixStart`). An
   * f-string's fields are code: their strings and brackets are read as such.
   */
  private string(prefix: string, prefixStart = this.at): void {
    const text = this.text;
    const quote = text[this.at]!;
    const startLine = this.line;
    const startColumn = prefixStart - this.lineStart + 1;
    const triple = text[this.at + 1] === quote && text[this.at + 2] === quote;
    const formatted = prefix.includes('f');
    this.at += triple ? 3 : 1;
    const unterminated = (): void => {
      if (triple) {
        this.report(
          startLine,
          startColumn,
          'unterminated triple-quoted string literal',
          'unterminated """',
          startLine,
          this.line,
        );
      } else {
        this.report(startLine, startColumn, 'unterminated string literal', 'unterminated string', startLine);
      }
    };
    while (this.at < text.length) {
      const c = text[this.at]!;
      if (c === '\\') {
        if (text[this.at + 1] === '\n') {
          this.at += 2;
          this.newLine();
        } else if (text[this.at + 1] === '\r' && text[this.at + 2] === '\n') {
          this.at += 3;
          this.newLine();
        } else this.at += 2;
        continue;
      }
      if (c === '\n') {
        if (!triple) {
          unterminated();
          return;
        }
        this.at++;
        this.newLine();
        continue;
      }
      if (c === quote && (!triple || (text[this.at + 1] === quote && text[this.at + 2] === quote))) {
        this.at += triple ? 3 : 1;
        return;
      }
      if (formatted && c === '{') {
        if (text[this.at + 1] === '{') this.at += 2;
        else {
          this.at++;
          this.field();
        }
        continue;
      }
      this.at++;
    }
    unterminated();
  }

  /**
   * An f-string's replacement field, after its `{`: code to a `}` outside its own brackets,
   * with a format spec after a `:` there (text, with fields of its own).
   */
  private field(): void {
    const text = this.text;
    let depth = 0;
    let spec = false;
    while (this.at < text.length) {
      const c = text[this.at]!;
      if (c === '\n') {
        this.at++;
        this.newLine();
        continue;
      }
      if (spec) {
        if (c === '{') {
          this.at++;
          this.field();
          continue;
        }
        this.at++;
        if (c === '}') return;
        continue;
      }
      if (this.stringOrWord(c)) continue;
      this.at++;
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
      else if (c === '}') {
        if (depth === 0) return;
        depth--;
      } else if (c === ':' && depth === 0 && text[this.at] !== '=') spec = true;
    }
  }

  /** To the line's `\n` (or the file's end). */
  private skipToLineEnd(): void {
    const end = this.text.indexOf('\n', this.at);
    this.at = end === -1 ? this.text.length : end;
  }

  /** Called with `this.at` just past a `\n`. */
  private newLine(): void {
    this.line++;
    this.lineStart = this.at;
  }

  private column(): number {
    return this.at - this.lineStart + 1;
  }

  private report(
    line: number,
    column: number,
    message: string,
    kind: string,
    contextStart: number,
    contextEnd = line,
  ): void {
    this.problems.push({
      line,
      column,
      message,
      kind: KIND_PREFIX + kind,
      endLine: line,
      contextStart: Math.min(contextStart, line),
      contextEnd: Math.max(contextEnd, line),
    });
  }
}

/**
 * The arguments of a call (or a class's bases) or the parameters of a `def`, read token by
 * token at their own bracket depth: compile() refuses a positional argument after a keyword
 * argument or `**`, a `*` after `**`, a keyword given twice, and a parameter without a default
 * after one with a default (before any `*`). A lambda's own parameters (`key=lambda a, b: 0`)
 * are not the list's.
 */
class ArgumentList {
  private tokens = 0;
  private first = '';
  private keyword: string | undefined;
  private hasDefault = false;
  private lambdaParameters = false;
  private readonly keywords = new Set<string>();
  private sawKeyword = false;
  private sawDoubleStar = false;
  private sawDefault = false;
  private sawStar = false;

  constructor(private readonly parameters: boolean) {}

  /** A token of the current item; `keyword` when it is a name followed by `=` and starts the item. */
  token(text: string, keyword?: string): string | undefined {
    if (this.tokens === 0) {
      this.first = text;
      this.keyword = keyword;
    }
    if (text === 'lambda') this.lambdaParameters = true;
    this.tokens++;
    return undefined;
  }

  equals(): void {
    if (!this.lambdaParameters) this.hasDefault = true;
    this.tokens++;
  }

  colon(): void {
    this.lambdaParameters = false;
    this.tokens++;
  }

  /** The item ends (a `,` or the closing bracket): what is wrong with it, if anything. */
  next(): string | undefined {
    if (this.lambdaParameters) return undefined;
    const problem = this.tokens === 0 ? undefined : this.parameters ? this.parameter() : this.argument();
    this.tokens = 0;
    this.hasDefault = false;
    this.keyword = undefined;
    return problem;
  }

  private argument(): string | undefined {
    if (this.first === '**') {
      this.sawDoubleStar = true;
      return undefined;
    }
    if (this.first === '*')
      return this.sawDoubleStar ? 'iterable argument unpacking follows keyword argument unpacking' : undefined;
    if (this.keyword !== undefined) {
      this.sawKeyword = true;
      if (this.keywords.has(this.keyword)) return `keyword argument repeated: ${this.keyword}`;
      this.keywords.add(this.keyword);
      return undefined;
    }
    if (this.sawDoubleStar) return 'positional argument follows keyword argument unpacking';
    return this.sawKeyword ? 'positional argument follows keyword argument' : undefined;
  }

  private parameter(): string | undefined {
    if (this.first === '*' || this.first === '**') this.sawStar = true;
    if (this.sawStar || this.first === '/') return undefined;
    if (this.hasDefault) this.sawDefault = true;
    else if (this.sawDefault) return 'parameter without a default follows parameter with a default';
    return undefined;
  }
}

/** Statements that are not whole with their keyword alone. */
const NEEDS_MORE = new Set(['import', 'from', 'del', 'assert', 'global', 'nonlocal']);
/** The statements where `as` may stand outside brackets (`except E as e`, `case [x] as y`). */
const AS_STATEMENTS = new Set(['import', 'from', 'with', 'async', 'except', 'case']);

/** Python's keywords: a `(` after one opens no call. */
const KEYWORDS = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);

/** What a header is, as CPython names it: `function definition`, `'if' statement`. */
function headerKind(words: string): string {
  const [first = '', second = ''] = words.split(/\s+/);
  const keyword = first === 'async' ? second : first;
  if (keyword === 'def') return 'function definition';
  if (keyword === 'class') return 'class definition';
  if (HEADER_KEYWORDS.has(keyword)) return `'${keyword}' statement`;
  return 'the header';
}

const HEADER_KEYWORDS = new Set([
  'if',
  'elif',
  'else',
  'for',
  'while',
  'try',
  'except',
  'finally',
  'with',
  'match',
  'case',
]);

/** The keywords that start a compound statement (`match` and `case` only when the line ends a header). */
const COMPOUND = new Set([...HEADER_KEYWORDS, 'def', 'class', 'async def', 'async for', 'async with']);
const LOOPS = new Set(['for', 'async for', 'while']);
/** Statements and expressions that compile() allows only inside a function or a loop. */
const SCOPED = new Set(['return', 'yield', 'await', 'break', 'continue']);

/** A character of a name or number (a string's prefix is one): ASCII letters, digits, `_`, and anything not ASCII. */
function isWordChar(c: string): boolean {
  const code = c.charCodeAt(0);
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f ||
    code > 0x7f
  );
}
