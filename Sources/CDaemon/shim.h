// glibc calls for the daemon's own process that the Glibc module does not export (see Gateway's DaemonProcess).
#include <malloc.h>
#include <sys/prctl.h>

/// Marks the process non-dumpable: no core file, and other processes of the same user can neither
/// ptrace it nor read its memory or environment through /proc. prctl is variadic, which Swift
/// cannot call.
static inline int smsgw_set_non_dumpable(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}
