// Assembles src/model/wasm/*.wat (wabt, SIMD on) and writes each module's base64 into the
// constant that holds it: `node scripts/wasm.mjs` after changing a .wat file. The tests
// (test/model/wasmAssembled.test.ts) assemble them again and fail when a constant is stale.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const modules = [
  ['lines.wat', 'src/model/wasmLines.ts', 'LINES_WASM'],
  ['records.wat', 'src/model/wasmRecords.ts', 'RECORDS_WASM'],
  ['claims.wat', 'src/model/wasmClaims.ts', 'CLAIMS_WASM'],
  ['scan.wat', 'src/model/wasmHash.ts', 'SCAN_WASM'],
  ['digest.wat', 'src/model/wasmDigest.ts', 'DIGEST_WASM'],
  ['table.wat', 'src/model/wasmTable.ts', 'TABLE_WASM'],
];
const tools = await wabt();
for (const [wat, holder, name] of modules) {
  const source = fs.readFileSync(path.join(root, 'src/model/wasm', wat), 'utf8');
  const module = tools.parseWat(wat, source, { simd: true });
  module.validate();
  const base64 = Buffer.from(module.toBinary({}).buffer).toString('base64');
  const file = path.join(root, holder);
  const text = fs.readFileSync(file, 'utf8');
  const pattern = new RegExp(`(export const ${name} =\\s*')[A-Za-z0-9+/=]*(';)`);
  if (!pattern.test(text)) throw new Error(`${holder} holds no ${name}`);
  fs.writeFileSync(file, text.replace(pattern, `$1${base64}$2`));
  console.log(`${wat}: ${Buffer.byteLength(base64, 'base64')} bytes into ${holder} (${name})`);
}
