/**
 * A function of an object, worked out once per object: a query's data is the same object until it is fetched
 * again (and, on the server, render after render while it is kept for guests), so what is made of it, and
 * what is made of that, is made once too. Objects are held weakly: what nothing else holds is let go.
 */
export function memoByObject<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    if (made.has(key)) return made.get(key) as V;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}
