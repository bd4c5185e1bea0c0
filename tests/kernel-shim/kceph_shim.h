/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ground under the tree's own CephFS source parsing, which
 * extract_ceph.py cuts out of the unpacked 6.1 tree unchanged and
 * kernel_ceph.c compiles.  Constants and structures come from the tree
 * too (see extract_ceph.py); this file only has what they stand on.
 * Every entry is one of:
 *
 *   duplicated - the kernel's definition (x86-64, Debian's config)
 *   stubbed    - never reached by the differential test's inputs; it
 *                aborts if it is, so the test cannot silently go wrong
 *   custom     - a userspace stand-in keeping the kernel's contract
 *
 * kceph_shim_fc.h has the second half (struct fs_context and friends),
 * which needs the tree's struct p_log first.
 */
#ifndef KCEPH_SHIM_H
#define KCEPH_SHIM_H

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* duplicated: <linux/types.h>, <linux/compiler*.h> */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint16_t __be16;
typedef uint32_t __be32;
#define __force
#define __aligned(x)		__attribute__((__aligned__(x)))
#define noinline_for_stack	__attribute__((__noinline__))
#define noinline		__attribute__((__noinline__))
#define fallthrough		__attribute__((__fallthrough__))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define BITS_PER_LONG		64
#define BITS_PER_LONG_LONG	64
#define CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS 1

/* duplicated: Debian 6.1 amd64 config (config.amd64_none_amd64) */
#define CONFIG_CEPH_FSCACHE	1
#define CONFIG_CEPH_FS_POSIX_ACL 1
/* CONFIG_CEPH_LIB_USE_DNS_RESOLVER is not set there: names are refused. */

/* duplicated: byte order on little-endian x86-64 */
#define cpu_to_le16(x)		((u16)(x))
#define __cpu_to_le32(x)	((u32)(x))
#define le32_to_cpu(x)		((u32)(x))
#define cpu_to_be32(x)		htonl(x)

/* custom: <asm/unaligned.h> through memcpy */
#define get_unaligned(ptr) ({ __typeof__(*(ptr)) __v; \
	memcpy(&__v, (ptr), sizeof(__v)); __v; })
#define put_unaligned(val, ptr) ({ __typeof__(*(ptr)) __v = (val); \
	memcpy((ptr), &__v, sizeof(__v)); (void)0; })

/* duplicated: <linux/err.h> */
#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE((unsigned long)ptr);
}

/* duplicated: include/linux/errno.h */
#define ENOPARAM	519

/* duplicated: <linux/mm.h>, <linux/math.h> (x86-64) */
#define PAGE_SIZE	4096UL
#define ALIGN(x, a)	(((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))

/* duplicated: include/linux/fs.h SB_* bits */
#define SB_RDONLY	(1 << 0)
#define SB_SYNCHRONOUS	(1 << 4)
#define SB_MANDLOCK	(1 << 6)
#define SB_DIRSYNC	(1 << 7)
#define SB_POSIXACL	(1 << 16)
#define SB_LAZYTIME	(1 << 25)

/* duplicated: include/linux/ceph/rados.h enum values */
#define CEPH_OSD_FLAG_BALANCE_READS	0x0100
#define CEPH_OSD_FLAG_LOCALIZE_READS	0x2000

/* custom: one thread, so a plain counter is the atomic */
typedef struct { int counter; } atomic_t;
#define ATOMIC_INIT(i)		{ (i) }
#define atomic_inc_return(v)	(++(v)->counter)

/* custom: logging that the parsers only use for debugging */
#define dout(...)	do { } while (0)
#define pr_info(...)	do { } while (0)
#define pr_notice(...)	do { } while (0)
#define pr_err(...)	do { } while (0)
#define BUG()		abort()
#define msecs_to_jiffies(m)	((unsigned long)(m))

/* duplicated: <linux/math64.h> on 64-bit */
static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

/* custom: <linux/slab.h>, <linux/string.h> allocation over malloc */
#define GFP_KERNEL	0
static inline void kfree(const void *p) { free((void *)p); }
static inline void *kzalloc(size_t n, int gfp) { return calloc(1, n); }
static inline void *kcalloc(size_t n, size_t size, int gfp)
{
	return calloc(n, size);
}
static inline char *kmemdup_nul(const char *s, size_t len, int gfp)
{
	char *p = malloc(len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}
static inline char *kstrndup(const char *s, size_t max, int gfp)
{
	return s ? kmemdup_nul(s, strnlen(s, max), gfp) : NULL;
}
static inline char *kstrdup(const char *s, int gfp)
{
	return s ? kmemdup_nul(s, strlen(s), gfp) : NULL;
}

/* custom: lib/vsprintf.c plumbing around the extracted formatters */
struct printf_spec {
	int field_width;
	int precision;
};
static inline int check_pointer(char **buf, char *end, const void *ptr,
				struct printf_spec spec)
{
	return ptr ? 0 : (abort(), 1);
}
char *string_nocheck(char *buf, char *end, const char *s,
		     struct printf_spec spec);
/* %s %d %hu %pU %pI4 %pI6c only; anything else aborts. */
char *kasprintf(int gfp, const char *fmt, ...);
int kceph_snprintf(char *buf, size_t size, const char *fmt, ...);

/* stubbed: keys, secrets and CRUSH locations are never generated */
struct ceph_crypto_key {
	int type;
};
struct rb_root {
	void *rb_node;
};
#define RB_ROOT (struct rb_root) { NULL }
static inline void ceph_crypto_key_destroy(struct ceph_crypto_key *k)
{
	if (k)
		abort();
}
static inline int ceph_crypto_key_unarmor(struct ceph_crypto_key *k,
					  const char *s)
{
	abort();
}
static inline void ceph_clear_crush_locs(struct rb_root *locs)
{
	abort();
}
static inline int ceph_parse_crush_location(char *s, struct rb_root *locs)
{
	abort();
}

/* stubbed: no LSM takes mount options in the test */
#define security_fs_context_parse_param(fc, param)	(-ENOPARAM)
#define security_sb_eat_lsm_opts(options, sec)		0

#endif
