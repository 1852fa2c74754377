/* Unit tests for src/probe/gpuarch.c: the chip token at the start of a
 * pci.ids name and the table's answer for it, suffixes and all, with the
 * names as pci.ids writes them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "probe/gpuarch.h"

/* The compute capability pci.ids name gives, or "-" for none. */
static const char *
cc_of(const char *pci_name)
{
	char tok[32];
	const struct gpu_chip *row;

	if (!gpuarch_chip_token(pci_name, tok, sizeof tok))
		return "-";
	row = gpuarch_lookup(tok);
	return row != NULL ? row->cc : "-";
}

static void
test_tokens(void)
{
	char tok[32];

	ok(gpuarch_chip_token("GF117M [GeForce 610M/710M]", tok, sizeof tok) &&
	    strcmp(tok, "GF117M") == 0, "the token ends at the space");
	ok(gpuarch_chip_token("AD103M / GN21-X11 [GeForce RTX 4090 Laptop GPU]",
	    tok, sizeof tok) && strcmp(tok, "AD103M") == 0,
	    "a second code after ' / ' is not part of it");
	ok(gpuarch_chip_token("GH100", tok, sizeof tok) && strcmp(tok, "GH100") == 0,
	    "a name that is only the chip");
	ok(gpuarch_chip_token("GB202GL [RTX PRO 6000 Blackwell]", tok, sizeof tok),
	    "a workstation code");
	is_int(strlen(tok), 7, "keeps its suffix (GB202GL)");
	ok(!gpuarch_chip_token("[GeForce GTX 1080]", tok, sizeof tok),
	    "a name without a chip code gives none");
	ok(!gpuarch_chip_token("Lightning 1200", tok, sizeof tok),
	    "a word without a digit is no chip code");
	ok(!gpuarch_chip_token("GB6-256(N22W-ES-A1)", tok, sizeof tok),
	    "a code followed by '-' is not taken");
	ok(!gpuarch_chip_token("GF117M [x]", tok, 4), "a buffer too small refuses");
	ok(!gpuarch_chip_token(NULL, tok, sizeof tok), "NULL gives none");
}

static void
test_lookup(void)
{
	static const struct {
		const char *name, *cc;
	} cases[] = {
		{ "GT200b [GeForce GTX 275]", "1.3" },
		{ "G96CM [GeForce 9600M GT]", "1.1" },
		{ "GF100GL [Tesla C2050 / C2070]", "2.0" },
		{ "GF117M [GeForce 610M]", "2.1" },
		{ "GK110BGL [Tesla K40m]", "3.5" },
		{ "GK180GL [Tesla K40c]", "3.5" },
		{ "GK208BM [GeForce 920M]", "3.5" },
		{ "GK210GL [Tesla K80]", "3.7" },
		{ "GM108M [GeForce 940MX]", "5.0" },
		{ "GM204GLM [Quadro M5000M]", "5.2" },
		{ "GP104BM [GeForce GTX 1070 Mobile]", "6.1" },
		{ "TU104BM [GeForce RTX 2080 Mobile]", "7.5" },
		{ "GA107BM [GeForce RTX 2050 Mobile]", "8.6" },
		{ "AD104GLM [RTX 3500 Ada Generation Laptop GPU]", "8.9" },
		{ "GB110 [B300 SXM6 AC]", "10.3" },
		{ "GB203GLM [RTX PRO 5000 Blackwell Generation Laptop GPU]", "12.0" },
		{ "GB20B [GB10]", "12.1" },
		/* Not GPUs the table holds: unknown, never a near miss. */
		{ "GK11x [GK11x_FPGA]", "-" },
		{ "GB10 GEN5 X4 PCIe host", "-" },
		{ "GR100 [Reserved Dev ID A]", "-" },
		{ "GB112", "-" },
		{ "GM20X [mystery]", "-" },
		{ "GA102XYZ [not a suffix]", "-" },
		{ "NV40 [GeForce 6800 Ultra]", "-" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		is_str(cc_of(cases[i].name), cases[i].cc, "%s", cases[i].name);
	ok(gpuarch_lookup("GK110B") != NULL &&
	    strcmp(gpuarch_lookup("GK110BGL")->chip, "GK110B") == 0,
	    "the longest base chip wins (GK110B, not GK110 + BGL)");
	ok(gpuarch_lookup("GB20B")->uncertain, "an inferred row says so");
	ok(!gpuarch_lookup("GH100")->uncertain, "a row from NVIDIA's tables does not");
	is_str(gpuarch_lookup("gk104")->arch, "Kepler", "case does not matter");
	ok(gpuarch_lookup(NULL) == NULL, "NULL gives none");
}

int
main(void)
{
	test_tokens();
	test_lookup();
	return done_testing();
}
