// tablectl's qemu board: SHA-1 (FIPS 180-4, section 6.1) behind the axTLS names modhashlib.c calls
// (lib/axtls/crypto/crypto.h says why the board has its own).
#include <string.h>
#include "lib/axtls/crypto/crypto.h"

#define ROL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

static void sha1_block(SHA1_CTX *ctx, const uint8_t *p) {
    uint32_t w[80];
    for (int i = 0; i < 16; i++) {
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    }
    for (int i = 16; i < 80; i++) {
        w[i] = ROL(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    }
    uint32_t a = ctx->state[0], b = ctx->state[1], c = ctx->state[2], d = ctx->state[3], e = ctx->state[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5a827999;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ed9eba1;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8f1bbcdc;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6;
        }
        uint32_t t = ROL(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = ROL(b, 30);
        b = a;
        a = t;
    }
    ctx->state[0] += a;
    ctx->state[1] += b;
    ctx->state[2] += c;
    ctx->state[3] += d;
    ctx->state[4] += e;
}

void SHA1_Init(SHA1_CTX *ctx) {
    static const uint32_t h0[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    memcpy(ctx->state, h0, sizeof(h0));
    ctx->bytes = 0;
}

void SHA1_Update(SHA1_CTX *ctx, const uint8_t *data, int len) {
    while (len > 0) {
        unsigned used = (unsigned)(ctx->bytes & 63);
        unsigned take = 64 - used < (unsigned)len ? 64 - used : (unsigned)len;
        memcpy(ctx->block + used, data, take);
        ctx->bytes += take;
        data += take;
        len -= take;
        if (((used + take) & 63) == 0) {
            sha1_block(ctx, ctx->block);
        }
    }
}

void SHA1_Final(uint8_t *digest, SHA1_CTX *ctx) {
    uint64_t bits = ctx->bytes * 8;
    static const uint8_t pad = 0x80;
    static const uint8_t zero = 0;
    SHA1_Update(ctx, &pad, 1);
    while ((ctx->bytes & 63) != 56) {
        SHA1_Update(ctx, &zero, 1);
    }
    uint8_t len[8];
    for (int i = 0; i < 8; i++) {
        len[i] = (uint8_t)(bits >> (56 - 8 * i));
    }
    SHA1_Update(ctx, len, 8);
    for (int i = 0; i < 20; i++) {
        digest[i] = (uint8_t)(ctx->state[i / 4] >> (24 - 8 * (i % 4)));
    }
}
