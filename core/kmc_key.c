// SPDX-License-Identifier: GPL-2.0-only
/*
 * Key to file name encoder and decoder (see kmc_key.h for the encodings).
 */
#include "kcompat.h"
#include "kmc_key.h"

#define KMC_ONES	0x0101010101010101ULL
#define KMC_HIGHS	0x8080808080808080ULL

/*
 * Bytes @i to @keylen - 1 of @key (one to eight of them), little-endian,
 * the rest zero.  Loads overlap what was read before rather than read a
 * byte at a time.
 */
static inline u64 kmc_key_tail(const u8 *key, unsigned int keylen,
			       unsigned int i)
{
	u64 x;

	if (likely(keylen >= 8))
		return get_unaligned_le64(key + keylen - 8) >>
		       (8 * (8 - (keylen - i)));
	if (keylen >= 4)
		x = get_unaligned_le32(key) |
		    (u64)get_unaligned_le32(key + keylen - 4) <<
		    (8 * (keylen - 4));
	else
		x = key[0] | key[keylen / 2] << (8 * (keylen / 2)) |
		    key[keylen - 1] << (8 * (keylen - 1));
	return x >> (8 * i);
}

/*
 * Eight bytes at once: none below '!', none equal to '/', none above DEL,
 * as key.c's table allows.  (x - 33*ones) & highs flags the lowest byte
 * below 33 among bytes below 128; the high-bit test catches the rest.
 */
static inline bool kmc_key_printable8(u64 x)
{
	u64 slash = x ^ (KMC_ONES * '/');

	return !(((x - KMC_ONES * 33) | (slash - KMC_ONES) | x) & KMC_HIGHS);
}

/*
 * Where @key stops being printable: @keylen if it never does, else the
 * start of the eight bytes (0 for a key shorter than eight) that are not.
 * With @copy, the bytes checked go there as they are read, a D name's
 * body written in the same pass.
 */
static __always_inline unsigned int kmc_key_printable(const u8 *key,
						      unsigned int keylen,
						      char *copy)
{
	unsigned int i;
	u64 x;

	if (keylen < 8) {
		if (!keylen)
			return 0;
		/* The missing bytes read as '0'. */
		x = kmc_key_tail(key, keylen, 0);
		if (!kmc_key_printable8(x | KMC_ONES * '0' << (8 * keylen)))
			return 0;
		if (copy && keylen >= 4) {
			put_unaligned_le32(x, copy);
			put_unaligned_le32(x >> (8 * (keylen - 4)),
					   copy + keylen - 4);
		} else if (copy) {
			copy[0] = x;
			copy[keylen / 2] = x >> (8 * (keylen / 2));
			copy[keylen - 1] = x >> (8 * (keylen - 1));
		}
		return keylen;
	}
	/* Two loops, so that neither tests @copy at every step. */
	for (i = 0; copy && i + 8 < keylen; i += 8) {
		x = get_unaligned_le64(key + i);
		if (!kmc_key_printable8(x))
			return i;
		put_unaligned_le64(x, copy + i);
	}
	for (; !copy && i + 8 < keylen; i += 8)
		if (!kmc_key_printable8(get_unaligned_le64(key + i)))
			return i;
	x = get_unaligned_le64(key + keylen - 8);
	if (!kmc_key_printable8(x))
		return i;
	if (copy)
		put_unaligned_le64(x, copy + keylen - 8);
	return keylen;
}

/*
 * A 1 in each byte of the result where @x has a zero byte, and where a
 * one byte has a zero byte below it: the borrow of x - ones runs on
 * through it.  That counts too many, never too few, which is all
 * kmc_cook_plan()'s bound needs.
 */
static inline u64 kmc_zero_bytes8(u64 x)
{
	return ((x - KMC_ONES) & ~x & KMC_HIGHS) >> 7;
}

/*
 * The zero bytes of @key from @i on (at least eight bytes, @i below
 * @keylen), eight at a time, or more (see kmc_zero_bytes8()); the last
 * eight bytes overlap, their bytes before @i counted already are left
 * out.
 */
static inline unsigned int kmc_key_zeros(const u8 *key,
					 unsigned int keylen, unsigned int i)
{
	u64 sum = 0;

	for (; i + 8 < keylen; i += 8)
		sum += kmc_zero_bytes8(get_unaligned_le64(key + i));
	sum += kmc_zero_bytes8(get_unaligned_le64(key + keylen - 8)) &
	       ~0ULL << (8 * (i + 8 - keylen));
	/* Eight counts of at most 252 in all: add them in the top byte. */
	return (sum * KMC_ONES) >> 56;
}

static inline unsigned int kmc_hex_digits(u32 x)
{
	return x ? (32 - __builtin_clz(x) + 3) / 4 : 0;
}

/* The last, partial word of a key, its missing bytes read as zero. */
static inline u32 kmc_key_tail_word(const u8 *key, unsigned int keylen,
				    unsigned int i, bool big_endian)
{
	u32 le = kmc_key_tail(key, keylen, i);	/* at most three bytes */

	if (!big_endian)
		return le;
	return (le & 0xff) << 24 | (le & 0xff00) << 8 | ((le >> 8) & 0xff00);
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
static __always_inline void kmc_word_name_lengths(const u8 *key,
						  unsigned int keylen,
						  unsigned int limit,
						  unsigned int *nbe,
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

static const char kmc_hexdigits[16] = "0123456789abcdef";

/*
 * @x's digits, no leading zeros, at @p; @end bounds the buffer.  With room
 * for eight, eight are stored from the first significant one, the last
 * ones zeros that the rest of the name writes over.
 */
static inline unsigned int kmc_put_hex(char *p, const char *end, u32 x)
{
	unsigned int n = kmc_hex_digits(x), j;

	if (!n)
		return 0;
	x <<= 32 - 4 * n;
	if (likely(end - p >= 8)) {
		p[0] = kmc_hexdigits[x >> 28];
		p[1] = kmc_hexdigits[(x >> 24) & 15];
		p[2] = kmc_hexdigits[(x >> 20) & 15];
		p[3] = kmc_hexdigits[(x >> 16) & 15];
		p[4] = kmc_hexdigits[(x >> 12) & 15];
		p[5] = kmc_hexdigits[(x >> 8) & 15];
		p[6] = kmc_hexdigits[(x >> 4) & 15];
		p[7] = kmc_hexdigits[x & 15];
		return n;
	}
	for (j = 0; j < n; j++, x <<= 4)
		p[j] = kmc_hexdigits[x >> 28];
	return n;
}

/*
 * Word @i of an S or T name: 'S'/'T' (first) or ',', then its digits;
 * @end bounds the buffer.
 */
static unsigned int kmc_cook_word(const u8 *key, unsigned int keylen,
				  unsigned int i, bool be, char *p,
				  const char *end)
{
	p[0] = i ? ',' : be ? 'S' : 'T';
	return 1 + kmc_put_hex(p + 1, end,
			       kmc_key_word(key, keylen, i, be));
}

static __always_inline int kmc_cook_words(const u8 *key, unsigned int keylen,
					  bool be, char *name, const char *end)
{
	unsigned int i, len = 0;

	for (i = 0; i < keylen; i += 4)
		len += kmc_cook_word(key, keylen, i, be, name + len, end);
	return len;
}

static const char kmc_charmap[64] =
	"0123456789"			/* 0 - 9 */
	"abcdefghijklmnopqrstuvwxyz"	/* 10 - 35 */
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ"	/* 36 - 61 */
	"_-"				/* 62 - 63 */
	;

/* The characters for the low 24 bits of @x, low six bits first. */
static inline void kmc_put_b64(char *p, u32 x)
{
	p[0] = kmc_charmap[x & 63];
	p[1] = kmc_charmap[(x >> 6) & 63];
	p[2] = kmc_charmap[(x >> 12) & 63];
	p[3] = kmc_charmap[(x >> 18) & 63];
}

/* Two groups at once: the characters for the low 48 bits of @x. */
static inline void kmc_put_b64x2(char *p, u64 x)
{
	kmc_put_b64(p, x);
	kmc_put_b64(p + 4, x >> 24);
}

/*
 * The base64 group at @i, little-endian, bytes past @keylen read as zero
 * (the short last group).
 */
static inline u32 kmc_b64_group(const u8 *key, unsigned int keylen,
				unsigned int i)
{
	if (likely(i + 4 <= keylen))
		return get_unaligned_le32(key + i) & 0xffffff;
	return kmc_key_tail(key, keylen, i) & 0xffffff;
}

/* Base64's pad digit: the bytes the short last group lacks. */
static unsigned int kmc_b64_pad(unsigned int keylen)
{
	return DIV_ROUND_UP(keylen, 3) * 3 - keylen;
}

/*
 * Base64 as key.c does it: little-endian groups, a short last group.  Two
 * groups, eight characters, a step while eight bytes can be loaded; then
 * the last one to seven bytes, zero-filled.  Nothing is written past the
 * name: every store is of characters it has.
 */
static void kmc_cook_base64(const u8 *key, unsigned int keylen, char *name)
{
	unsigned int i;
	char *p = name + 2;
	u64 x;

	name[0] = 'E';
	name[1] = '0' + kmc_b64_pad(keylen);
	for (i = 0; i + 8 <= keylen; i += 6, p += 8)
		kmc_put_b64x2(p, get_unaligned_le64(key + i));
	x = kmc_key_tail(key, keylen, i);
	if (keylen - i > 6) {
		kmc_put_b64x2(p, x);
		x >>= 48;
		i += 6;
		p += 8;
	}
	kmc_put_b64(p, x);
	if (keylen - i > 3)
		kmc_put_b64(p + 4, x >> 24);
}

/*
 * The name cachefiles_cook_key() gives @key: returns its type letter ('D',
 * 'S', 'T' or 'E') and puts its length, without the NUL, in *@len; or
 * -ENAMETOOLONG for a key cachefiles cannot take.  With @copy, a D name's
 * body is written there already.
 */
static __always_inline int kmc_cook_plan(const u8 *key, unsigned int keylen,
					 unsigned int *len, char *copy)
{
	unsigned int i, nbe, nle, b64len, words;

	if (keylen > KMC_KEY_MAX)
		return -ENAMETOOLONG;
	i = kmc_key_printable(key, keylen, copy);
	if (i == keylen) {
		*len = keylen + 1;
		return 'D';
	}
	b64len = 2 + 4 * DIV_ROUND_UP(keylen, 3);
	/*
	 * A word with z < 4 zero bytes has its first nonzero byte at most z
	 * bytes from its top, either way round: 2 * (4 - z) - 1 digits at
	 * least, 8 - 2 * z characters with its comma (and 1 >= 0 for z = 4).
	 * So both S and T names are at least 8 * words - 2 * zeros long, the
	 * zero padding of the last word counted, and when that reaches the
	 * base64 length, E it is without counting digits.  The bytes before
	 * @i are printable, none zero.
	 */
	if (keylen > 8) {
		words = DIV_ROUND_UP(keylen, 4);
		if (8 * words >= b64len + 2 * (4 * words - keylen +
				kmc_key_zeros(key, keylen, i))) {
			*len = b64len;
			return 'E';
		}
	}
	kmc_word_name_lengths(key, keylen, b64len, &nbe, &nle);
	/* Either is short: the loop ran to the end, both lengths are whole. */
	if (nbe < b64len || nle < b64len) {
		*len = min(nbe, nle);
		return nbe <= nle ? 'S' : 'T';
	}
	*len = b64len;
	return 'E';
}

/* kmc_cook_plan() out of line, for the callers that copy nothing. */
static int kmc_plan_name(const u8 *key, unsigned int keylen,
			 unsigned int *len)
{
	return kmc_cook_plan(key, keylen, len, NULL);
}

/*
 * Cook @keylen bytes of @key into @name (NUL-terminated, @size bytes).
 * Returns the name's length, -ENAMETOOLONG for a key cachefiles cannot take,
 * or -ENOSPC if @size is too small (KMC_COOKED_MAX + 1 always suffices).
 * Where a D name would fit, the printability check copies the key into it
 * as it goes; another name then writes over that.  So the bytes of @name
 * past the NUL may be written too, never past @size.
 */
int kmc_cook_key(const u8 *key, unsigned int keylen, char *name, size_t size)
{
	unsigned int len;
	int type = kmc_cook_plan(key, keylen, &len,
				 size >= (size_t)keylen + 2 ? name + 1 : NULL);

	if (type < 0)
		return type;
	if (size < len + 1)
		return -ENOSPC;
	switch (type) {
	case 'D':
		name[0] = 'D';
		break;
	case 'E':
		kmc_cook_base64(key, keylen, name);
		break;
	default:
		kmc_cook_words(key, keylen, type == 'S', name, name + size);
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
	int type = kmc_plan_name(key, keylen, &len);

	return type < 0 ? type : (int)len;
}
EXPORT_SYMBOL(kmc_cooked_len);

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
			/* lower-case only, as "%x" writes them */
			v = hex_to_bin(*p);
			if (v < 0 || _tolower(*p) != *p || digits == 8 ||
			    (digits == 0 && v == 0))
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
		n = kmc_cook_word(key, keylen, i, be, piece,
				  piece + sizeof(piece));
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
	int type = kmc_plan_name(key, keylen, &len);

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
