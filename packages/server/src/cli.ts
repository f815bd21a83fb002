#!/usr/bin/env node
// The entry point checks the Node.js version before anything else is loaded: the service's native modules
// (better-sqlite3, argon2) and its syntax need the Node.js in package.json `engines`, and an older `node` started by a
// process manager crashed with a segmentation fault instead of saying so (issue 34). So this file has no static import
// of the program: the check runs first, and only a supported Node.js goes on to load it.
import { nodeVersionProblem } from './cli/node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
await import('./commands.js');
