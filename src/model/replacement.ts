// The replacement text of `rt replace`, read as ripgrep reads its --replace: `$1` or `${1}` is a
// capture group by number, `$name` or `${name}` one by name, `$$` a dollar sign. Without braces a
// reference takes the longest run of letters, digits and "_" after the "$" (`$1a` names the group
// "1a", which `${1}a` avoids); a group that does not exist or did not take part in the match
// stands for nothing; a "$" that starts no reference is itself. Groups are copied from the line as
// bytes, so that bytes that are not UTF-8 survive a replacement that moves them.

/** A piece of a replacement: text, or a capture group by number or by name. */
export type ReplacementPart =
  | { readonly kind: 'text'; readonly bytes: Buffer }
  | { readonly kind: 'group'; readonly index: number }
  | { readonly kind: 'name'; readonly name: string };

/** A byte range of a line's content, [start, end). */
export type ByteRange = readonly [number, number];

/** One match in a line's content: its range, and its capture groups' (undefined: the group took no part). */
export interface Captured {
  readonly range: ByteRange;
  /** By number: [1] is the first group ([0], the whole match, is `range`). */
  readonly groups: ReadonlyArray<ByteRange | undefined>;
  readonly named: ReadonlyMap<string, ByteRange | undefined>;
}

/** The pieces of `template`; `literal` (-F) takes it as it is. */
export function parseReplacement(template: string, literal = false): ReplacementPart[] {
  if (literal) return [{ kind: 'text', bytes: Buffer.from(template, 'utf8') }];
  const parts: ReplacementPart[] = [];
  let text = '';
  const flush = () => {
    if (text) parts.push({ kind: 'text', bytes: Buffer.from(text, 'utf8') });
    text = '';
  };
  for (let i = 0; i < template.length; ) {
    const dollar = template.indexOf('$', i);
    if (dollar === -1) {
      text += template.slice(i);
      break;
    }
    text += template.slice(i, dollar);
    if (template[dollar + 1] === '$') {
      text += '$';
      i = dollar + 2;
      continue;
    }
    const ref = referenceAt(template, dollar + 1);
    if (!ref) {
      text += '$';
      i = dollar + 1;
      continue;
    }
    flush();
    parts.push(/^\d+$/.test(ref.name) ? { kind: 'group', index: Number(ref.name) } : { kind: 'name', name: ref.name });
    i = ref.end;
  }
  flush();
  return parts;
}

/** The reference that starts at `at` (just after a "$"): `{name}` or a run of word characters; undefined if none. */
function referenceAt(template: string, at: number): { name: string; end: number } | undefined {
  if (template[at] === '{') {
    // (Only letters, digits and _ name a group in braces, as in ripgrep: ${a-b} is itself.)
    const close = template.indexOf('}', at + 1);
    const name = close === -1 ? '' : template.slice(at + 1, close);
    return /^\w+$/.test(name) ? { name, end: close + 1 } : undefined;
  }
  let end = at;
  while (end < template.length && /[\w]/.test(template[end]!)) end++;
  return end > at ? { name: template.slice(at, end), end } : undefined;
}

/** Whether `parts` refer to no capture group (the replacement is the same for every match). */
export function isPlain(parts: readonly ReplacementPart[]): boolean {
  return parts.every((p) => p.kind === 'text');
}

/** The bytes that replace `match` in `content`. */
export function expandReplacement(parts: readonly ReplacementPart[], content: Buffer, match: Captured): Buffer {
  const out: Buffer[] = [];
  for (const part of parts) {
    const range =
      part.kind === 'text'
        ? undefined
        : part.kind === 'group'
          ? part.index === 0
            ? match.range
            : match.groups[part.index]
          : match.named.get(part.name);
    if (part.kind === 'text') out.push(part.bytes);
    else if (range && Number.isSafeInteger(range[0])) out.push(content.subarray(range[0], range[1]));
  }
  return Buffer.concat(out);
}

/**
 * `content` with each of `matches` (leftmost first, none overlapping) replaced; every byte
 * outside them kept as it is.
 */
export function replaceMatches(
  parts: readonly ReplacementPart[],
  content: Buffer,
  matches: readonly Captured[],
): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (const m of matches) {
    out.push(content.subarray(at, m.range[0]), expandReplacement(parts, content, m));
    at = m.range[1];
  }
  out.push(content.subarray(at));
  return Buffer.concat(out);
}
