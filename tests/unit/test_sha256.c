/* util/sha256.c against the FIPS 180-4 / NIST example vectors, and fed
 * in pieces across the 55/56/64-byte padding edges. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lib/tap.h"
#include "util/sha256.h"

static void
hex(const unsigned char *d, char *out)
{
	for (int i = 0; i < SHA256_LEN; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

int
main(void)
{
	static char million[1000000];
	char got[2 * SHA256_LEN + 1], whole[2 * SHA256_LEN + 1];
	unsigned char d[SHA256_LEN];
	struct sha256 s;
	char buf[200];

	sha256_hex("", 0, got);
	is_str(got, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	    "the empty string");
	sha256_hex("abc", 3, got);
	is_str(got, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	    "\"abc\"");
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	    got);
	is_str(got, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	    "the 448-bit message (two blocks of padding)");
	memset(million, 'a', sizeof million);
	sha256_hex(million, sizeof million, got);
	is_str(got, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
	    "a million 'a'");

	/* Every length around the padding edges, whole and one byte at a
	 * time, must agree. */
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (char)(i * 7 + 1);
	for (size_t n = 50; n <= 130; n++) {
		sha256_hex(buf, n, whole);
		sha256_init(&s);
		for (size_t i = 0; i < n; i++)
			sha256_update(&s, buf + i, 1);
		sha256_final(&s, d);
		hex(d, got);
		if (strcmp(got, whole) != 0) {
			is_str(got, whole, "length %zu byte by byte", n);
			break;
		}
	}
	ok(1, "lengths 50..130 byte by byte equal the whole");
	return done_testing();
}
