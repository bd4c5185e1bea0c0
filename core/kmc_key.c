// SPDX-License-Identifier: GPL-2.0-only
/*
 * Key to file name encoder and decoder (see kmc_key.h for the encodings).
 */
#include "kcompat.h"
#include "kmc_key.h"

static const char kmc_charmap[64] =
	"0123456789"			/* 0 - 9 */
	"abcdefghijklmnopqrstuvwxyz"	/* 10 - 35 */
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ"	/* 36 - 61 */
	"_-"				/* 62 - 63 */
	;

static const char kmc_hexdigits[16] = "0123456789abcdef";

/* Bytes a D name may carry: '!' to '.' and '0' to DEL, as in key.c. */
static const u8 kmc_filecharmap[256] = {
	[33] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	[48] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

#define KMC_ONES	0x0101010101010101ULL
#define KMC_HIGHS	0x8080808080808080ULL

/*
 * Eight bytes at once: none below '!', none equal to '/', none above DEL.
 * (x - 33*ones) & ~x & highs is the classic "has a byte < 33" test for
 * bytes below 128; the high-bit test catches the rest.
 */
static inline bool kmc_key_printable8(u64 x)
{
	u64 slash = x ^ (KMC_ONES * '/');

	return !(((x - KMC_ONES * 33) | (slash - KMC_ONES) | x) & KMC_HIGHS);
}

static bool kmc_key_printable(const u8 *key, unsigned int keylen)
{
	unsigned int i = 0;
	u64 x;

	for (; i + 8 <= keylen; i += 8) {
		memcpy(&x, key + i, sizeof(x));
		if (!kmc_key_printable8(x))
			return false;
	}
	for (; i < keylen; i++)
		if (!kmc_filecharmap[key[i]])
			return false;
	return true;
}

static inline unsigned int kmc_hex_digits(u32 x)
{
	return x ? (32 - __builtin_clz(x) + 3) / 4 : 0;
}

/* The last, partial word of a key, its missing bytes read as zero. */
static u32 kmc_key_tail_word(const u8 *key, unsigned int keylen,
			     unsigned int i, bool big_endian)
{
	u8 b[4] = { 0, 0, 0, 0 };
	unsigned int j;

	for (j = 0; i + j < keylen; j++)
		b[j] = key[i + j];
	return big_endian ? get_unaligned_be32(b) : get_unaligned_le32(b);
}

/* Word @i of the key, the bytes past @keylen read as zero. */
static inline u32 kmc_key_word(const u8 *key, unsigned int keylen,
			       unsigned int i, bool big_endian)
{
	if (likely(i + 4 <= keylen))
		return big_endian ? get_unaligned_be32(key + i) :
				    get_unaligned_le32(key + i);
	return kmc_key_tail_word(key, keylen, i, big_endian);
}

/*
 * Lengths of the S and T names in *@nbe and *@nle.  Stops early once both
 * reach @limit (the base64 length): the caller then picks E either way.
 */
static void kmc_word_name_lengths(const u8 *key, unsigned int keylen,
				  unsigned int limit, unsigned int *nbe,
				  unsigned int *nle)
{
	unsigned int i, be = 0, le = 0;

	for (i = 0; i < keylen && (be < limit || le < limit); i += 4) {
		be += 1 + kmc_hex_digits(kmc_key_word(key, keylen, i, true));
		le += 1 + kmc_hex_digits(kmc_key_word(key, keylen, i, false));
	}
	*nbe = be;
	*nle = le;
}

static unsigned int kmc_put_hex(char *p, u32 x)
{
	unsigned int n = kmc_hex_digits(x), i;

	for (i = n; i; i--, x >>= 4)
		p[i - 1] = kmc_hexdigits[x & 15];
	return n;
}

/* Word @i of an S or T name: 'S'/'T' (first) or ',', then its digits. */
static unsigned int kmc_cook_word(const u8 *key, unsigned int keylen,
				  unsigned int i, bool be, char *p)
{
	p[0] = i ? ',' : be ? 'S' : 'T';
	return 1 + kmc_put_hex(p + 1, kmc_key_word(key, keylen, i, be));
}

static int kmc_cook_words(const u8 *key, unsigned int keylen, bool be,
			  char *name)
{
	unsigned int i, len = 0;

	for (i = 0; i < keylen; i += 4)
		len += kmc_cook_word(key, keylen, i, be, name + len);
	return len;
}

/* Four name characters for the low 24 bits of @acc, low six bits first. */
static inline void kmc_put_b64(char *p, u32 acc)
{
	u32 out = kmc_charmap[acc & 63] |
		  kmc_charmap[(acc >> 6) & 63] << 8 |
		  kmc_charmap[(acc >> 12) & 63] << 16 |
		  (u32)kmc_charmap[(acc >> 18) & 63] << 24;

	put_unaligned_le32(out, p);
}

/*
 * The base64 group at @i, little-endian, bytes past @keylen read as zero
 * (the short last group).  A whole 32-bit load while a fourth byte is
 * there to spare: kmc_put_b64() uses only the low 24 bits.
 */
static inline u32 kmc_b64_group(const u8 *key, unsigned int keylen,
				unsigned int i)
{
	u32 acc;

	if (likely(i + 4 <= keylen))
		return get_unaligned_le32(key + i);
	acc = key[i];
	if (i + 1 < keylen)
		acc |= key[i + 1] << 8;
	if (i + 2 < keylen)
		acc |= key[i + 2] << 16;
	return acc;
}

/* Base64 as key.c does it: little-endian groups, a short last group. */
static int kmc_cook_base64(const u8 *key, unsigned int keylen,
			   unsigned int pad, char *name)
{
	unsigned int i, len = 2;

	name[0] = 'E';
	name[1] = '0' + pad;
	for (i = 0; i < keylen; i += 3, len += 4)
		kmc_put_b64(name + len, kmc_b64_group(key, keylen, i));
	return len;
}

/* Base64's pad digit: the bytes the short last group lacks. */
static unsigned int kmc_b64_pad(unsigned int keylen)
{
	return DIV_ROUND_UP(keylen, 3) * 3 - keylen;
}

/*
 * The name cachefiles_cook_key() gives @key: returns its type letter ('D',
 * 'S', 'T' or 'E') and puts its length, without the NUL, in *@len; or
 * -ENAMETOOLONG for a key cachefiles cannot take.
 */
static int kmc_cook_plan(const u8 *key, unsigned int keylen,
			 unsigned int *len)
{
	unsigned int nbe, nle, b64len;

	if (keylen > KMC_KEY_MAX)
		return -ENAMETOOLONG;
	if (kmc_key_printable(key, keylen)) {
		*len = keylen + 1;
		return 'D';
	}
	b64len = 2 + 4 * DIV_ROUND_UP(keylen, 3);
	kmc_word_name_lengths(key, keylen, b64len, &nbe, &nle);
	/* Either is short: the loop ran to the end, both lengths are whole. */
	if (nbe < b64len || nle < b64len) {
		*len = min(nbe, nle);
		return nbe <= nle ? 'S' : 'T';
	}
	*len = b64len;
	return 'E';
}

/*
 * Cook @keylen bytes of @key into @name (NUL-terminated, @size bytes).
 * Returns the name's length, -ENAMETOOLONG for a key cachefiles cannot take,
 * or -ENOSPC if @size is too small (KMC_COOKED_MAX + 1 always suffices).
 */
int kmc_cook_key(const u8 *key, unsigned int keylen, char *name, size_t size)
{
	unsigned int len;
	int type = kmc_cook_plan(key, keylen, &len);

	if (type < 0)
		return type;
	if (size < len + 1)
		return -ENOSPC;
	switch (type) {
	case 'D':
		name[0] = 'D';
		memcpy(name + 1, key, keylen);
		break;
	case 'E':
		kmc_cook_base64(key, keylen, kmc_b64_pad(keylen), name);
		break;
	default:
		kmc_cook_words(key, keylen, type == 'S', name);
	}
	name[len] = '\0';
	return len;
}
EXPORT_SYMBOL(kmc_cook_key);

/*
 * The length of @key's cooked name, without the NUL, or -ENAMETOOLONG: what
 * a caller allocates for kmc_cook_key() (cachefiles keeps every object's
 * name, so it allocates exactly that rather than KMC_COOKED_MAX + 1).
 */
int kmc_cooked_len(const u8 *key, unsigned int keylen)
{
	unsigned int len;
	int type = kmc_cook_plan(key, keylen, &len);

	return type < 0 ? type : (int)len;
}
EXPORT_SYMBOL(kmc_cooked_len);

static int kmc_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int kmc_b64_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 36;
	if (c == '_')
		return 62;
	if (c == '-')
		return 63;
	return -1;
}

/* "S1,,ab" after the type letter: comma-separated words of up to 8 digits. */
static int kmc_uncook_words(const char *p, const char *end, bool be, u8 *key,
			    size_t size)
{
	unsigned int len = 0, digits;
	u32 x;
	int v;

	for (;;) {
		for (x = 0, digits = 0; p < end && *p != ','; p++, digits++) {
			v = kmc_hex_value(*p);
			if (v < 0 || digits == 8 || (digits == 0 && v == 0))
				return -EINVAL;
			x = (x << 4) | v;
		}
		if (len + 4 > size)
			return -EINVAL;
		if (be)
			put_unaligned_be32(x, key + len);
		else
			put_unaligned_le32(x, key + len);
		len += 4;
		if (p == end)
			return len;
		p++;	/* the comma */
	}
}

/* "E<pad>" then groups of four characters, each three bytes. */
static int kmc_uncook_base64(const char *p, const char *end, u8 *key,
			     size_t size)
{
	unsigned int pad, groups, len, i, k, acc;
	int v;

	if (p == end || *p < '0' || *p > '2')
		return -EINVAL;
	pad = *p++ - '0';
	groups = (end - p) / 4;
	if (!groups || (end - p) % 4)
		return -EINVAL;
	len = groups * 3 - pad;
	if (len > size)
		return -EINVAL;
	for (i = 0; p < end; p += 4, i += 3) {
		for (acc = 0, k = 0; k < 4; k++) {
			v = kmc_b64_value(p[k]);
			if (v < 0)
				return -EINVAL;
			acc |= (unsigned int)v << (6 * k);
		}
		/* The fill bytes of the last group must be zero. */
		for (k = 0; k < 3; k++, acc >>= 8) {
			if (i + k < len)
				key[i + k] = acc & 0xff;
			else if (acc & 0xff)
				return -EINVAL;
		}
	}
	return len;
}

/*
 * An S or T name that kmc_cook_plan() says @key gives, type and length:
 * compared word by word as each is cooked.  The words add up to that
 * length, so no compare reads past @name.
 */
static bool kmc_words_match(const u8 *key, unsigned int keylen,
			    const char *name)
{
	char piece[9];	/* ',' or the type letter, eight hex digits */
	unsigned int i, n, off;
	bool be = name[0] == 'S';

	for (i = 0, off = 0; i < keylen; i += 4, off += n) {
		n = kmc_cook_word(key, keylen, i, be, piece);
		if (memcmp(name + off, piece, n))
			return false;
	}
	return true;
}

/* kmc_words_match() for an E name: the pad digit, then each group. */
static bool kmc_base64_match(const u8 *key, unsigned int keylen,
			     const char *name)
{
	char piece[4];
	unsigned int i, off;

	if (name[1] != (char)('0' + kmc_b64_pad(keylen)))
		return false;
	for (i = 0, off = 2; i < keylen; i += 3, off += 4) {
		kmc_put_b64(piece, kmc_b64_group(key, keylen, i));
		if (memcmp(name + off, piece, sizeof(piece)))
			return false;
	}
	return true;
}

/*
 * kmc_cook_key(@key) == @name, without a cooked copy: that would take
 * KMC_COOKED_MAX + 1 bytes of stack.
 */
static bool kmc_cooks_to(const u8 *key, unsigned int keylen,
			 const char *name, size_t namelen)
{
	unsigned int len;
	int type = kmc_cook_plan(key, keylen, &len);

	if (type < 0 || len != namelen || name[0] != type)
		return false;
	if (type == 'D')
		return !memcmp(name + 1, key, keylen);
	if (type == 'E')
		return kmc_base64_match(key, keylen, name);
	return kmc_words_match(key, keylen, name);
}

/*
 * Decode the cooked name @name (@namelen bytes, no NUL needed) into @key.
 * S and T names give whole 32-bit words.  A name that cachefiles would never
 * produce (bad digits, leading zeros, a key that would cook differently) is
 * -EINVAL: re-cooking the result must give back exactly @name.
 */
int kmc_uncook_key(const char *name, size_t namelen, u8 *key, size_t size)
{
	const char *end = name + namelen;
	int len;

	if (namelen < 1 || namelen > KMC_COOKED_MAX)
		return -EINVAL;
	size = min_t(size_t, size, KMC_UNCOOKED_MAX);

	switch (name[0]) {
	case 'D':
		len = namelen - 1;
		if ((size_t)len > size)
			return -EINVAL;
		memcpy(key, name + 1, len);
		break;
	case 'S':
	case 'T':
		len = kmc_uncook_words(name + 1, end, name[0] == 'S', key,
				       size);
		break;
	case 'E':
		len = kmc_uncook_base64(name + 1, end, key, size);
		break;
	default:
		return -EINVAL;
	}
	if (len < 0)
		return len;

	if (!kmc_cooks_to(key, len, name, namelen))
		return -EINVAL;
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(kmc_uncook_key);
