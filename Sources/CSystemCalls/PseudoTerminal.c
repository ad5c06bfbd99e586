// Compiled with _GNU_SOURCE so that <stdlib.h> declares the pseudo-terminal calls (see the header).
#define _GNU_SOURCE
#include <stdlib.h>
#include "CSystemCalls.h"

int smsgw_posix_openpt(int flags) { return posix_openpt(flags); }

int smsgw_grantpt(int master) { return grantpt(master); }

int smsgw_unlockpt(int master) { return unlockpt(master); }

int smsgw_ptsname_r(int master, char *buffer, size_t length) { return ptsname_r(master, buffer, length); }
