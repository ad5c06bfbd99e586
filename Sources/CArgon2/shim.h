#ifndef SMSGW_CARGON2_SHIM_H
#define SMSGW_CARGON2_SHIM_H
#include <argon2.h>
#endif
