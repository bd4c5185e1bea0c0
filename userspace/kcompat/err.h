/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/err.h>: duplicated (error values folded into pointers and longs). */
#ifndef KMIRROR_KCOMPAT_ERR_H
#define KMIRROR_KCOMPAT_ERR_H

#define MAX_ERRNO	4095

#define IS_ERR_VALUE(x) \
	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

#endif
