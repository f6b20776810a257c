#!/usr/bin/env node
/**
 * After `npm install <pkg>`, npm drops the lock entries of the optional
 * @msgpackr-extract/* platform packages that this registry mirror does not serve, and `npm ci`
 * then refuses the lock. This copies those entries back from the committed lock (HEAD).
 * Run it after any `npm install` that changes package-lock.json.
 */
const fs = require('node:fs');
const { execSync } = require('node:child_process');

const committed = JSON.parse(execSync('git show HEAD:package-lock.json', { maxBuffer: 1e8 }).toString());
const current = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
let restored = 0;
for (const [path, entry] of Object.entries(committed.packages)) {
  if (path.includes('@msgpackr-extract/') && JSON.stringify(current.packages[path]) !== JSON.stringify(entry)) {
    current.packages[path] = entry;
    restored++;
  }
}
fs.writeFileSync('package-lock.json', JSON.stringify(current, null, 2) + '\n');
console.log(`restored ${restored} platform entr${restored === 1 ? 'y' : 'ies'}`);
