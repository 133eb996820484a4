// Syntax errors in JSON, and in JSON with comments and trailing commas (tsconfig.json,
// .vscode/settings.json: JSONC), found by Microsoft's jsonc-parser, the scanner VS Code uses;
// in JSON5 (*.json5), by the json5 package, the parser of its specification. Pure.

import * as jsoncModule from 'jsonc-parser';
import JSON5 from 'json5';
import type { JsonDialect } from './languages.js';
import { MAX_ERRORS, quoted, type SyntaxProblem } from './problem.js';

// jsonc-parser ships UMD as its main and ES modules as `module`: Node's import of the former
// sees only a default export, a bundle of the latter only named ones.
const jsonc = ('parse' in jsoncModule ? jsoncModule : Reflect.get(jsoncModule, 'default')) as typeof jsoncModule;

/** jsonc-parser's ParseErrorCode (a const enum, which isolated modules cannot read). */
const MESSAGES: Readonly<Record<number, string>> = {
  1: 'unexpected',
  2: 'invalid number',
  3: 'expected a property name',
  4: 'expected a value',
  5: 'missing `:`',
  6: 'missing `,`',
  7: 'missing `}`',
  8: 'missing `]`',
  9: 'unexpected text after the end',
  10: 'comments are not allowed in JSON',
  11: 'unterminated comment',
  12: 'unterminated string',
  13: 'unterminated number',
  14: 'invalid unicode escape',
  15: 'invalid escape character',
  16: 'invalid character in string',
};

/** The problems of `text` as JSON of a dialect: JSONC allows comments and trailing commas, JSON5 more. */
export function jsonProblems(text: string, dialect: JsonDialect): SyntaxProblem[] {
  if (dialect === 'json5') return json5Problems(text);
  const comments = dialect === 'jsonc';
  const found: Array<{ error: number; offset: number; length: number }> = [];
  jsonc.parse(text, found, { disallowComments: !comments, allowTrailingComma: comments, allowEmptyContent: true });
  const problems: SyntaxProblem[] = [];
  const lines = lineStarts(text);
  let lastOffset = -1;
  for (const { error, offset, length } of found) {
    // jsonc-parser may report a place twice (`expected a property name`, then `a value`): the first says it.
    if (offset === lastOffset) continue;
    lastOffset = offset;
    if (problems.length === MAX_ERRORS) break;
    const token = text.slice(offset, offset + Math.max(length, 1));
    const { line, column } = positionOf(lines, offset);
    const last = positionOf(lines, offset + length).line;
    const message = messageOf(
      error,
      token,
      offset >= text.length,
      TRAILING_COMMA.test(text.slice(Math.max(0, offset - 400), offset)),
    );
    problems.push({
      line,
      column,
      endLine: last,
      message,
      kind: `json ${error}`,
      contextStart: line,
      contextEnd: last,
    });
  }
  return problems;
}

/**
 * The first problem of `text` as JSON5 (json5's parser stops at it): `invalid character 'x'`
 * becomes "unexpected `x`". An empty file passes, as for JSON.
 */
function json5Problems(text: string): SyntaxProblem[] {
  if (text.trim() === '') return [];
  try {
    JSON5.parse(text);
    return [];
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const { lineNumber: line = 1, columnNumber: column = 1 } = error as SyntaxError & {
      lineNumber?: number;
      columnNumber?: number;
    };
    const said = error.message.replace(/^JSON5: /, '').replace(/ at \d+:\d+$/, '');
    const character = /^invalid character '(.*)'$/s.exec(said);
    // json5 escapes the character as a string would (`'\\''`): a quote or a backslash is shown as it is.
    const message = character
      ? `unexpected ${quoted(character[1]!.replace(/^\\(['"\\])$/, '$1'))}`
      : said === 'invalid end of input'
        ? 'unexpected end of file'
        : said;
    return [{ line, column, endLine: line, message, kind: `json5 ${said}`, contextStart: line, contextEnd: line }];
  }
}

/** A comma, then only blanks and comments, up to the end. */
const TRAILING_COMMA = /,(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*$/;

function messageOf(error: number, token: string, atEnd: boolean, afterComma: boolean): string {
  const base = MESSAGES[error] ?? 'syntax error';
  if ((error === 3 || error === 4) && afterComma && (token === '}' || token === ']'))
    return 'trailing `,` is not allowed in JSON';
  if ((error === 3 || error === 4) && atEnd) return `${base}, found the end of the file`;
  return error === 1 || error === 9 ? `${base} ${quoted(token)}` : base;
}

/** True when `text` is valid JSONC but not valid JSON: a `.json` file that uses comments. */
export function usesJsonComments(text: string): boolean {
  return jsonProblems(text, 'jsonc').length === 0 && jsonProblems(text, 'json').length > 0;
}

export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/** 1-based line and column of a character offset. */
export function positionOf(starts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - starts[low]! + 1 };
}
