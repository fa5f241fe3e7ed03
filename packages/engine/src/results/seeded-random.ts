/**
 * Randomness that a seed decides: the same seed gives the same numbers on every server and
 * every Node version, which `Math.random` does not (it cannot be seeded). The generator is
 * pure-rand's xoroshiro128+ (fast-check's own), its integers drawn without modulo bias.
 */
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

export interface SeededRandom {
  /** An integer in [0, below), each equally likely. */
  int(below: number): number;
  /** A float in [0, 1). */
  float(): number;
}

export function seededRandom(seed: number): SeededRandom {
  if (!Number.isInteger(seed)) throw new RangeError("a seed is an integer");
  const rng = xoroshiro128plus(seed | 0);
  return {
    int: (below) => uniformInt(rng, 0, below - 1),
    float: () => uniformFloat64(rng),
  };
}

/** Shuffles `items` in place, every order equally likely (Fisher-Yates, Durstenfeld's form). */
export function shuffle<T extends { [i: number]: unknown; length: number }>(items: T, random: SeededRandom): T {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

/** A draw from the standard normal distribution (Box-Muller), for simulated measurements. */
export function gaussian(random: SeededRandom): number {
  const u = 1 - random.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.float());
}
