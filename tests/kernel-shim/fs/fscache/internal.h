/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stands in for fs/fscache/internal.h (and the headers it pulls in) when
 * the tree's fs/fscache/cookie.c, stock or with kernel/patches applied, is
 * compiled into the single-threaded differential test of the cookie state
 * machine (diff_cookie.c).  Only what cookie.c touches is here.
 *
 *   custom:  locks that only check their own balance (one thread); a work
 *            queue, a timer and jiffies owned by the test (kshim.c), which
 *            decides when work runs and time passes; waits that make
 *            progress by running queued work or finishing the test's own
 *            cache accesses, as the other threads of a kernel would;
 *            WARN and BUG counted, BUG and ASSERTCMP ending the operation
 *   copied:  the structures, flag bits and inline helpers of
 *            include/linux/fscache.h and fscache-cache.h, cut to the fields
 *            cookie.c uses, and the trace enums of trace/events/fscache.h
 *   stubbed: trace points, statistics, _enter/_leave/_debug
 */
#ifndef KMIRROR_COOKIE_SHIM_INTERNAL_H
#define KMIRROR_COOKIE_SHIM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include "kcompat.h"


/* --- what the test records (kshim.c) ---------------------------------- */
void ksm_warn(const char *file, int line);
_Noreturn void ksm_bug(const char *file, int line);
bool ksm_progress(void);	/* run one work item or end one access */
void ksm_hang(void);		/* a wait nothing can end */
extern unsigned long ksm_jiffies;
#define jiffies ksm_jiffies

#define WARN(cond, ...)							\
	({ bool __c = !!(cond); if (__c) ksm_warn(__FILE__, __LINE__); __c; })
#define WARN_ONCE(cond, ...)	WARN(cond)
#define WARN_ON_ONCE(cond)	WARN(cond)
#define WARN_ON(cond)		WARN(cond)
#define BUG()			ksm_bug(__FILE__, __LINE__)
#define ASSERTCMP(X, OP, Y)						\
	do { if (!((X) OP (Y))) ksm_bug(__FILE__, __LINE__); } while (0)
#define _enter(...)	do { } while (0)
#define _leave(...)	do { } while (0)
#define _debug(...)	do { } while (0)
#undef pr_err
#define pr_err(...)	do { } while (0)
#define pr_notice(...)	do { } while (0)
#define __acquires(x)
#define __releases(x)
/* include/linux/build_bug.h: the message is optional */
#define static_assert(expr, ...) __static_assert(expr, ##__VA_ARGS__, #expr)
#define __static_assert(expr, msg, ...) _Static_assert(expr, msg)

/* --- one thread: locks only check that they balance --------------------- */
typedef struct { int held; } spinlock_t;
typedef struct { int held; } rwlock_t;
#define DEFINE_SPINLOCK(x)	spinlock_t x = { 0 }
#define DEFINE_RWLOCK(x)	rwlock_t x = { 0 }
#define spin_lock_init(l)	((l)->held = 0)
#define ksm_lock(l)							\
	do { if ((l)->held++) ksm_bug(__FILE__, __LINE__); } while (0)
#define ksm_unlock(l)							\
	do { if (--(l)->held) ksm_bug(__FILE__, __LINE__); } while (0)
#define spin_lock(l)		ksm_lock(l)
#define spin_unlock(l)		ksm_unlock(l)
#define read_lock(l)		ksm_lock(l)
#define read_unlock(l)		ksm_unlock(l)
#define write_lock(l)		ksm_lock(l)
#define write_unlock(l)		ksm_unlock(l)

#define smp_mb()		do { } while (0)
#define smp_mb__before_atomic()	do { } while (0)
#define smp_mb__after_atomic()	do { } while (0)
#define smp_store_release(p, v)	(*(p) = (v))
#define smp_load_acquire(p)	(*(p))
#define READ_ONCE(x)		(x)

/* --- counters and bits ------------------------------------------------- */
typedef struct { int refs; } refcount_t;
static inline int refcount_read(const refcount_t *r) { return r->refs; }
static inline void refcount_set(refcount_t *r, int n) { r->refs = n; }
static inline void __refcount_inc(refcount_t *r, int *old)
{
	*old = r->refs++;
}
static inline bool __refcount_dec_and_test(refcount_t *r, int *old)
{
	*old = r->refs--;
	return r->refs == 0;
}

static inline void atomic_inc(atomic_t *v) { atomic_inc_return(v); }
static inline void atomic_dec(atomic_t *v) { atomic_dec_return(v); }
static inline int atomic_fetch_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	if (c != u)
		atomic_set(v, c + a);
	return c;
}

#include <linux/bitops.h>
#define BITS_PER_LONG	64
#define __set_bit(nr, w)	set_bit(nr, w)
#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = 0; (bit) < (size); (bit)++)			\
		if (test_bit((bit), (addr)))

/* --- time: the test's clock, HZ 250 as Debian's amd64 config ---------- */
#define HZ		250
#define MSEC_PER_SEC	1000L
#define time_before(a, b)	((long)((a) - (b)) < 0)
static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return (unsigned int)(j * (MSEC_PER_SEC / HZ));
}

/* --- lists --------------------------------------------------------------- */
struct list_head { struct list_head *next, *prev; };
#define LIST_HEAD_INIT(n)	{ &(n), &(n) }
#define LIST_HEAD(n)		struct list_head n = LIST_HEAD_INIT(n)
static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}
static inline bool list_empty(const struct list_head *l)
{
	return l->next == l;
}
static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}
/* Unlinking through a NULL pointer is an oops in the kernel: here a BUG. */
static inline void list_del(struct list_head *e)
{
	if (!e->prev || !e->next)
		BUG();
	e->prev->next = e->next;
	e->next->prev = e->prev;
}
static inline void list_del_init(struct list_head *e)
{
	list_del(e);
	INIT_LIST_HEAD(e);
}
static inline void list_move_tail(struct list_head *e, struct list_head *h)
{
	list_del(e);
	list_add_tail(e, h);
}
#define list_entry(p, t, m)		container_of(p, t, m)
#define list_first_entry(h, t, m)	list_entry((h)->next, t, m)

struct hlist_bl_node { struct hlist_bl_node *next, **pprev; };
struct hlist_bl_head { struct hlist_bl_node *first; };
#define hlist_bl_lock(h)	do { } while (0)
#define hlist_bl_unlock(h)	do { } while (0)
static inline void hlist_bl_add_head(struct hlist_bl_node *n,
				     struct hlist_bl_head *h)
{
	n->next = h->first;
	if (h->first)
		h->first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}
static inline void hlist_bl_del(struct hlist_bl_node *n)
{
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
	n->next = NULL;
	n->pprev = NULL;
}
#define hlist_bl_for_each_entry(tpos, pos, head, member)		\
	for (pos = (head)->first;					\
	     pos && ((tpos = container_of(pos, typeof(*tpos), member)), 1); \
	     pos = pos->next)

/* --- work, timers, waits: the test's (kshim.c) -------------------------- */
struct work_struct;
typedef void (*work_func_t)(struct work_struct *);
struct work_struct {
	work_func_t func;
	bool pending;
	struct work_struct *next;
};
struct workqueue_struct;
extern struct workqueue_struct *fscache_wq;
#define INIT_WORK(w, f)		((w)->func = (f), (w)->pending = false)
#define DECLARE_WORK(n, f)	struct work_struct n = { .func = (f) }
bool queue_work(struct workqueue_struct *wq, struct work_struct *w);

struct timer_list {
	void (*function)(struct timer_list *);
	unsigned long expires;
	bool armed;
};
#define DEFINE_TIMER(n, f)	struct timer_list n = { .function = (f) }
int timer_reduce(struct timer_list *t, unsigned long expires);

#define wake_up_var(v)		do { } while (0)
#define wake_up_bit(w, b)	do { } while (0)
#define waitqueue_active(q)	false
#define wait_var_event(var, cond)					\
	do {								\
		while (!(cond))						\
			if (!ksm_progress()) {				\
				ksm_hang();				\
				break;					\
			}						\
	} while (0)
#define wait_var_event_timeout(var, cond, t)				\
	({ wait_var_event(var, cond); (long)!!(cond); })

/* --- memory ------------------------------------------------------------ */
/* Cookies: the test keeps a list of the live ones (kshim.c). */
struct kmem_cache { size_t size; };
void *kmem_cache_zalloc(struct kmem_cache *c, gfp_t gfp);
void kmem_cache_free(struct kmem_cache *c, void *p);
static inline void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc(len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}

/*
 * --- trace points and statistics: not observed, but one -----------------
 * trace_fscache_access() comes between taking an access and checking that
 * it may be kept (fscache_begin_cookie_access()): there the test's world
 * may do what another CPU could at that moment (kshim_access_seen()).
 */
void kshim_access_seen(int why);	/* enum fscache_access_trace */
#define trace_fscache_access(id, ref, n, why)	kshim_access_seen((int)(why))
#define trace_fscache_cookie(...)	do { } while (0)
#define trace_fscache_active(...)	do { } while (0)
#define trace_fscache_acquire(...)	do { } while (0)
#define trace_fscache_relinquish(...)	do { } while (0)
#define trace_fscache_invalidate(...)	do { } while (0)
#define fscache_see_cookie(...)		do { } while (0)
#define fscache_stat(x)			do { } while (0)
#define fscache_stat_d(x)		do { } while (0)

enum fscache_cookie_trace {
	fscache_cookie_collision,
	fscache_cookie_discard,
	fscache_cookie_failed,
	fscache_cookie_get_attach_object,
	fscache_cookie_get_end_access,
	fscache_cookie_get_hash_collision,
	fscache_cookie_get_inval_work,
	fscache_cookie_get_lru,
	fscache_cookie_get_use_work,
	fscache_cookie_new_acquire,
	fscache_cookie_put_hash_collision,
	fscache_cookie_put_lru,
	fscache_cookie_put_object,
	fscache_cookie_put_over_queued,
	fscache_cookie_put_relinquish,
	fscache_cookie_put_withdrawn,
	fscache_cookie_put_work,
	fscache_cookie_see_active,
	fscache_cookie_see_lru_discard,
	fscache_cookie_see_lru_discard_clear,
	fscache_cookie_see_lru_do_one,
	fscache_cookie_see_relinquish,
	fscache_cookie_see_withdraw,
	fscache_cookie_see_work,
};

enum fscache_access_trace {
	fscache_access_acquire_volume,
	fscache_access_acquire_volume_end,
	fscache_access_cache_pin,
	fscache_access_cache_unpin,
	fscache_access_invalidate_cookie,
	fscache_access_invalidate_cookie_end,
	fscache_access_io_end,
	fscache_access_io_not_live,
	fscache_access_io_read,
	fscache_access_io_resize,
	fscache_access_io_wait,
	fscache_access_io_write,
	fscache_access_lookup_cookie,
	fscache_access_lookup_cookie_end,
	fscache_access_lookup_cookie_end_failed,
	fscache_access_relinquish_volume,
	fscache_access_relinquish_volume_end,
	fscache_access_unlive,
};

enum fscache_active_trace {
	fscache_active_use,
	fscache_active_use_modify,
	fscache_active_unuse,
};

enum fscache_volume_trace { fscache_volume_get_cookie,
	fscache_volume_put_cookie };

/* --- include/linux/fscache.h and fscache-cache.h, cut ------------------- */
enum fscache_cookie_state {
	FSCACHE_COOKIE_STATE_QUIESCENT,
	FSCACHE_COOKIE_STATE_LOOKING_UP,
	FSCACHE_COOKIE_STATE_CREATING,
	FSCACHE_COOKIE_STATE_ACTIVE,
	FSCACHE_COOKIE_STATE_INVALIDATING,
	FSCACHE_COOKIE_STATE_FAILED,
	FSCACHE_COOKIE_STATE_LRU_DISCARDING,
	FSCACHE_COOKIE_STATE_WITHDRAWING,
	FSCACHE_COOKIE_STATE_RELINQUISHING,
	FSCACHE_COOKIE_STATE_DROPPED,
#define FSCACHE_COOKIE_STATE__NR (FSCACHE_COOKIE_STATE_DROPPED + 1)
};

enum fscache_want_state {
	FSCACHE_WANT_PARAMS,
	FSCACHE_WANT_WRITE,
	FSCACHE_WANT_READ,
};

enum fscache_cache_state {
	FSCACHE_CACHE_IS_NOT_PRESENT,
	FSCACHE_CACHE_IS_PREPARING,
	FSCACHE_CACHE_IS_ACTIVE,
	FSCACHE_CACHE_GOT_IOERROR,
	FSCACHE_CACHE_IS_WITHDRAWN,
};

#define FSCACHE_INVAL_DIO_WRITE	0x01

struct fscache_cookie;
struct fscache_volume;

struct fscache_cache_ops {
	bool (*lookup_cookie)(struct fscache_cookie *cookie);
	void (*withdraw_cookie)(struct fscache_cookie *cookie);
	bool (*invalidate_cookie)(struct fscache_cookie *cookie);
	void (*prepare_to_write)(struct fscache_cookie *cookie);
};

struct fscache_cache {
	const struct fscache_cache_ops *ops;
	enum fscache_cache_state state;
};

struct fscache_volume {
	refcount_t		ref;
	atomic_t		n_cookies;
	unsigned int		debug_id;
	unsigned int		key_hash;
	u8			*key;
	struct fscache_cache	*cache;
	void			*cache_priv;
};

struct fscache_cookie {
	refcount_t			ref;
	atomic_t			n_active;
	atomic_t			n_accesses;
	unsigned int			debug_id;
	unsigned int			inval_counter;
	spinlock_t			lock;
	struct fscache_volume		*volume;
	void				*cache_priv;
	struct hlist_bl_node		hash_link;
	struct list_head		proc_link;
	struct list_head		commit_link;
	struct work_struct		work;
	loff_t				object_size;
	unsigned long			unused_at;
	unsigned long			flags;
#define FSCACHE_COOKIE_RELINQUISHED	0
#define FSCACHE_COOKIE_RETIRED		1
#define FSCACHE_COOKIE_IS_CACHING	2
#define FSCACHE_COOKIE_NO_DATA_TO_READ	3
#define FSCACHE_COOKIE_NEEDS_UPDATE	4
#define FSCACHE_COOKIE_HAS_BEEN_CACHED	5
#define FSCACHE_COOKIE_DISABLED		6
#define FSCACHE_COOKIE_LOCAL_WRITE	7
#define FSCACHE_COOKIE_NO_ACCESS_WAKE	8
#define FSCACHE_COOKIE_DO_RELINQUISH	9
#define FSCACHE_COOKIE_DO_WITHDRAW	10
#define FSCACHE_COOKIE_DO_LRU_DISCARD	11
#define FSCACHE_COOKIE_DO_PREP_TO_WRITE	12
#define FSCACHE_COOKIE_HAVE_DATA	13
#define FSCACHE_COOKIE_IS_HASHED	14
#define FSCACHE_COOKIE_DO_INVALIDATE	15
	enum fscache_cookie_state	state;
	u8				advice;
	u8				key_len;
	u8				aux_len;
	u32				key_hash;
	union {
		void			*key;
		u8			inline_key[16];
	};
	union {
		void			*aux;
		u8			inline_aux[8];
	};
};

static inline enum fscache_cookie_state
fscache_cookie_state(struct fscache_cookie *cookie)
{
	return smp_load_acquire(&cookie->state);
}

static inline void *fscache_get_aux(struct fscache_cookie *cookie)
{
	if (cookie->aux_len <= sizeof(cookie->inline_aux))
		return cookie->inline_aux;
	return cookie->aux;
}

static inline void fscache_update_aux(struct fscache_cookie *cookie,
				      const void *aux_data,
				      const loff_t *object_size)
{
	void *p = fscache_get_aux(cookie);

	if (aux_data && p)
		memcpy(p, aux_data, cookie->aux_len);
	if (object_size)
		cookie->object_size = *object_size;
}

static inline void __fscache_update_cookie(struct fscache_cookie *cookie,
					   const void *aux_data,
					   const loff_t *object_size)
{
	fscache_update_aux(cookie, aux_data, object_size);
	set_bit(FSCACHE_COOKIE_NEEDS_UPDATE, &cookie->flags);
}

static inline bool fscache_cache_is_live(const struct fscache_cache *cache)
{
	return cache->state == FSCACHE_CACHE_IS_ACTIVE;
}

/* fs/fscache/main.c and volume.c: the test's (kshim.c) */
u32 fscache_hash(u32 salt, const void *data, size_t len);
bool fscache_begin_volume_access(struct fscache_volume *volume,
				 struct fscache_cookie *cookie,
				 enum fscache_access_trace why);
void fscache_end_volume_access(struct fscache_volume *volume,
			       struct fscache_cookie *cookie,
			       enum fscache_access_trace why);
void fscache_create_volume(struct fscache_volume *volume, bool wait);
struct fscache_volume *fscache_get_volume(struct fscache_volume *volume,
					  enum fscache_volume_trace where);
void fscache_put_volume(struct fscache_volume *volume,
			enum fscache_volume_trace where);

/* cookie.c's own, renamed per build by ksm_ns.h */
extern struct kmem_cache *fscache_cookie_jar;
void fscache_print_cookie(struct fscache_cookie *cookie, char prefix);
bool fscache_begin_cookie_access(struct fscache_cookie *cookie,
				 enum fscache_access_trace why);
void fscache_end_cookie_access(struct fscache_cookie *cookie,
			       enum fscache_access_trace why);
void fscache_cookie_lookup_negative(struct fscache_cookie *cookie);
void fscache_resume_after_invalidation(struct fscache_cookie *cookie);
void fscache_caching_failed(struct fscache_cookie *cookie);
struct fscache_cookie *__fscache_acquire_cookie(
	struct fscache_volume *volume, u8 advice,
	const void *index_key, size_t index_key_len,
	const void *aux_data, size_t aux_data_len, loff_t object_size);
void __fscache_use_cookie(struct fscache_cookie *cookie, bool will_modify);
void __fscache_unuse_cookie(struct fscache_cookie *cookie,
			    const void *aux_data, const loff_t *object_size);
void fscache_withdraw_cookie(struct fscache_cookie *cookie);
void __fscache_relinquish_cookie(struct fscache_cookie *cookie, bool retire);
void fscache_put_cookie(struct fscache_cookie *cookie,
			enum fscache_cookie_trace where);
struct fscache_cookie *fscache_get_cookie(struct fscache_cookie *cookie,
					  enum fscache_cookie_trace where);
void __fscache_invalidate(struct fscache_cookie *cookie,
			  const void *aux_data, loff_t new_size,
			  unsigned int flags);
extern struct timer_list fscache_cookie_lru_timer;

#endif
