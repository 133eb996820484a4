// A file's bytes as the text a parser reads. Pure.
//
// The BOM goes (it is not content: see Byte fidelity), and `\r\n` becomes `\n`: some grammars' scanners
// (Python's line continuations, Bash's here-documents) do not take `\r` as part of a line end.
// Both keep rt's line numbers, which count `\n`. Bytes that are not UTF-8 decode to U+FFFD, one
// character each, so they cannot break a line either.

import { BOM } from '../model/lines.js';

export interface Source {
  readonly text: string;
  /** The file's size in bytes, for the size limit. */
  readonly byteLength: number;
}

/** Made when a file is first parsed, not by every run that loads this file. */
let decoder: TextDecoder | undefined;

export function sourceOf(bytes: Uint8Array): Source {
  const bom = bytes.length >= 3 && bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2] ? 3 : 0;
  decoder ??= new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  let text = decoder.decode(bom ? bytes.subarray(bom) : bytes);
  if (text.includes('\r\n')) text = text.replace(/\r\n/g, '\n');
  return { text, byteLength: bytes.length };
}
