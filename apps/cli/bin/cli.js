#!/usr/bin/env node
'use strict';
/**
 * The operator CLI's launcher (`npm run cli`, `migrate`, `seed:*`, `reports:rebuild`): runs the
 * built CLI, building first (`nest build api`, its output on stderr so stdout stays JSON) only
 * when dist is missing or a source is newer than it. A second run with nothing changed starts at
 * once. CLI_SKIP_BUILD=1 runs dist as it is.
 */
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..', '..', '..');
const entry = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The first source (TypeScript under apps/ and libs/, the build's configuration) newer than `than`, if any. */
function newerSource(than) {
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'nest-cli.json']) if ((mtime(join(root, file)) ?? 0) > than) return file;
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
        const found = walk(path);
        if (found) return found;
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && (mtime(path) ?? 0) > than) return path;
    }
    return undefined;
  };
  return walk(join(root, 'apps')) ?? walk(join(root, 'libs'));
}

if (process.env.CLI_SKIP_BUILD !== '1') {
  const built = mtime(entry);
  const stale = built === undefined ? 'no build yet' : newerSource(built);
  if (stale) {
    process.stderr.write(`cli: building first (${built === undefined ? stale : `${stale.replace(root + '/', '')} changed`}): npm run build\n`);
    const nest = require.resolve('@nestjs/cli/bin/nest.js', { paths: [root] });
    const res = spawnSync(process.execPath, [nest, 'build', 'api'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (res.status !== 0) {
      process.stderr.write(`cli: the build failed (exit ${res.status ?? res.signal}); fix it, or run the last build with CLI_SKIP_BUILD=1\n`);
      process.exit(res.status || 1);
    }
  }
}
require(entry);
