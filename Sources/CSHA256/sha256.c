// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) for SMSCipher; see include/csha256.h.

#include "csha256.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#define SMSGW_SHA256_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static const uint32_t initial_state[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static inline uint32_t rotate_right(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static inline uint32_t load_big_endian(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void store_big_endian(uint8_t *p, uint32_t x) {
    p[0] = (uint8_t)(x >> 24);
    p[1] = (uint8_t)(x >> 16);
    p[2] = (uint8_t)(x >> 8);
    p[3] = (uint8_t)x;
}

/// FIPS 180-4 §6.2.2 on `blocks` consecutive 64-byte blocks, in portable C.
static void compress_portable(uint32_t state[8], const uint8_t *data, size_t blocks) {
    uint32_t w[64];
    for (; blocks > 0; blocks--, data += 64) {
        for (int t = 0; t < 16; t++) w[t] = load_big_endian(data + 4 * t);
        for (int t = 16; t < 64; t++) {
            uint32_t s0 = rotate_right(w[t - 15], 7) ^ rotate_right(w[t - 15], 18) ^ (w[t - 15] >> 3);
            uint32_t s1 = rotate_right(w[t - 2], 17) ^ rotate_right(w[t - 2], 19) ^ (w[t - 2] >> 10);
            w[t] = w[t - 16] + s0 + w[t - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
        for (int t = 0; t < 64; t++) {
            uint32_t s1 = rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25);
            uint32_t choice = (e & f) ^ (~e & g);
            uint32_t t1 = h + s1 + choice + round_constants[t] + w[t];
            uint32_t s0 = rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22);
            uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
            uint32_t t2 = s0 + majority;
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
    }
}

#ifdef SMSGW_SHA256_X86
/// The same on the SHA extensions: four rounds per pair of SHA256RNDS2, the message schedule four
/// words at a time with SHA256MSG1/MSG2 (Intel's "SHA extensions" white paper, 2013).
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_extensions(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // The instructions keep the state as ABEF and CDGH.
    __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (; blocks > 0; blocks--, data += 64) {
        const __m128i abef_saved = abef;
        const __m128i cdgh_saved = cdgh;
        __m128i schedule[4];
        for (int i = 0; i < 4; i++) {
            schedule[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * i)), byte_swap);
        }
#pragma clang loop unroll(full)
        for (int group = 0; group < 16; group++) {
            __m128i words = schedule[group & 3];
            __m128i message = _mm_add_epi32(words, _mm_loadu_si128((const __m128i *)&round_constants[4 * group]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(message, 0x0E));
            if (group < 12) {
                // W[t..t+3] for t = 4·(group + 4): W[t−16] + σ0(W[t−15]) + W[t−7] + σ1(W[t−2]).
                __m128i next = _mm_sha256msg1_epu32(words, schedule[(group + 1) & 3]);
                next = _mm_add_epi32(next, _mm_alignr_epi8(schedule[(group + 3) & 3], schedule[(group + 2) & 3], 4));
                schedule[group & 3] = _mm_sha256msg2_epu32(next, schedule[(group + 3) & 3]);
            }
        }
        abef = _mm_add_epi32(abef, abef_saved);
        cdgh = _mm_add_epi32(cdgh, cdgh_saved);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

/// CPUID: SHA (leaf 7, EBX bit 29), SSE4.1 (leaf 1, ECX bit 19) and SSSE3 (leaf 1, ECX bit 9).
static int processor_has_extensions(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!(c & (1u << 19)) || !(c & (1u << 9))) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 29)) != 0;
}
#endif

// 0: not checked yet, 1: portable, 2: extensions. Racing first calls all store the same answer,
// so relaxed atomics suffice.
static int chosen = 0;
static int forced_portable = 0;

static void compress(uint32_t state[8], const uint8_t *data, size_t blocks) {
#ifdef SMSGW_SHA256_X86
    int choice = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (choice == 0) {
        choice = processor_has_extensions() ? 2 : 1;
        __atomic_store_n(&chosen, choice, __ATOMIC_RELAXED);
    }
    if (choice == 2 && !__atomic_load_n(&forced_portable, __ATOMIC_RELAXED)) {
        compress_extensions(state, data, blocks);
        return;
    }
#endif
    compress_portable(state, data, blocks);
}

int smsgw_sha256_uses_extensions(void) {
#ifdef SMSGW_SHA256_X86
    return !__atomic_load_n(&forced_portable, __ATOMIC_RELAXED) && processor_has_extensions();
#else
    return 0;
#endif
}

void smsgw_sha256_force_portable(int portable) { __atomic_store_n(&forced_portable, portable != 0, __ATOMIC_RELAXED); }

/// Hashes the rest of a message whose first `already` bytes went into `state`, with the final
/// padding (FIPS 180-4 §5.1.1), and writes the digest.
static void finish(uint32_t state[8], const uint8_t *message, size_t length, uint64_t already, uint8_t digest[32]) {
    size_t whole = length / 64;
    if (whole > 0) compress(state, message, whole);
    size_t rest = length - 64 * whole;
    uint8_t tail[128];
    memset(tail, 0, sizeof tail);
    if (rest > 0) memcpy(tail, message + 64 * whole, rest);
    tail[rest] = 0x80;
    size_t tail_length = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (already + (uint64_t)length) * 8;
    for (int i = 0; i < 8; i++) tail[tail_length - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(state, tail, tail_length / 64);
    for (int i = 0; i < 8; i++) store_big_endian(digest + 4 * i, state[i]);
}

void smsgw_sha256(const uint8_t *message, size_t length, uint8_t digest[32]) {
    uint32_t state[8];
    memcpy(state, initial_state, sizeof state);
    finish(state, message, length, 0, digest);
}

void smsgw_hmac_sha256_prepare(
    const uint8_t *key, size_t key_length, smsgw_sha256_state *inner, smsgw_sha256_state *outer) {
    uint8_t block[64];
    uint8_t hashed_key[32];
    if (key_length > 64) {
        // RFC 2104 §3: a key longer than the block is replaced by its hash.
        smsgw_sha256(key, key_length, hashed_key);
        key = hashed_key;
        key_length = 32;
    }
    for (size_t i = 0; i < 64; i++) block[i] = (uint8_t)((i < key_length ? key[i] : 0) ^ 0x36);
    memcpy(inner->words, initial_state, sizeof inner->words);
    compress(inner->words, block, 1);
    for (size_t i = 0; i < 64; i++) block[i] ^= 0x36 ^ 0x5C;
    memcpy(outer->words, initial_state, sizeof outer->words);
    compress(outer->words, block, 1);
}

void smsgw_hmac_sha256(
    const smsgw_sha256_state *inner, const smsgw_sha256_state *outer, const uint8_t *message, size_t length,
    uint8_t mac[32]) {
    uint32_t state[8];
    uint8_t inner_digest[32];
    memcpy(state, inner->words, sizeof state);
    finish(state, message, length, 64, inner_digest);
    memcpy(state, outer->words, sizeof state);
    finish(state, inner_digest, 32, 64, mac);
}
