// Collects the figures every stress scenario recorded and prints them as one table when the run
// ends; `npm run stress` (RT_STRESS_RESULTS) also writes them to test/stress/results/latest.json.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { FULL, SEED } from './config.js';
import { renderTable, type Row } from './figures.js';

export default function setup(project: TestProject): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-stress-figures-'));
  project.provide('figuresDir', dir);
  return () => {
    const rows: Row[] = [];
    for (const name of fs.readdirSync(dir)) {
      for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n'))
        if (line) rows.push(JSON.parse(line) as Row);
    }
    fs.rmSync(dir, { recursive: true, force: true });
    if (rows.length === 0) return;
    rows.sort((a, b) => (a.scenario < b.scenario ? -1 : a.scenario > b.scenario ? 1 : 0));
    const form = FULL ? 'full' : 'quick';
    console.log(`\nrt reliability figures (${form} form, seed ${SEED}; every count must be 0)\n${renderTable(rows)}\n`);
    // Only `npm run stress` (the whole full form) keeps its figures: a run of some scenarios does not replace them.
    const results = process.env.RT_STRESS_RESULTS;
    if (FULL && results) {
      const out = path.resolve(results);
      const doc = {
        form,
        seed: SEED,
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        rows,
      };
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
      console.log(`written to ${path.relative(process.cwd(), out)}`);
    }
  };
}
