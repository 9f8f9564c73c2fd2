// The pixels of a PNG screenshot, decoded by the browser through a canvas (no PNG library), for
// the browser tests' checks of what a page drew (view_test.mjs, rating_test.mjs).

/// The RGBA pixels of `png` (a Buffer), decoded in a fresh page of `browser`: { width, height,
/// data }, data a Uint8Array of 4 bytes a pixel, rows top to bottom.
export async function readPixels(browser, png) {
  const page = await browser.newPage();
  try {
    const { width, height, base64 } = await page.evaluate(async (dataUrl) => {
      const img = new Image();
      img.src = dataUrl;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d');
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      // Back to Node as base64 of the bytes: a JSON array of millions of numbers is far slower.
      let s = '';
      for (let i = 0; i < d.length; i += 0x8000) s += String.fromCharCode.apply(null, d.subarray(i, i + 0x8000));
      return { width: c.width, height: c.height, base64: btoa(s) };
    }, 'data:image/png;base64,' + png.toString('base64'));
    return { width, height, data: new Uint8Array(Buffer.from(base64, 'base64')) };
  } finally {
    await page.close();
  }
}

/// The [r, g, b] of the pixel nearest (x, y); outside the picture, transparent black as a
/// canvas reads it: [0, 0, 0].
export function colourAt(pixels, x, y) {
  const px = Math.round(x), py = Math.round(y);
  if (px < 0 || py < 0 || px >= pixels.width || py >= pixels.height) return [0, 0, 0];
  const i = 4 * (py * pixels.width + px);
  return [pixels.data[i], pixels.data[i + 1], pixels.data[i + 2]];
}
