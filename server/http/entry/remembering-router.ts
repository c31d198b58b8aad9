/**
 * A Hono router that remembers what it matched for each method and path. The app's routes (some 600) cannot be
 * compiled into Hono's RegExpRouter (a route of parameters overlaps static ones: /lwr/apex/v65.0/:apexClass/
 * :apexMethod), so its SmartRouter uses the TrieRouter, whose search of the trie took some 17 % of the CPU of a
 * trivial answer. Most requests ask for paths asked before (the page, the locator, metadata), and a path's match
 * is the same until a route is added. Hono reads a match and never changes it, so one is shared by the requests
 * of its path.
 *
 * At most `limit` matches are kept, of paths up to MAX_PATH characters: when full, all are forgotten at once
 * (requests for ever new paths, of records say, then cost one lookup more than the router alone).
 */
import type { Result, Router } from 'hono/router';

const MAX_PATH = 256;

export class RememberingRouter<T> implements Router<T> {
  readonly name: string;
  readonly #router: Router<T>;
  readonly #limit: number;
  readonly #matches = new Map<string, Result<T>>();

  constructor(router: Router<T>, limit = 1_000) {
    this.#router = router;
    this.#limit = limit;
    this.name = `${router.name}, remembered`;
  }

  add(method: string, path: string, handler: T): void {
    this.#matches.clear();
    this.#router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (path.length > MAX_PATH) return this.#router.match(method, path);
    const key = `${method} ${path}`;
    let result = this.#matches.get(key);
    if (result === undefined) {
      if (this.#matches.size >= this.#limit) this.#matches.clear();
      result = this.#router.match(method, path);
      this.#matches.set(key, result);
    }
    return result;
  }

  /** How many matches are kept. */
  get size(): number {
    return this.#matches.size;
  }
}
