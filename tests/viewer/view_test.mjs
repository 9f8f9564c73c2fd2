// Browser test of `slidecheck view` (docs/view.md), in Debian's Chromium driven by
// playwright-core: the page of a known case loads without console errors, renders it (checked
// by its colours and by a coarse comparison with a reference picture, not by eye), and clicking
// a trace row moves the view there; a verify report's views load too.
// Usage: node view_test.mjs NODE_MODULES CHROMIUM CASE_PAGE REFERENCE_JSON OUT_DIR CAPSULE_PAGE [REPORT_DIR...]
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';
import { readPixels } from './pixels.mjs';

const [nodeModules, chromiumPath, casePage, referencePath, outDir, capsulePage, ...reportDirs] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(nodeModules), 'x.js'));
const { chromium } = require('playwright-core');
let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
}

// Software GL (SwiftShader): the same pixels on every machine without a GPU.
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});

async function openPage(file) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push('pageerror: ' + e.message));
  page.on('requestfailed', (r) => errors.push('request failed: ' + r.url()));
  page.on('request', (r) => { if (!/^(file|blob|data):/.test(r.url())) errors.push('network request: ' + r.url()); });
  await page.goto('file://' + path.resolve(file));
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page, errors };
}

/// Colour statistics of a PNG: the share of white, orange, blue, red and other pixels, and the
/// mean colour of each block of a 12 x 8 grid.
async function pixelStats(png) {
  const { width, height, data: d } = await readPixels(browser, png);
  let white = 0, orange = 0, blue = 0, red = 0, other = 0;
  const bw = 12, bh = 8, blocks = new Array(bw * bh * 3).fill(0), counts = new Array(bw * bh).fill(0);
  for (let y = 0; y < height; ++y)
    for (let x = 0; x < width; ++x) {
      const i = 4 * (y * width + x), r = d[i], g = d[i + 1], b = d[i + 2];
      if (r > 245 && g > 245 && b > 245) white++;
      else if (r > 200 && g > 90 && g < 200 && b < 170 && r - b > 60) orange++;
      else if (b > 150 && b - r > 60) blue++;
      else if (r > 170 && g < 110 && b < 110) red++;
      else other++;
      const k = Math.floor((y * bh) / height) * bw + Math.floor((x * bw) / width);
      blocks[3 * k] += r; blocks[3 * k + 1] += g; blocks[3 * k + 2] += b; counts[k]++;
    }
  const n = width * height;
  return {
    width, height,
    white: white / n, orange: orange / n, blue: blue / n, red: red / n, other: other / n,
    blocks: blocks.map((v, i) => Math.round(v / counts[Math.floor(i / 3)])),
  };
}

fs.mkdirSync(outDir, { recursive: true });

// 1. The page of a known case.
{
  const { page, errors } = await openPage(casePage);
  const view = await page.evaluate(() => ({ errors: window.slidecheckView.errors, steps: document.querySelectorAll('#trace tbody tr').length }));
  check(errors.length === 0 && view.errors.length === 0, `loads without console errors (${errors.concat(view.errors).join('; ') || 'none'})`);
  check(view.steps > 0, `lists the trace (${view.steps} steps)`);
  const png = await page.locator('#picture canvas').screenshot();
  fs.writeFileSync(path.join(outDir, 'whole.png'), png);
  const stats = await pixelStats(png);
  fs.writeFileSync(path.join(outDir, 'whole.json'), JSON.stringify(stats));
  console.log(`     picture ${stats.width}x${stats.height}: white ${stats.white.toFixed(3)}, orange ${stats.orange.toFixed(4)}, blue ${stats.blue.toFixed(4)}, red ${stats.red.toFixed(4)}, other ${stats.other.toFixed(4)}`);
  check(stats.white > 0.5 && stats.white < 0.995, 'draws something on a white background');
  check(stats.blue > 0.002, 'draws the exact (ideal) run in blue');
  check(stats.orange + stats.red > 0.0005, 'draws the float run and the divergence in orange and red');
  if (process.env.UPDATE_REFERENCE) {
    fs.writeFileSync(referencePath, JSON.stringify({ width: stats.width, height: stats.height, blocks: stats.blocks }) + '\n');
    console.log(`     wrote the reference ${referencePath}`);
  }
  const reference = JSON.parse(fs.readFileSync(referencePath, 'utf8'));
  let diff = 0;
  for (let i = 0; i < reference.blocks.length; ++i) diff += Math.abs(reference.blocks[i] - stats.blocks[i]);
  diff /= reference.blocks.length;
  check(reference.width === stats.width && reference.height === stats.height && diff < 6,
        `matches the reference picture block by block (mean difference ${diff.toFixed(2)} of 255, limit 6)`);

  // 2. Clicking the first divergent step's row moves the view there, down to its scale.
  const before = await page.evaluate(() => ({ camera: window.slidecheckView.camera(), size: window.slidecheckView.viewSize() }));
  await page.click('#trace tbody tr.divergent');
  const after = await page.evaluate(() => ({ camera: window.slidecheckView.camera(), size: window.slidecheckView.viewSize(),
                                              selected: window.slidecheckView.selectedStep,
                                              detail: document.getElementById('detail').textContent,
                                              row: document.querySelector('#trace tbody tr.selected')?.dataset.step }));
  const moved = Math.hypot(...before.camera.map((x, i) => x - after.camera[i]));
  check(moved > before.size * 0.1, `clicking the divergent row moves the camera (${moved.toExponential(3)})`);
  check(after.size < before.size * 1e-3, `and zooms to the divergence (view ${before.size.toExponential(2)} -> ${after.size.toExponential(2)} wide)`);
  check(String(after.selected) === after.row && after.detail.includes('part ways'), `selects row ${after.row} and shows its exact check`);
  const zoomed = await pixelStats(await page.locator('#picture canvas').screenshot());
  check(zoomed.white < 0.999, `the zoomed picture is not empty (white ${zoomed.white.toFixed(3)})`);
  await page.click('#trace tbody tr:first-child');
  const other = await page.evaluate(() => window.slidecheckView.camera());
  check(Math.hypot(...other.map((x, i) => x - after.camera[i])) > 0, 'clicking another row moves the view again');
  await page.click('#btn-scene');
  const whole = await page.evaluate(() => window.slidecheckView.viewSize());
  check(Math.abs(whole - before.size) <= before.size * 1e-9, '"Whole case" goes back to the whole case');
  const late = await page.evaluate(() => window.slidecheckView.errors);
  check(errors.length === 0 && late.length === 0, `no console errors after the clicks (${errors.concat(late).join('; ') || 'none'})`);
  await page.close();
}

// 3. A capsule case (another implementation's): the capsule is drawn at every position, so
// hiding the bodies changes the picture; its failing step can be selected.
{
  const { page, errors } = await openPage(capsulePage);
  const facts = await page.evaluate(() => document.getElementById('facts').textContent);
  check(facts.includes('capsule') && facts.includes('half axis (0, 0, 0.5)'), `names the capsule in its facts (${facts})`);
  const capsulePng = await page.locator('#picture canvas').screenshot();
  fs.writeFileSync(path.join(outDir, 'capsule.png'), capsulePng);
  const withBodies = await pixelStats(capsulePng);
  await page.click('#show-spheres');
  const without = await pixelStats(await page.locator('#picture canvas').screenshot());
  let changed = 0;
  for (let i = 0; i < without.blocks.length; ++i) changed += Math.abs(without.blocks[i] - withBodies.blocks[i]);
  changed /= without.blocks.length;
  check(changed > 0.2 && without.white > withBodies.white,
        `draws the capsules (hiding them changes the picture by ${changed.toFixed(2)} of 255 per block, white ${withBodies.white.toFixed(3)} -> ${without.white.toFixed(3)})`);
  await page.click('#show-spheres');
  await page.click('#trace tbody tr:last-child');
  const selected = await page.evaluate(() => ({ step: window.slidecheckView.selectedStep, errors: window.slidecheckView.errors }));
  check(selected.step === 1, `selects the failing position (step ${selected.step})`);
  check(errors.length === 0 && selected.errors.length === 0, `no console errors (${errors.concat(selected.errors).join('; ') || 'none'})`);
  await page.close();
}

// 4. verify and eps-sweep reports link their worst cases to views that load.
for (const reportDir of reportDirs) {
  const html = fs.readFileSync(path.join(reportDir, 'report.html'), 'utf8');
  const links = [...html.matchAll(/href="(views\/[^"]+\.html)"/g)].map((m) => m[1]);
  check(links.length > 0, `${path.basename(reportDir)}/report.html links ${links.length} views`);
  const missing = links.filter((l) => !fs.existsSync(path.join(reportDir, l)));
  check(missing.length === 0, `every linked view exists (${missing.join(', ') || 'all'})`);
  if (links.length) {
    const { page, errors } = await openPage(path.join(reportDir, links[0]));
    const viewErrors = await page.evaluate(() => window.slidecheckView.errors);
    check(errors.length === 0 && viewErrors.length === 0, `${links[0]} loads with the shared three.js, no errors (${errors.join('; ') || 'none'})`);
    await page.close();
  }
}

await browser.close();
console.log(failures === 0 ? 'ok' : `${failures} checks failed`);
process.exit(failures === 0 ? 0 : 1);
