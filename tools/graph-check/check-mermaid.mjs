// Parses every Mermaid file named on the command line with mermaid.parse and
// fails on the first one it rejects. Also proves the parser rejects broken
// input, so a no-op parser cannot pass.
import { readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import('mermaid');
mermaid.initialize({ startOnLoad: false });

let failed = 0;
try {
  await mermaid.parse('flowchart LR\n  a[["broken --> \n');
  console.error('self-check: mermaid accepted broken input');
  failed++;
} catch {
  // expected
}
for (const file of process.argv.slice(2)) {
  try {
    const r = await mermaid.parse(readFileSync(file, 'utf8'));
    console.log(`ok ${r.diagramType} ${file}`);
  } catch (e) {
    console.error(`FAIL ${file}: ${String(e.message ?? e).split('\n').slice(0, 3).join(' | ')}`);
    failed++;
  }
}
process.exit(failed ? 1 : 0);
