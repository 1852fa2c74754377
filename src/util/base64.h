/* Base64 (RFC 4648, with padding): the OSC 52 clipboard sequence carries
 * its text in it. */
#ifndef CUDAWIZ_BASE64_H
#define CUDAWIZ_BASE64_H

#include <stddef.h>

/* in[0..n) in base64, newly allocated and NUL-terminated. */
char	*base64_encode(const void *in, size_t n);

#endif
