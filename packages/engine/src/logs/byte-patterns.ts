/**
 * Many byte strings looked for at once, a byte at a time, in a stream (an Aho-Corasick
 * automaton): the masking of a log feeds every byte once, whatever the number of forms of
 * its secrets (a private key's lines, each with its escapings and encodings, make hundreds).
 *
 * A state stands for the longest end of the bytes seen so far that begins some pattern;
 * its depth is that end's length, so nothing before it can be part of a later match.
 */
export class BytePatterns {
  /** Transitions of every state but the root, keyed by `state * 256 + byte`: one map, quick to build. */
  private readonly next = new Map<number, number>();
  /** The root's, dense: most bytes of most output lead nowhere from there. */
  private readonly root = new Int32Array(256);
  private readonly fail: number[] = [0];
  private readonly depths: number[] = [0];
  /** Length of the longest pattern that ends at the state (its own, or one its fallbacks end), 0 for none. */
  private readonly ends: number[] = [0];

  constructor(patterns: Iterable<Uint8Array>) {
    const children: number[][] = [[]];
    for (const pattern of patterns) {
      let state = 0;
      for (const byte of pattern) {
        const key = state * 256 + byte;
        let to = this.next.get(key);
        if (to === undefined) {
          to = this.depths.length;
          this.next.set(key, to);
          this.fail.push(0);
          this.depths.push(this.depths[state] + 1);
          this.ends.push(0);
          children.push([]);
          children[state].push(byte);
        }
        state = to;
      }
      if (state) this.ends[state] = Math.max(this.ends[state], pattern.length);
    }
    for (const byte of children[0]) this.root[byte] = this.next.get(byte)!;
    // Breadth first: a state's fallback is shallower, so it is complete when the state's is computed.
    const queue = children[0].map((byte) => this.root[byte]);
    for (let i = 0; i < queue.length; i++) {
      const state = queue[i];
      for (const byte of children[state]) {
        const to = this.next.get(state * 256 + byte)!;
        this.fail[to] = this.step(this.fail[state], byte);
        this.ends[to] = Math.max(this.ends[to], this.ends[this.fail[to]]);
        queue.push(to);
      }
    }
  }

  /** Whether there is anything to look for. */
  get empty(): boolean {
    return this.depths.length === 1;
  }

  /** The state after `byte` in `state` (0 is the start). */
  step(state: number, byte: number): number {
    for (;;) {
      if (state === 0) return this.root[byte];
      const to = this.next.get(state * 256 + byte);
      if (to !== undefined) return to;
      state = this.fail[state];
    }
  }

  /** How many of the last bytes may still begin a match (see the class's comment). */
  depth(state: number): number {
    return this.depths[state];
  }

  /** The length of the longest pattern that ends with the byte that led to `state`; 0 for none. */
  matched(state: number): number {
    return this.ends[state];
  }
}
