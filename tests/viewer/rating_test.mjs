// Browser test of the rating pages (docs/rate.md): rating.html and the comparison page of
// `slidecheck rate --compare` load in Debian's Chromium without errors or network requests, and
// their envelope heat maps render: every cell is laid out with a size, and the pixel at each
// cell's corner has the colour the cell was given (safe green, orange to red, grey).
// Usage: node rating_test.mjs NODE_MODULES CHROMIUM OUT_DIR PAGE...
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';
import { colourAt, readPixels } from './pixels.mjs';

const [nodeModules, chromiumPath, outDir, ...pages] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(nodeModules), 'x.js'));
const { chromium } = require('playwright-core');
let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
fs.mkdirSync(outDir, { recursive: true });

function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

for (const file of pages) {
  const name = path.basename(path.dirname(file)) + '/' + path.basename(file);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
  page.on('request', (r) => { if (!/^(file|data):/.test(r.url())) errors.push('network request: ' + r.url()); });
  await page.goto('file://' + path.resolve(file));
  const maps = await page.$$('svg.envelope');
  check(maps.length > 0, `${name}: ${maps.length} envelope heat map(s)`);
  const cells = await page.$$eval('svg.envelope rect[data-state]', (rects) => rects.map((r) => {
    const b = r.getBoundingClientRect();
    return { x: b.x + window.scrollX, y: b.y + window.scrollY, w: b.width, h: b.height,
             fill: r.getAttribute('fill'), state: r.getAttribute('data-state') };
  }));
  check(cells.length > 0 && cells.every((c) => c.w > 20 && c.h > 10),
        `${name}: ${cells.length} cells laid out with a size`);
  const states = new Set(cells.map((c) => c.state));
  check(states.has('safe') || states.has('failing'), `${name}: judged cells present (${[...states].join(', ')})`);
  // Pixels: a full-page screenshot, each cell sampled near its corner.
  const png = await page.screenshot({ fullPage: true, path: path.join(outDir, name.replace('/', '-') + '.png') });
  const pixels = await readPixels(browser, png);
  const sampled = cells.map((c) => colourAt(pixels, c.x + 5, c.y + 5));
  let wrong = 0;
  cells.forEach((c, i) => {
    const want = hexToRgb(c.fill), got = sampled[i];
    if (Math.abs(want[0] - got[0]) + Math.abs(want[1] - got[1]) + Math.abs(want[2] - got[2]) > 12) {
      if (wrong++ < 3) console.log(`  cell ${i} (${c.state}): drawn ${got}, given ${c.fill}`);
    }
  });
  check(wrong === 0, `${name}: every cell drawn in its colour (${cells.length - wrong} of ${cells.length})`);
  check(errors.length === 0, `${name}: no console errors or network requests` + (errors.length ? ': ' + errors.join('; ') : ''));
  await page.close();
}
await browser.close();
console.log(failures === 0 ? 'ok' : `${failures} check(s) failed`);
process.exit(failures === 0 ? 0 : 1);
