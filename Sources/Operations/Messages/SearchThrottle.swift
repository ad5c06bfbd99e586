public import Foundation

/// Searches of the log for words (``MessageLog/recent(contact:direction:status:matching:limit:searchedBy:store:)``)
/// counted per reader: each reads up to ``MessageLog/searchDepth`` messages, so after `limit`
/// of them within `window` a reader's next search is refused
/// (``MessageError/tooManySearches(until:)``) until the window has passed since its first.
/// Listing the log without words reads one page and is not counted.
///
/// One per front end that searches (the console counts per operator, whatever their sessions),
/// in memory as the sign-in's ``AddressThrottle``, whose counting it shares: a restart forgets
/// the counts, and a flood of searches never writes to the store.
public final class SearchThrottle: Sendable {
    private let counts: AddressThrottle

    public init(limit: Int = 30, window: TimeInterval = 60) {
        counts = AddressThrottle(limit: limit, window: window)
    }

    /// Counts a search by `reader`.
    ///
    /// - Throws: ``MessageError/tooManySearches(until:)`` once `reader` has used up its searches.
    public func admit(_ reader: String, now: Date) throws(MessageError) {
        if let until = counts.blockedUntil(reader, now: now) { throw .tooManySearches(until: until) }
        counts.fail(reader, now: now)
    }

    /// Who searches, for ``MessageLog/recent(contact:direction:status:matching:limit:searchedBy:store:)``.
    public struct Searcher: Sendable {
        public var throttle: SearchThrottle
        /// The reader's key: the console's operator name.
        public var reader: String
        public var now: Date

        public init(_ throttle: SearchThrottle, reader: String, now: Date) {
            self.throttle = throttle
            self.reader = reader
            self.now = now
        }
    }
}
