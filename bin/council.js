#!/usr/bin/env node
// The operator CLI (`npx council …`). Runs the TypeScript sources with Node's type stripping.
await import('../src/cli.ts');
