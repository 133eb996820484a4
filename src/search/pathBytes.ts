// File names as the system gives them, in bytes. rt names files by strings, which reach the
// system as UTF-8: a name that is not valid UTF-8 cannot be read or written through one (decoded,
// it names another file, or none). Listings set such names aside, so that a search or a find
// can say it left them out instead of dropping them without a word.

import { isUtf8 } from 'node:buffer';

/**
 * The paths of a NUL-separated list (git ls-files -z, rg --null -l); those not valid UTF-8 are
 * added to `undecodable` (decoded, for showing), not to the list.
 */
export function nulSeparatedPaths(out: Buffer, undecodable: string[]): string[] {
  // NUL is ASCII: when the whole list is valid UTF-8, so is every path of it.
  if (isUtf8(out)) {
    const text = out.toString('utf8');
    return text.length ? text.split('\0').filter((p) => p !== '') : [];
  }
  const paths: string[] = [];
  for (let at = 0; at < out.length; ) {
    const nul = out.indexOf(0, at);
    const end = nul === -1 ? out.length : nul;
    const raw = out.subarray(at, end);
    if (raw.length) (isUtf8(raw) ? paths : undecodable).push(raw.toString('utf8'));
    at = end + 1;
  }
  return paths;
}
