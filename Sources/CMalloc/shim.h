// glibc's malloc tuning (mallopt), which the Glibc module does not export; see ServeCommand.
#include <malloc.h>
