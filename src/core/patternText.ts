// Reading the text of a JavaScript regular expression without compiling it: the one change rt
// makes to it.

/**
 * `source` (a valid pattern) with each "." outside a class written [^\n]: for the pass over a
 * whole file, where "." must match any character of a line (a \r that ends no line, U+2028,
 * U+2029, which JavaScript's "." does not) but never step into the next line.
 */
export function dotWithinLines(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass) {
      // In JavaScript the first "]" ends a class, even right after "[" or "[^".
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else out += c === '.' ? '[^\\n]' : c;
  }
  return out;
}
