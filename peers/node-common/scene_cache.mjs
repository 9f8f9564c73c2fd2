// The worlds a Node client keeps built, one per scene file (and whatever else changes how an
// engine builds it): at most `capacity`, the least recently used dropped first. Building a world
// (an engine's mesh and its acceleration structure) is what a query on a known scene saves.

export class SceneCache {
  /**
   * capacity: how many worlds are kept; free(world): releases one dropped from the cache.
   */
  constructor(capacity, free) {
    this.capacity = capacity;
    this.free = free;
    this.worlds = new Map(); // key -> world, least recently used first
  }

  /** The world under `key`, built by `build()` when it is not kept; now the most recently used. */
  get(key, build) {
    let world = this.worlds.get(key);
    if (world !== undefined) {
      this.worlds.delete(key); // re-inserted below: most recently used last
    } else {
      world = build();
      if (this.worlds.size >= this.capacity) {
        const [oldKey, old] = this.worlds.entries().next().value;
        this.worlds.delete(oldKey);
        this.free(old);
      }
    }
    this.worlds.set(key, world);
    return world;
  }

  get size() { return this.worlds.size; }
}
