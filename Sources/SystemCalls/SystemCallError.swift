public import Failures
import Glibc

/// A system call that failed: which call, on which path, and the `errno` it left.
///
/// Its sentence names the call and the path, gives the system's own words for `errno` and, for
/// the answers a person can do something about, what to do; its ``category`` follows `errno`, so
/// a front end maps it as it maps any other error. No secret ever reaches it: only call names,
/// paths and numbers.
public struct SystemCallError: CategorizedError, Sendable, Equatable {
    /// The call's name as its manual page spells it: `open`, `flock`, `bind`.
    public var call: String
    /// The file, device or socket the call was made on; nil for a call on none (`pipe`, `poll`).
    public var path: String?
    /// The `errno` value.
    public var code: Int32

    /// - Parameters:
    ///   - call: The call's name, e.g. `open`.
    ///   - path: What it was made on, when it names a path.
    ///   - code: The `errno` it left.
    public init(call: String, path: String? = nil, code: Int32) {
        self.call = call
        self.path = path
        self.code = code
    }

    /// The system's words for ``code`` (strerror(3); glibc's table is safe to read from any thread).
    public var reason: String {
        strerror(code).flatMap { String(validatingCString: $0) } ?? "unknown error"
    }

    /// `open /srv/smsgw/smsgw.serve.lock failed: Permission denied (errno 13); check …`.
    public var description: String {
        let subject = path.map { "\(call) \($0)" } ?? call
        return "\(subject) failed: \(reason) (errno \(code)); \(advice)."
    }

    public var category: ErrorCategory {
        switch code {
        case ENOENT: .notFound
        case EEXIST, EADDRINUSE: .conflict
        case EAGAIN, EBUSY, ETXTBSY: .busy
        case EACCES, EPERM, EROFS, ELOOP, ENOTDIR, EISDIR, ENAMETOOLONG: .configuration
        case ENOSPC, EDQUOT, EIO, EFBIG: .storage
        default: .unavailable
        }
    }

    /// What a person can do about ``code``.
    var advice: String {
        switch code {
        case EACCES, EPERM: "check the owner and permissions of the path and of its directory"
        case ENOENT: "check that the path and its directory exist"
        case EEXIST: "move the existing file away or choose another name"
        case ELOOP: "it is a symbolic link, which is not followed here; put the real file in its place"
        case ENOTDIR: "a part of the path is not a directory; check the path"
        case EISDIR: "it is a directory; name a file instead"
        case ENAMETOOLONG: "use a shorter path"
        case EROFS: "the file system is read-only; choose a writable directory"
        case ENOSPC, EDQUOT: "free some disk space, then try again"
        case EMFILE, ENFILE: "too many files are open; raise the open-files limit (ulimit -n, LimitNOFILE=) or close some"
        case ENOMEM: "the system is short of memory; try again when it has more"
        case EAGAIN, EBUSY, ETXTBSY: "it is busy; try again shortly"
        case ECONNREFUSED: "nothing listens there; start the program that serves it"
        case EADDRINUSE: "something else is there already; stop the program using it or remove the stale file"
        case EIO: "the device or disk reported an input/output error; check it and the system log"
        case ENXIO, ENODEV: "the device is gone; plug it in again"
        default: "try again, and check the system log if it happens again"
        }
    }
}
