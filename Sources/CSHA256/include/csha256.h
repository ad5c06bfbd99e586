// SHA-256 (FIPS 180-4) and HMAC-SHA256 with precomputed key states (RFC 2104 §4), for SMSCipher.
//
// The protocol computes a few hundred HMACs to open one message, under 32-byte keys each used two
// or three times, so it keeps each key's inner and outer hash states after their first block and
// hashes only the message per call. The compression function uses the x86 SHA extensions when the
// processor has them (detected once at run time) and portable C otherwise; both give the same
// output, checked by FIPS 180-4 and RFC 4231 vectors in SMSCipherTests.
//
// Nothing here allocates, keeps global state other than the one-time processor check, or reads
// beyond the lengths it is given.

#ifndef SMSGW_CSHA256_H
#define SMSGW_CSHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The eight 32-bit words of a SHA-256 chaining state.
typedef struct {
    uint32_t words[8];
} smsgw_sha256_state;

/// SHA-256 of `length` bytes at `message` into `digest` (32 bytes).
void smsgw_sha256(const uint8_t *message, size_t length, uint8_t digest[32]);

/// The inner and outer states of HMAC-SHA256 under `key`: the chaining states after hashing one
/// block of key XOR 0x36 and of key XOR 0x5C (a key longer than 64 bytes is hashed first).
void smsgw_hmac_sha256_prepare(
    const uint8_t *key, size_t key_length, smsgw_sha256_state *inner, smsgw_sha256_state *outer);

/// HMAC-SHA256 of `length` bytes at `message` from states made by `smsgw_hmac_sha256_prepare`.
void smsgw_hmac_sha256(
    const smsgw_sha256_state *inner, const smsgw_sha256_state *outer, const uint8_t *message, size_t length,
    uint8_t mac[32]);

/// Whether the compression function runs on the processor's SHA extensions (for benchmarks and tests).
int smsgw_sha256_uses_extensions(void);

/// Forces the portable compression function (non-zero) or the automatic choice (zero), so tests can
/// check both paths on a machine that has the extensions. Not thread-safe; for tests only.
void smsgw_sha256_force_portable(int portable);

#ifdef __cplusplus
}
#endif

#endif
