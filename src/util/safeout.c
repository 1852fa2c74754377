/* Terminal-safe text: see safeout.h. */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "util/safeout.h"
#include "util/utf8width.h"
#include "util/xalloc.h"

static void
put_hex(struct strbuf *out, unsigned char c)
{
	strbuf_printf(out, "\\x%02x", c);
}

/* How many bytes the UTF-8 sequence led by c takes; 0 for a byte that
 * cannot start one. Overlong and surrogate forms are caught when the
 * whole sequence is decoded. */
static size_t
utf8_len(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/* C1 controls (8-bit CSI, OSC …) and the bidirectional overrides and
 * isolates that reorder what follows them ("Trojan Source"). */
static bool
cp_hidden(long cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069);
}

/* Length of the colour change ESC [ [0-9;]* m at p (n bytes there): its
 * length when complete, 0 when p holds a beginning of one that may still
 * complete, -1 when it is not one. */
static long
sgr_len(const unsigned char *p, size_t n)
{
	size_t i;

	if (n < 2)
		return 0;
	if (p[1] != '[')
		return -1;
	for (i = 2; i < n && i < SAFEOUT_PENDING; i++) {
		if (p[i] == 'm')
			return (long)i + 1;
		if (!((p[i] >= '0' && p[i] <= '9') || p[i] == ';'))
			return -1;
	}
	return i < SAFEOUT_PENDING ? 0 : -1;
}

/* Filters p[0..n) and returns how many bytes were used: fewer than n
 * only when the end holds a sequence that may still complete (and
 * !final). */
static size_t
filter_run(const unsigned char *p, size_t n, bool final, bool colour,
    struct strbuf *out)
{
	size_t i = 0;

	while (i < n) {
		unsigned char c = p[i];
		size_t len;
		long cp;

		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
			strbuf_putc(out, (char)c);
			i++;
			continue;
		}
		if (c == 0x1b && colour) {
			long sl = sgr_len(p + i, n - i);

			if (sl == 0 && !final)
				return i;
			if (sl > 0) {
				strbuf_add(out, (const char *)p + i, (size_t)sl);
				i += (size_t)sl;
				continue;
			}
			put_hex(out, c);
			i++;
			continue;
		}
		len = utf8_len(c);
		if (len <= 1) {		/* C0, DEL, or not a lead byte */
			put_hex(out, c);
			i++;
			continue;
		}
		if (n - i < len) {
			/* Cut by the end of this write: wait for the rest,
			 * unless what is here already cannot be UTF-8. */
			bool cont = true;

			for (size_t k = i + 1; k < n; k++)
				cont = cont && (p[k] & 0xc0) == 0x80;
			if (cont && !final)
				return i;
			put_hex(out, c);
			i++;
			continue;
		}
		if (utf8_seq(p + i, len, &cp) != len) {
			put_hex(out, c);
			i++;
			continue;
		}
		if (cp_hidden(cp))
			strbuf_printf(out, "\\u%04lx", (unsigned long)cp);
		else
			strbuf_add(out, (const char *)p + i, len);
		i += len;
	}
	return n;
}

void
safeout_filter(struct safeout *st, const char *in, size_t n,
    struct strbuf *out)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t used;

	/* The held-back bytes first, completed by what arrived now. */
	while (st->npending > 0 && n > 0) {
		size_t take = SAFEOUT_PENDING - st->npending;

		if (take > n)
			take = n;
		memcpy(st->pending + st->npending, p, take);
		used = filter_run((const unsigned char *)st->pending,
		    st->npending + take, false, st->colour, out);
		if (used < st->npending) {
			/* Still incomplete: everything stays held. */
			st->npending += take;
			p += take;
			n -= take;
			if (st->npending == SAFEOUT_PENDING) {
				used = filter_run((const unsigned char *)
				    st->pending, st->npending, true,
				    st->colour, out);
				st->npending = 0;
			}
			continue;
		}
		p += used - st->npending;
		n -= used - st->npending;
		st->npending = 0;
	}
	if (n == 0)
		return;
	used = filter_run(p, n, false, st->colour, out);
	/* filter_run only holds back a sequence shorter than the buffer. */
	memcpy(st->pending, p + used, n - used);
	st->npending = n - used;
}

void
safeout_finish(struct safeout *st, struct strbuf *out)
{
	filter_run((const unsigned char *)st->pending, st->npending, true,
				    st->colour, out);
	st->npending = 0;
}

/* ---------------------------------------------------------- the stream */

struct cookie {
	FILE		*under;
	FILE		**slot;		/* &stdout: restored when closed */
	struct safeout	 st;
	struct strbuf	 buf;
};

static int
pass_on(struct cookie *c)
{
	size_t len = c->buf.len;

	c->buf.len = 0;
	if (len > 0 && fwrite(c->buf.buf, 1, len, c->under) != len)
		return -1;
	return fflush(c->under) == 0 ? 0 : -1;
}

static ssize_t
cookie_write(void *arg, const char *data, size_t n)
{
	struct cookie *c = arg;

	safeout_filter(&c->st, data, n, &c->buf);
	if (pass_on(c) != 0)
		return -1;
	return (ssize_t)n;
}

static int
cookie_close(void *arg)
{
	struct cookie *c = arg;
	int rc;

	safeout_finish(&c->st, &c->buf);
	rc = pass_on(c);
	*c->slot = c->under;
	strbuf_free(&c->buf);
	free(c);
	return rc;
}

/* At exit, before stdio's own flush: closing the filter flushes it,
 * writes any held-back bytes, and puts the real stream back. */
static FILE *wrapped[2];

static void
close_wrapped(void)
{
	for (size_t i = 0; i < sizeof wrapped / sizeof wrapped[0]; i++) {
		if (wrapped[i] != NULL)
			fclose(wrapped[i]);
		wrapped[i] = NULL;
	}
}

int
safeout_wrap(FILE **fp, bool colour)
{
	static bool registered;
	cookie_io_functions_t io = { NULL, cookie_write, NULL, cookie_close };
	struct cookie *c;
	FILE *f;
	size_t slot;

	for (slot = 0; slot < 2 && wrapped[slot] != NULL; slot++)
		;
	if (slot == 2) {
		errno = EBUSY;
		return -1;
	}
	if (!registered) {
		if (atexit(close_wrapped) != 0) {
			errno = ENOMEM;
			return -1;
		}
		registered = true;
	}
	c = xcalloc(1, sizeof *c);
	c->under = *fp;
	c->slot = fp;
	c->st.colour = colour;
	f = fopencookie(c, "w", io);
	if (f == NULL) {
		free(c);
		return -1;
	}
	/* stderr stays unbuffered so messages keep their order with
	 * the child processes' own; stdout keeps full buffering. */
	if (*fp == stderr && setvbuf(f, NULL, _IONBF, 0) != 0) {
		fclose(f);
		return -1;
	}
	wrapped[slot] = f;
	*fp = f;
	return 0;
}
