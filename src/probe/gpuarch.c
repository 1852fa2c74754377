/* Chip → architecture → compute capability (see gpuarch.h).
 *
 * The compute capabilities are NVIDIA's (the CUDA GPUs list and the CUDA
 * C Programming Guide's table of products); which chip a product uses is
 * pci.ids' own naming (pci.ids 2026.08.22 for the Blackwell rows: "GB110
 * [B300 SXM6 AC]", "GB20B [GB10]", "GB10B [Jetson AGX Thor]"). Rows
 * marked uncertain are inferred rather than read: see each comment. A chip
 * not here (GR100, GB112, a future one) stays unknown: a guess would lead
 * advice astray. */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "probe/gpuarch.h"

static const struct gpu_chip chips[] = {
	/* Tesla (the architecture): CUDA 1.x, dropped after CUDA 6.5. */
	{ "G80",	"Tesla",	"1.0",	false },
	{ "G84",	"Tesla",	"1.1",	false },
	{ "G86",	"Tesla",	"1.1",	false },
	{ "G92",	"Tesla",	"1.1",	false },
	{ "G94",	"Tesla",	"1.1",	false },
	{ "G96",	"Tesla",	"1.1",	false },
	/* The 55 nm G96 shrink; its products are listed as 1.1 under the
	 * G96 names. */
	{ "G96C",	"Tesla",	"1.1",	true },
	{ "G98",	"Tesla",	"1.1",	false },
	{ "GT215",	"Tesla",	"1.2",	false },
	{ "GT216",	"Tesla",	"1.2",	false },
	{ "GT218",	"Tesla",	"1.2",	false },
	{ "GT200",	"Tesla",	"1.3",	false },
	{ "GF100",	"Fermi",	"2.0",	false },
	{ "GF110",	"Fermi",	"2.0",	false },
	{ "GF104",	"Fermi",	"2.1",	false },
	{ "GF106",	"Fermi",	"2.1",	false },
	{ "GF108",	"Fermi",	"2.1",	false },
	{ "GF114",	"Fermi",	"2.1",	false },
	{ "GF116",	"Fermi",	"2.1",	false },
	{ "GF117",	"Fermi",	"2.1",	false },
	{ "GF119",	"Fermi",	"2.1",	false },
	{ "GK104",	"Kepler",	"3.0",	false },
	{ "GK106",	"Kepler",	"3.0",	false },
	{ "GK107",	"Kepler",	"3.0",	false },
	{ "GK20A",	"Kepler",	"3.2",	false },	/* Tegra K1 */
	{ "GK110",	"Kepler",	"3.5",	false },
	{ "GK110B",	"Kepler",	"3.5",	false },
	{ "GK180",	"Kepler",	"3.5",	false },	/* Tesla K40c */
	{ "GK208",	"Kepler",	"3.5",	false },
	{ "GK208B",	"Kepler",	"3.5",	false },
	{ "GK210",	"Kepler",	"3.7",	false },	/* Tesla K80 */
	{ "GM107",	"Maxwell",	"5.0",	false },
	{ "GM108",	"Maxwell",	"5.0",	false },
	{ "GM200",	"Maxwell",	"5.2",	false },
	{ "GM204",	"Maxwell",	"5.2",	false },
	{ "GM206",	"Maxwell",	"5.2",	false },
	{ "GM20B",	"Maxwell",	"5.3",	false },	/* Tegra X1 */
	{ "GP100",	"Pascal",	"6.0",	false },
	{ "GP102",	"Pascal",	"6.1",	false },
	{ "GP104",	"Pascal",	"6.1",	false },
	{ "GP106",	"Pascal",	"6.1",	false },
	{ "GP107",	"Pascal",	"6.1",	false },
	{ "GP108",	"Pascal",	"6.1",	false },
	{ "GP10B",	"Pascal",	"6.2",	false },	/* Tegra X2 */
	{ "GV100",	"Volta",	"7.0",	false },
	{ "GV10B",	"Volta (Xavier)", "7.2", false },
	{ "TU102",	"Turing",	"7.5",	false },
	{ "TU104",	"Turing",	"7.5",	false },
	{ "TU106",	"Turing",	"7.5",	false },
	{ "TU116",	"Turing",	"7.5",	false },
	{ "TU117",	"Turing",	"7.5",	false },
	{ "GA100",	"Ampere",	"8.0",	false },
	{ "GA102",	"Ampere",	"8.6",	false },
	{ "GA103",	"Ampere",	"8.6",	false },
	{ "GA104",	"Ampere",	"8.6",	false },
	{ "GA106",	"Ampere",	"8.6",	false },
	{ "GA107",	"Ampere",	"8.6",	false },
	{ "GA10B",	"Ampere (Orin)", "8.7",	false },
	{ "AD102",	"Ada",		"8.9",	false },
	{ "AD103",	"Ada",		"8.9",	false },
	{ "AD104",	"Ada",		"8.9",	false },
	{ "AD106",	"Ada",		"8.9",	false },
	{ "AD107",	"Ada",		"8.9",	false },
	{ "GH100",	"Hopper",	"9.0",	false },
	{ "GB100",	"Blackwell",	"10.0",	false },	/* B200, GB200 */
	{ "GB102",	"Blackwell",	"10.0",	false },	/* B100 */
	{ "GB110",	"Blackwell Ultra", "10.3", false },	/* B300, GB300 */
	/* Jetson Thor: sm_101 until CUDA 12.9, renamed sm_110 in CUDA 13;
	 * the newer name is given. */
	{ "GB10B",	"Blackwell (Thor)", "11.0", true },
	{ "GB202",	"Blackwell",	"12.0",	false },
	{ "GB203",	"Blackwell",	"12.0",	false },
	{ "GB205",	"Blackwell",	"12.0",	false },
	{ "GB206",	"Blackwell",	"12.0",	false },
	{ "GB207",	"Blackwell",	"12.0",	false },
	/* GB10 (DGX Spark) is 12.1; pci.ids names its GPU GB20B, and the
	 * RTX Spark N1X with it, which is assumed to be the same part. */
	{ "GB20B",	"Blackwell",	"12.1",	true },
};

/* What may follow a base chip in a pci.ids token: M mobile, GL
 * workstation/data center, GLM mobile workstation, B a later stepping or
 * board variant ("TU104BM", "GK110BGL"). */
static const char *const suffixes[] = {
	"", "M", "GL", "GLM", "B", "BM", "BGL", "BGLM",
};

bool
gpuarch_chip_token(const char *pci_name, char *buf, size_t n)
{
	size_t len = 0;

	if (pci_name == NULL || n == 0)
		return false;
	/* A chip token: a capital letter, then letters and digits, with at
	 * least one digit; it ends at a space, '[', '/' or the end. */
	while ((pci_name[len] >= 'A' && pci_name[len] <= 'Z') ||
	    (pci_name[len] >= 'a' && pci_name[len] <= 'z') ||
	    (pci_name[len] >= '0' && pci_name[len] <= '9'))
		len++;
	if (len < 2 || len >= n || !(pci_name[0] >= 'A' && pci_name[0] <= 'Z') ||
	    strpbrk(pci_name, "0123456789") == NULL ||
	    strpbrk(pci_name, "0123456789") >= pci_name + len)
		return false;
	if (pci_name[len] != '\0' && pci_name[len] != ' ' &&
	    pci_name[len] != '[' && pci_name[len] != '/')
		return false;
	memcpy(buf, pci_name, len);
	buf[len] = '\0';
	return true;
}

const struct gpu_chip *
gpuarch_lookup(const char *token)
{
	const struct gpu_chip *best = NULL;
	size_t best_len = 0;

	if (token == NULL)
		return NULL;
	for (size_t i = 0; i < sizeof chips / sizeof chips[0]; i++) {
		size_t cl = strlen(chips[i].chip);

		if (cl <= best_len || strncasecmp(token, chips[i].chip, cl) != 0)
			continue;
		for (size_t s = 0; s < sizeof suffixes / sizeof suffixes[0]; s++)
			if (strcasecmp(token + cl, suffixes[s]) == 0) {
				best = &chips[i];
				best_len = cl;
				break;
			}
	}
	return best;
}
