/**
 * Renderer bundle sizes of the built app (out/renderer/assets): total and per chunk, raw and gzip. Issue 15 asks
 * for a minified renderer split so that the chart, Compare and Config load on demand; the entry chunk is what
 * the first screen loads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const assets = join(import.meta.dirname, '..', 'out', 'renderer', 'assets');

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

const files = readdirSync(assets)
  .filter((name) => name.endsWith('.js') || name.endsWith('.css'))
  .map((name) => {
    const content = readFileSync(join(assets, name));
    return { name, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
  })
  .sort((a, b) => b.raw - a.raw);
const html = readFileSync(join(assets, '..', 'index.html'), 'utf8');
const entry = files.filter((file) => html.includes(file.name));
const sum = (list: typeof files, key: 'raw' | 'gzip') => list.reduce((total, file) => total + file[key], 0);

console.log(`renderer bundle (${files.length} files in out/renderer/assets):`);
for (const file of files) {
  const tag = html.includes(file.name) ? 'entry' : 'on demand';
  console.log(`  ${file.name.padEnd(36)} ${kb(file.raw).padStart(11)}  gzip ${kb(file.gzip).padStart(10)}  ${tag}`);
}
console.log(
  `  total ${kb(sum(files, 'raw'))} (gzip ${kb(sum(files, 'gzip'))}); loaded at start ${kb(sum(entry, 'raw'))} (gzip ${kb(sum(entry, 'gzip'))})`,
);
