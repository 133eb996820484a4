// Loads the MCP SDK (sdk.ts) when rt mcp starts. Run from the sources (tests), this imports
// sdk.ts; the build replaces this file, in dist/rt.cjs, by one that loads dist/mcp.cjs
// (scripts/build.mjs), so nothing of the SDK is in the bundle every command starts.

export type Sdk = typeof import('./sdk.js');

export async function loadSdk(): Promise<Sdk> {
  return import('./sdk.js');
}
