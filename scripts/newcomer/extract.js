#!/usr/bin/env node
// Prints the quickstart commands of one guide exactly as the docs write them: every fenced
// ```bash block that directly follows a `<!-- newcomer: <guide> -->` comment, in README.md and
// docs/*.md (README first, then the docs in name order), in the order they appear. A block after
// `<!-- newcomer: <guide> file=<name> -->` (any language) is the file the docs tell the reader to
// save: it is written to <name> in the working directory at that point, then used as the text says.
// Usage: node scripts/newcomer/extract.js <guide> [root]   (--list: the guides that have blocks)
//        node scripts/newcomer/extract.js <guide> [root] --split <dir>   (one file per block, in order)
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const argv = process.argv.slice(2);
const splitAt = argv.indexOf('--split');
const splitDir = splitAt >= 0 ? argv.splice(splitAt, 2)[1] : undefined;
const [arg, rootArg] = argv;
const root = path.resolve(rootArg ?? path.join(__dirname, '..', '..'));
const docs = path.join(root, 'docs');
const files = [path.join(root, 'README.md')].concat(
  fs
    .readdirSync(docs)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => path.join(docs, f)),
);

const blocks = []; // { guide, file, line, code }
for (const file of files) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const marker = /^<!-- newcomer: ([a-z0-9-]+)(?: file=([\w.-]+))? -->\s*$/.exec(lines[i]);
    if (!marker) continue;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === '') j++;
    const saveAs = marker[2];
    if (saveAs ? !/^```\w*$/.test(lines[j] ?? '') : lines[j] !== '```bash') {
      console.error(`${path.relative(root, file)}:${i + 1}: the marker is not followed by a ${saveAs ? 'fenced' : '```bash'} block`);
      process.exit(2);
    }
    const end = lines.indexOf('```', j + 1);
    if (end < 0) {
      console.error(`${path.relative(root, file)}:${j + 1}: unterminated code block`);
      process.exit(2);
    }
    const text = lines.slice(j + 1, end).join('\n');
    if (saveAs && text.split('\n').includes('NEWCOMER_EOF')) {
      console.error(`${path.relative(root, file)}:${j + 1}: the block contains the heredoc delimiter`);
      process.exit(2);
    }
    const code = saveAs ? `cat > ${saveAs} <<'NEWCOMER_EOF'\n${text}\nNEWCOMER_EOF` : text;
    blocks.push({ guide: marker[1], file: path.relative(root, file), line: j + 2, code });
    i = end;
  }
}

if (arg === '--list') {
  console.log([...new Set(blocks.map((b) => b.guide))].join('\n'));
  process.exit(0);
}
const mine = blocks.filter((b) => b.guide === arg);
if (!arg || mine.length === 0) {
  console.error(`no quickstart blocks for "${arg ?? ''}" (guides: ${[...new Set(blocks.map((b) => b.guide))].join(', ')})`);
  process.exit(2);
}
if (splitDir) {
  fs.mkdirSync(splitDir, { recursive: true });
  mine.forEach((b, n) => fs.writeFileSync(path.join(splitDir, `${String(n + 1).padStart(2, '0')}.sh`), `# ${b.file}:${b.line}\n${b.code}\n`));
} else {
  for (const b of mine) process.stdout.write(`# --- ${b.file}:${b.line}\n${b.code}\n`);
}
