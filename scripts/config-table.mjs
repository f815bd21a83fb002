#!/usr/bin/env node
// Regenerates the configuration table in docs/configuration.md from the Env schema
// (packages/server/src/config/config.ts). Run after `npm run build`.
import fs from 'node:fs';
import { configTableMarkdown } from '../packages/server/dist/config/config-table.js';

const file = new URL('../docs/configuration.md', import.meta.url);
const doc = fs.readFileSync(file, 'utf8');
const [head, rest] = doc.split('<!-- config-table:start -->');
const tail = rest.split('<!-- config-table:end -->')[1];
fs.writeFileSync(
  file,
  `${head}<!-- config-table:start -->\n${configTableMarkdown()}\n<!-- config-table:end -->${tail}`,
);
console.log('docs/configuration.md: configuration table updated');
