// A Node engine client from what is the engine's own: its description, how it builds the world
// of a scene, and a character that sweeps and moves. Everything else is here, the same for every
// engine: the scene cache, the pass loop with its non-finite check, the sweeps reported per pass
// and the answer. An engine module (peers/<folder>/peer.mjs) exports
//
//   async createEngine() -> {
//     info: { name, description, shortName, precisions, tolerances, shapes? },  // describe; refusals
//     sceneKey?(request),           // the cache key of the world a request needs (default: its scene path)
//     buildScene(scene, path, request), // its world of a scene (readScene's { vertices, triangles })
//     freeScene(world),             // releases a world dropped from the cache
//     character(world, request),    // one query's character, see runPasses
//   }
//
// and node-common/client.mjs runs it.
import { readScene } from './scene.mjs';
import { describeAnswer, passesOf, sweepRecord } from './protocol.mjs';
import { vecToHex } from './hexfloat.mjs';
import { SceneCache } from './scene_cache.mjs';

/** Worlds kept built at once (each engine's world of one scene); least recently used dropped first. */
export const SCENE_CACHE_SIZE = 64;

/**
 * Runs a query's passes (per frame the move, then gravity when non-zero) with `character`:
 *   position(): its centre now, [x, y, z];
 *   radius: the sphere's (or the capsule's) radius as the engine holds it;
 *   halfAxis?: a capsule's half axis as the engine holds it (absent for a sphere);
 *   sweep(from, d): the engine's single sweep of its shape from `from` along d, { hit, time, triangle };
 *   move(d, from): one pass of the engine's own collide-and-slide by d, from `from`;
 *   iterations?(): the engine's iteration count of the last move, when it has one;
 *   free?(): releases it once the query is answered.
 * Each pass reports the sweep from its start, then moves; a non-finite centre is an error naming
 * the engine (`shortName`) and the pass. Returns the answer { query_id, positions, sweeps[, iterations] }.
 */
export function runPasses(request, shortName, character) {
  const positions = [character.position()];
  const sweeps = [];
  const shape = character.halfAxis ? { radius: character.radius, halfAxis: character.halfAxis } : character.radius;
  const iterations = character.iterations ? [] : undefined;
  for (const pass of passesOf(request)) {
    const from = positions[positions.length - 1];
    const d = pass.displacement;
    const s = character.sweep(from, d);
    sweeps.push(sweepRecord(from, d.map(Math.fround), shape, s.hit, s.time, s.triangle));
    character.move(d, from);
    const p = character.position();
    if (!p.every(Number.isFinite)) throw new Error(`${shortName} produced a non-finite position in pass ${positions.length}`);
    positions.push(p);
    if (iterations) iterations.push(character.iterations());
  }
  const answer = { query_id: request.id, positions: positions.map(vecToHex), sweeps };
  if (iterations) answer.iterations = iterations;
  return answer;
}

/** The protocol handler (runProtocol's) of an engine made by an engine module's createEngine(). */
export function createPeer(engine, cacheSize = SCENE_CACHE_SIZE) {
  const scenes = new SceneCache(cacheSize, (world) => engine.freeScene(world));
  function query(request) {
    const key = engine.sceneKey ? engine.sceneKey(request) : request.scene;
    const world = scenes.get(key, () => {
      const scene = readScene(request.scene, { allowDegenerate: true }); // slidecheck has validated it already
      return engine.buildScene(scene, request.scene, request);
    });
    const character = engine.character(world, request);
    try {
      return runPasses(request, engine.info.shortName, character);
    } finally {
      if (character.free) character.free();
    }
  }
  return { engine: engine.info, describe: () => describeAnswer(engine.info), query };
}
