// A Markdown file's outline: its headings, ATX (`## Set up`) and setext (a paragraph underlined
// with `===` or `---`), by CommonMark's rules for the blocks that can hide one (fenced and
// indented code, HTML blocks, front matter), each named by the anchor GitHub gives it. Pure.
//
// Headings at the top level of the document are listed; those inside block quotes and list
// items are not (rare in practice, and their containers' rules are most of CommonMark).

import type { Definition } from './outline.js';

const EXTENSIONS = new Set(['md', 'markdown', 'mdown', 'mkd', 'mkdn', 'mdwn', 'mdx']);

export function isMarkdown(path: string): boolean {
  const name = path.slice(path.search(/[^/\\]*$/));
  const dot = name.lastIndexOf('.');
  return dot > 0 && EXTENSIONS.has(name.slice(dot + 1).toLowerCase());
}

interface Heading {
  readonly level: number;
  readonly text: string;
  /** 0-based row it starts on (a setext heading's on its paragraph's first). */
  readonly first: number;
}

/**
 * The headings of `text` in file order, as definitions: kind `h1`…`h6`, name the heading's text,
 * qualified name its anchor; each runs to the line before the next heading of its level or a
 * higher one (its section).
 */
export function markdownOutline(text: string): Definition[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const labels = new Set(
    lines.flatMap((line) => (LINK_DEFINITION.test(line) ? /\[([^\]]+)\]/.exec(line)![1]! : [])).map(normalLabel),
  );
  const headings = headingsOf(lines, labels);
  const anchors = new Anchors();
  const definitions = headings.map((h) => ({
    kind: `h${h.level}`,
    name: h.text.trim(),
    qualifiedName: anchors.next(h.text),
    line: h.first + 1,
    startLine: h.first + 1,
    endLine: lines.length,
    level: h.level,
  }));
  // Each heading ends the sections of those above it of its level or a lower one still open.
  const open: typeof definitions = [];
  for (const d of definitions) {
    while (open.length && open[open.length - 1]!.level >= d.level) open.pop()!.endLine = d.startLine - 1;
    open.push(d);
  }
  return definitions;
}

/** An HTML open or closing tag, by CommonMark's rules (`<module 'x'>` is none: text). */
const ATTRIBUTE = String.raw`\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>\x60]+|'[^']*'|"[^"]*"))?`;
const TAG = String.raw`(?:<[A-Za-z][A-Za-z0-9-]*(?:${ATTRIBUTE})*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)`;

/** A link reference definition on one line: `[label]: destination "title"`. */
const LINK_DEFINITION = new RegExp(
  String.raw`^ {0,3}\[(?:[^\]\\]|\\.)+\]:[ \t]*(?:<[^<>\n]*>|[^\s<][^\s]*)` +
    String.raw`(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$`,
);

/** The tags that start an HTML block ended by a blank line, even in the middle of a paragraph. */
const BLOCK_TAGS = [
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog',
  'dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html',
  'iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section',
  'summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul',
].join('|');

/** What ends an HTML block: a line holding one of these (kinds 1 to 5), else a blank line (6 and 7). */
const HTML_STARTS: ReadonlyArray<readonly [RegExp, RegExp | 'blank', boolean]> = [
  [/^<(?:script|pre|style|textarea)(?:\s|>|$)/i, /<\/(?:script|pre|style|textarea)>/i, true],
  [/^<!--/, /-->/, true],
  [/^<\?/, /\?>/, true],
  [/^<![A-Za-z]/, />/, true],
  [/^<!\[CDATA\[/, /\]\]>/, true],
  [new RegExp(`^</?(?:${BLOCK_TAGS})(?:\\s|/?>|$)`, 'i'), 'blank', true],
  // Any other complete tag alone on its line; it cannot interrupt a paragraph.
  [new RegExp(`^${TAG}\\s*$`), 'blank', false],
];

/** A container's content: a fence open in it, whose lines are code until its closing line or the container's end. */
interface Content {
  fence?: RegExp | undefined;
}

type Open =
  | { readonly kind: 'fence'; readonly close: RegExp }
  | { readonly kind: 'html'; readonly end: RegExp | 'blank' }
  /** A list item: lines indented this much or more are its content. */
  | ({ readonly kind: 'item'; readonly indent: number } & Content)
  | ({ readonly kind: 'quote' } & Content);

/** The headings of `lines`; `labels`, those of the file's link reference definitions (`[x]: url`). */
function headingsOf(lines: readonly string[], labels: ReadonlySet<string>): Heading[] {
  const headings: Heading[] = [];
  let open: Open | undefined;
  /** The first row of the paragraph being read, if one is. */
  let paragraph: number | undefined;
  /** The line before was blank. */
  let afterBlank = true;
  let row = frontMatterEnd(lines);
  for (; row < lines.length; row++) {
    const line = lines[row]!;
    const blank = /^[ \t]*$/.test(line);
    const indent = indentOf(line);
    const rest = unindented(line);
    const wasAfterBlank = afterBlank;
    afterBlank = blank;
    if (open?.kind === 'fence') {
      if (indent < 4 && open.close.test(rest)) open = undefined;
      continue;
    }
    if (open?.kind === 'html') {
      if (open.end === 'blank' ? blank : open.end.test(line)) open = undefined;
      continue;
    }
    if (blank) {
      paragraph = undefined;
      continue;
    }
    if (open?.kind === 'item' || open?.kind === 'quote') {
      const inside = open.kind === 'item' ? indent >= open.indent : /^ {0,3}>/.test(line);
      if (inside) {
        const content = open.kind === 'item' ? dropColumns(line, open.indent) : line.replace(/^ {0,3}> ?/, '');
        paragraph = innerParagraph(content, paragraph, row, open);
        continue;
      }
      // A line of text right after the container's text continues it (a lazy continuation line).
      if (!wasAfterBlank && paragraph !== undefined && !startsBlock(rest, indent, false)) continue;
      open = undefined;
      paragraph = undefined;
    }
    // Indented code, or a paragraph's continuation line.
    if (indent >= 4) continue;
    const close = closingFence(rest);
    if (close) {
      open = { kind: 'fence', close };
      paragraph = undefined;
      continue;
    }
    const atx = /^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(rest);
    if (atx) {
      const text = atx[2] === undefined || /^#+$/.test(atx[2]) ? '' : atx[2];
      headings.push({ level: atx[1]!.length, text: headingText(text, labels), first: row });
      paragraph = undefined;
      continue;
    }
    const underline = /^(=+|-+)[ \t]*$/.exec(rest);
    // Link reference definitions (`[x]: /url`) starting a paragraph are no text of it.
    while (underline && paragraph !== undefined && paragraph < row && LINK_DEFINITION.test(lines[paragraph]!)) {
      paragraph++;
    }
    if (paragraph === row) paragraph = undefined;
    if (underline && paragraph !== undefined) {
      const text = lines
        .slice(paragraph, row)
        .map((l) => l.trim())
        .join(' ');
      headings.push({ level: underline[1]![0] === '=' ? 1 : 2, text: headingText(text, labels), first: paragraph });
      paragraph = undefined;
      continue;
    }
    if (/^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/.test(rest)) {
      paragraph = undefined;
      continue;
    }
    const canStart = (interrupts: boolean) => interrupts || paragraph === undefined;
    const html = HTML_STARTS.find(([start, , interrupts]) => canStart(interrupts) && start.test(rest));
    if (html) {
      const [, end] = html;
      if (end === 'blank' || !end.test(line.slice(line.search(/</) + 1))) open = { kind: 'html', end };
      paragraph = undefined;
      continue;
    }
    if (/^>/.test(rest)) {
      open = { kind: 'quote' };
      paragraph = innerParagraph(rest.replace(/^> ?/, ''), undefined, row, open);
      continue;
    }
    const item = listItem(rest, indent, paragraph !== undefined);
    if (item !== undefined) {
      open = { kind: 'item', indent: item };
      paragraph = innerParagraph(itemContent(line, item), undefined, row, open);
      continue;
    }
    paragraph ??= row;
  }
  return headings;
}

/** When `rest` (a line less its indentation) opens a fenced code block, the pattern of the line that closes it. */
function closingFence(rest: string): RegExp | undefined {
  const fence = /^(`{3,}|~{3,})(.*)$/.exec(rest);
  // A backtick fence's info string holds no backtick (that is inline code).
  if (!fence || (fence[1]![0] === '`' && fence[2]!.includes('`'))) return undefined;
  return new RegExp(`^${fence[1]![0]}{${fence[1]!.length},}[ \\t]*$`);
}

/** The row after a YAML front matter block (`---` on the first line to `---` or `...`), which is no Markdown. */
function frontMatterEnd(lines: readonly string[]): number {
  if (!/^---[ \t]*$/.test(lines[0] ?? '')) return 0;
  const end = lines.findIndex((line, i) => i > 0 && /^(?:---|\.\.\.)[ \t]*$/.test(line));
  return end === -1 ? 0 : end + 1;
}

/** `line` less its indentation: spaces and tabs only (a no-break space is text to Markdown). */
function unindented(line: string): string {
  return line.replace(/^[ \t]+/, '');
}

/** Columns of leading white space, a tab to the next multiple of 4. */
function indentOf(line: string): number {
  let column = 0;
  for (const c of line) {
    if (c === ' ') column++;
    else if (c === '\t') column += 4 - (column % 4);
    else break;
  }
  return column;
}

/**
 * Whether a line (`rest`, its indentation removed) starts a block rather than continuing a
 * paragraph's text: `interrupting` that paragraph, in its container, or (false) after a
 * container it is not in (then an empty list item, or one numbered other than 1, may start).
 */
function startsBlock(rest: string, indent: number, interrupting: boolean): boolean {
  if (indent >= 4) return false;
  return (
    /^(?:#{1,6}(?:[ \t]|$)|`{3,}[^`]*$|~{3,}|>|(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$)/.test(rest) ||
    listItem(rest, indent, interrupting) !== undefined ||
    HTML_STARTS.some(([start, , interrupts]) => interrupts && start.test(rest))
  );
}

/**
 * The paragraph open after a line of a block quote or list item (`content`, the container's
 * marker or indentation removed), for the lazy continuation lines that may follow it: the
 * first row of the paragraph its innermost content continues or starts, or undefined.
 * Blocks nested deeper are not followed further (their headings are not listed either).
 */
function innerParagraph(
  content: string,
  paragraph: number | undefined,
  row: number,
  container: Content,
): number | undefined {
  if (container.fence) {
    if (indentOf(content) < 4 && container.fence.test(unindented(content))) container.fence = undefined;
    return undefined;
  }
  for (;;) {
    const indent = indentOf(content);
    const rest = unindented(content);
    if (rest === '') return undefined;
    if (indent >= 4) return paragraph; // indented code, or the paragraph's continuation
    const item = rest.startsWith('>') ? 0 : listItem(rest, indent, paragraph !== undefined);
    if (item === undefined) break;
    const inner = item === 0 ? rest.replace(/^> ?/, '') : itemContent(content, item);
    // Each turn takes a marker off; one that did not is no container (never loop on it).
    if (unindented(inner).length >= rest.length) break;
    content = inner;
    paragraph = undefined;
  }
  const rest = unindented(content);
  container.fence = closingFence(rest);
  if (container.fence) return undefined;
  const setext = paragraph !== undefined && /^(?:=+|-+)[ \t]*$/.test(rest);
  const htmlBlock = paragraph === undefined && HTML_STARTS.some(([start]) => start.test(rest));
  const block = startsBlock(rest, indentOf(content), paragraph !== undefined) || setext || htmlBlock;
  return block ? undefined : (paragraph ?? row);
}

/** The content of a list item on the line that starts it: `line` less its marker and its content's indentation. */
function itemContent(line: string, indent: number): string {
  const asSpaces = (_: string, space: string, marker: string) => space + ' '.repeat(marker.length);
  const unmarked = line.replace(/^([ \t]*)([-+*]|\d{1,9}[.)])/, asSpaces);
  return dropColumns(unmarked, indent);
}

/** `line` less its first `columns` columns of indentation (a tab counts to the next multiple of 4). */
function dropColumns(line: string, columns: number): string {
  let column = 0;
  let i = 0;
  for (; i < line.length && column < columns; i++) {
    if (line[i] === ' ') column++;
    else if (line[i] === '\t') column += 4 - (column % 4);
    else break;
  }
  return ' '.repeat(Math.max(0, column - columns)) + line.slice(i);
}

/**
 * The indentation of a list item's content when `rest` starts one (`- `, `* `, `+ `, `1. `,
 * `1) `), else undefined. Interrupting a paragraph, an item must hold text, and a numbered
 * one start at 1.
 */
function listItem(rest: string, indent: number, interrupting: boolean): number | undefined {
  const m = /^(?:[-+*]|(\d{1,9})[.)])([ \t]+|$)(.*)$/.exec(rest);
  if (!m) return undefined;
  if (interrupting && (m[3]!.trim() === '' || (m[1] !== undefined && Number(m[1]) !== 1))) return undefined;
  const marker = rest.length - m[2]!.length - m[3]!.length;
  const spaces = m[2]!.length;
  return indent + marker + (spaces >= 1 && spaces <= 4 && m[3] !== '' ? spaces : 1);
}

/** A code span: its content is taken as it is. */
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;

/** A backslash escape: the character itself, taken as it is. */
const ESCAPE = /\\([!-/:-@[-`{-~])/g;

/** A link or an image: `[text](url)`, `[text][label]`, `[label]`. */
const LINK = /(!?)\[([^\]]*)\](?:\(([^)]*)\)|\[([^\]]*)\])?/g;

/** Stands for a piece taken as it is while the rest is read: two private-use characters around its index. */
const HELD = /\uE000(\d+)\uE001/g;

/**
 * A heading's text as it reads rendered: code spans and links by their text, images, HTML
 * tags and comments, emphasis marks and backslashes gone, a few entities decoded. Not
 * trimmed: an image first leaves a space first, which GitHub's anchor keeps (`-project`).
 */
function headingText(source: string, labels: ReadonlySet<string>): string {
  const held: string[] = [];
  const hold = (literal: string): string => `\uE000${held.push(literal) - 1}\uE001`;
  let text = source
    .replace(CODE_SPAN, (_, __, code: string) => hold(code.replace(/^ ([\s\S]*[^ ][\s\S]*) $/, '$1')))
    .replace(ESCAPE, (_, literal: string) => hold(literal))
    // `[text](url)` is a link; `[text][label]`, `[label][]` and `[label]` only when the file defines that label.
    .replace(LINK, (whole, image: string, inside: string, url?: string, label?: string) => {
      const link = url !== undefined || labels.has(normalLabel(label || inside));
      return !link ? whole : image ? '' : inside;
    })
    .replace(/<([A-Za-z][A-Za-z0-9+.-]*:[^\s<>]*)>/g, '$1')
    .replace(new RegExp(`${TAG}|<!--[\\s\\S]*?-->`, 'g'), '');
  // Emphasis marks in pairs (nested ones, one level a pass); `_` only at the edges of words.
  for (let pass = 0; pass < 3; pass++) {
    text = text
      .replace(/(?<![\p{L}\p{N}])(__|_)(?=\S)(.+?)(?<=\S)\1(?![\p{L}\p{N}])/gu, '$2')
      .replace(/(\*\*|\*)(?=\S)(.+?)(?<=\S)\1/g, '$2');
  }
  return text
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(HELD, (_, index: string) => held[Number(index)]!);
}

/** A link label as references match it: case and runs of white space do not count. */
function normalLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  nbsp: '\u00a0',
};

/**
 * GitHub's anchors for headings (those of github-slugger): lowercase; every character but
 * letters, marks, digits, `_`, `-` and spaces removed; spaces to `-`; a repeated anchor gets
 * `-1`, `-2`… (one already taken is skipped).
 */
export class Anchors {
  private readonly taken = new Map<string, number>();

  next(text: string): string {
    const base = anchorOf(text);
    let anchor = base;
    while (this.taken.has(anchor)) {
      const count = this.taken.get(base)! + 1;
      this.taken.set(base, count);
      anchor = `${base}-${count}`;
    }
    this.taken.set(anchor, 0);
    return anchor;
  }
}

export function anchorOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/(?![\p{Alphabetic}\p{Pc} -])[\p{No}\p{P}\p{S}\p{C}\p{Z}]/gu, '')
    .replace(/ /g, '-');
}
