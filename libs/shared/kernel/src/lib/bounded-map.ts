/**
 * A Map of at most `capacity` entries: setting one more drops the oldest
 * (insertion order), so an in-process cache keeps a fixed ceiling on memory
 * whatever the traffic.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    super.delete(key);
    if (this.size >= this.capacity) {
      const oldest = this.keys().next();
      if (!oldest.done) super.delete(oldest.value);
    }
    return super.set(key, value);
  }
}
