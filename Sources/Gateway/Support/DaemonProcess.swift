import CDaemon

/// The daemon's own process: what it does to itself before it reads a secret.
public enum DaemonProcess {
    /// Marks the process non-dumpable: nothing read from here on (the passphrase, the data key)
    /// may end in a core file or be read through /proc or ptrace by another process of the same user.
    public static func refuseDumps() {
        _ = smsgw_set_non_dumpable()
    }

    /// Fixes glibc's thresholds before the unlock. Left dynamic, freeing Argon2id's buffer (19 to
    /// 64 MiB) raises the mmap threshold to its size and the trim threshold to twice that, so the
    /// long-running daemon would keep every later freed block in its heap instead of returning it
    /// (about 6 MiB more resident after a few SMS, measured with Benchmarks/gateway).
    public static func keepFreedMemoryReturnable() {
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
        _ = mallopt(M_TRIM_THRESHOLD, 512 << 10)
    }
}
