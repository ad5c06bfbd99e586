// Compiled with _GNU_SOURCE so that <unistd.h> and <sys/socket.h> declare pipe2 and accept4.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <sys/socket.h>
#include <unistd.h>
#include "CSystemCalls.h"

int smsgw_pipe_nonblocking(int ends[2]) { return pipe2(ends, O_NONBLOCK | O_CLOEXEC); }

int smsgw_accept_cloexec(int listener) { return accept4(listener, NULL, NULL, SOCK_CLOEXEC); }
