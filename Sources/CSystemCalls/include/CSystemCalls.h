// The C half of SystemCalls: glibc calls that the Swift Glibc module does not export.
//
// Glibc's module is built without _XOPEN_SOURCE or _GNU_SOURCE, so the pseudo-terminal calls and
// the calls that create a descriptor close-on-exec atomically are hidden from Swift, although
// every glibc exports them. They are wrapped here, in source files compiled with _GNU_SOURCE,
// rather than looked up at run time with dlsym: the compiler checks each signature.
// This header declares plain functions and includes nothing, so no feature macro can be lost to
// a module that was built without it.
#ifndef SMSGW_CSYSTEMCALLS_H
#define SMSGW_CSYSTEMCALLS_H

#include <stddef.h>

/// posix_openpt(3): opens an unused pseudo-terminal master; -1 and errno on failure.
int smsgw_posix_openpt(int flags);

/// grantpt(3): gives the slave of `master` to this user; -1 and errno on failure.
int smsgw_grantpt(int master);

/// unlockpt(3): lets the slave of `master` be opened; -1 and errno on failure.
int smsgw_unlockpt(int master);

/// ptsname_r(3): writes the slave's path (`/dev/pts/N`) into `buffer`; 0, or an errno value
/// (ptsname_r returns the error number, it does not set errno).
int smsgw_ptsname_r(int master, char *buffer, size_t length);

/// pipe2(2) with O_NONBLOCK | O_CLOEXEC: both ends at once, so no child process started by
/// another thread in between inherits them; -1 and errno on failure.
int smsgw_pipe_nonblocking(int ends[2]);

/// accept4(2) with SOCK_CLOEXEC: the connection is close-on-exec from the start; -1 and errno.
int smsgw_accept_cloexec(int listener);

#endif
