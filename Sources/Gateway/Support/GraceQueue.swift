import Dispatch

/// Where the daemon's stop ends its graces (``StoreStop``, ``StoreClosing``): a queue of its own,
/// not `DispatchQueue.global()`, which on Linux is the pool Swift's tasks run on. A grace must end
/// even while every thread of that pool is busy, or held by the very call it gives up on.
enum GraceQueue {
    static let shared = DispatchQueue(label: "smsgw.gateway.grace")
}
