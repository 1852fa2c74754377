/* SHA-256 (FIPS 180-4): the host identity hashes /etc/machine-id with
 * it, so a report names the machine without carrying the id itself. */
#ifndef CUDAWIZ_SHA256_H
#define CUDAWIZ_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN	32

struct sha256 {
	uint32_t	h[8];
	uint64_t	len;		/* bytes so far */
	unsigned char	buf[64];
	size_t		nbuf;
};

void	sha256_init(struct sha256 *s);
void	sha256_update(struct sha256 *s, const void *data, size_t n);
void	sha256_final(struct sha256 *s, unsigned char out[SHA256_LEN]);
/* The digest of data in lowercase hex: 64 digits and a NUL. */
void	sha256_hex(const void *data, size_t n, char out[2 * SHA256_LEN + 1]);

#endif
