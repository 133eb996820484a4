// The WebAssembly modules rt carries in base64 are src/model/wasm/*.wat as assembled now (by
// scripts/wasm.mjs, which writes them there): a .wat changed without it fails here.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAIMS_WASM } from '../../src/model/wasmClaims.js';
import { DIGEST_WASM } from '../../src/model/wasmDigest.js';
import { SCAN_WASM } from '../../src/model/wasmHash.js';
import { LINES_WASM } from '../../src/model/wasmLines.js';
import { RECORDS_WASM } from '../../src/model/wasmRecords.js';
import { TABLE_WASM } from '../../src/model/wasmTable.js';

describe('the WebAssembly modules', () => {
  for (const [wat, held] of [
    ['lines.wat', LINES_WASM],
    ['records.wat', RECORDS_WASM],
    ['claims.wat', CLAIMS_WASM],
    ['scan.wat', SCAN_WASM],
    ['digest.wat', DIGEST_WASM],
    ['table.wat', TABLE_WASM],
  ] as const) {
    it(`${wat} is what it assembles to`, async () => {
      const { default: wabt } = await import('wabt');
      const source = fs.readFileSync(path.join(import.meta.dirname, '../../src/model/wasm', wat), 'utf8');
      const module = (await wabt()).parseWat(wat, source, { simd: true });
      expect(Buffer.from(module.toBinary({}).buffer).toString('base64')).toBe(held);
    });
  }
});
