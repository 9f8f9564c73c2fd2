// The limits slidecheck puts on a request, taken from the one place they are set,
// formats::max_frames in formats/include/slidecheck/formats/query_io.hpp. The build writes them
// beside this module as limits.json (peers/node_peers.cmake); run from the source tree, as the
// module tests are, they are read from that header.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = new URL('./limits.json', import.meta.url);
const header = new URL('../../formats/include/slidecheck/formats/query_io.hpp', import.meta.url);

function load() {
  if (existsSync(built)) return JSON.parse(readFileSync(built, 'utf8'));
  if (existsSync(header)) {
    const m = /inline constexpr int max_frames = (\d+);/.exec(readFileSync(header, 'utf8'));
    if (m) return { max_frames: Number(m[1]) };
  }
  throw new Error(`slidecheck's request limits are missing: neither ${fileURLToPath(built)} (written by the build) ` +
    `nor formats::max_frames in ${fileURLToPath(header)}`);
}

const limits = load();
if (!Number.isInteger(limits.max_frames) || limits.max_frames < 1)
  throw new Error(`slidecheck's request limits: max_frames must be a positive integer, got ${limits.max_frames}`);

/** The most frames a query may ask for (formats::max_frames). */
export const MAX_FRAMES = limits.max_frames;
