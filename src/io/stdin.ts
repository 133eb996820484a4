// Reading the text of an edit from standard input, byte for byte.

import fs from 'node:fs';
import { RtError } from '../core/errors.js';
import { isTerminal } from './output.js';

export interface StdinSource {
  readonly isTTY: boolean;
  read(): Buffer;
}

export const processStdin: StdinSource = {
  get isTTY() {
    return isTerminal(0);
  },
  read() {
    const chunks: Buffer[] = [];
    const buf = Buffer.allocUnsafe(1 << 16);
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(0, buf, 0, buf.length, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') continue; // a non-blocking pipe with nothing yet
        if (code === 'EOF' || code === 'EBADF' || code === 'ENXIO') break; // no stdin at all
        throw new RtError('input', `cannot read standard input (${code ?? String(error)})`, ["give the text as a quoted heredoc: <<'EOF'"]);
      }
      if (n === 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(chunks);
  },
};

/** The text piped to an edit; refuses a terminal or empty stdin with the heredoc form. */
export function readEditText(stdin: StdinSource, command: string): Buffer {
  const usage = [`give the new text as a quoted heredoc:`, `  ${command} <<'EOF'`, '  …new lines…', '  EOF', 'to remove lines, use: rt delete PATH FROM [TO]'];
  if (stdin.isTTY) throw new RtError('input', 'the new text comes from standard input, which is a terminal', usage);
  const text = stdin.read();
  if (text.length === 0) throw new RtError('input', 'standard input is empty: no text to write', usage);
  return text;
}
