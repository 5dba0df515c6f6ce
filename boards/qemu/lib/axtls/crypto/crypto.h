// tablectl's qemu board: the SHA-1 that extmod/modhashlib.c asks axTLS for (MICROPY_SSL_AXTLS), for
// hashlib.sha1, which service.verify()'s HMAC-SHA1 needs (GAT). Debian's MicroPython source ships neither
// axTLS nor mbedtls, so the board brings its own SHA-1 (sha1.c, FIPS 180-4), found at this path through
// the board folder on the include path. Only what modhashlib uses is declared.
#ifndef TABLECTL_QEMU_SHA1_H
#define TABLECTL_QEMU_SHA1_H
#include <stdint.h>

#define SHA1_SIZE (20)

typedef struct {
    uint32_t state[5];
    uint64_t bytes;  // message length so far
    uint8_t block[64];
} SHA1_CTX;

void SHA1_Init(SHA1_CTX *ctx);
void SHA1_Update(SHA1_CTX *ctx, const uint8_t *data, int len);
void SHA1_Final(uint8_t *digest, SHA1_CTX *ctx);
#endif
