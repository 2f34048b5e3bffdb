import ShareDBus

/// Replies already built, by what decides them, bounded by the bytes they hold rather than by
/// their number: a caller that asks about a new type on every call cannot make it grow past
/// ``capacity``. When a reply does not fit, the cache starts over.
struct ReplyCache<Key: Hashable> {
  /// The bytes the cache may hold: keys and marshalled replies.
  let capacity: Int
  private var replies: [Key: DBusMessage] = [:]
  private(set) var byteCount = 0

  init(capacity: Int) {
    self.capacity = capacity
  }

  subscript(key: Key) -> DBusMessage? { replies[key] }

  /// Keeps `reply` under `key`, which holds `keyBytes`, unless the two alone are larger than the
  /// whole cache.
  mutating func insert(_ reply: DBusMessage, for key: Key, keyBytes: Int) {
    let size = keyBytes + reply.marshalledSize
    guard size <= capacity else { return }
    if byteCount + size > capacity { removeAll() }
    replies[key] = reply
    byteCount += size
  }

  mutating func removeAll() {
    replies.removeAll(keepingCapacity: true)
    byteCount = 0
  }

  var count: Int { replies.count }
}
