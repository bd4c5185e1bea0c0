// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmirror cache pin|unpin|evict DIR PATH..., kmirror cache pins DIR: what a
 * mounted kmirror-cachefs keeps, asked through DIR/kmirror.sock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cache_ctl.h"
#include "control_proto.h"

static const char km_cache_pin_usage[] =
	"usage: kmirror cache pin|unpin|evict DIR PATH...\n"
	"       kmirror cache unpin DIR --gone\n"
	"Ask the kmirror-cachefs mounted with the cache DIR to keep (pin),\n"
	"stop keeping (unpin) or drop now (evict) the cached data of each\n"
	"PATH: a file in the mount, or a directory, for every file under it\n"
	"(symbolic links are not followed below the PATHs given).\n"
	"A pinned file is never culled, whatever the cache's limits; a pin\n"
	"holds before the file is cached (pin, then `kmirror cache warm`),\n"
	"when it changes at the source, and across remounts\n"
	"(DIR/kmirror-pins).  evict refuses pinned files and open ones.\n"
	"A file's pin follows its source inode: after the file is deleted or\n"
	"renamed, `kmirror cache pins` shows its pin as gone, and\n"
	"`unpin DIR --gone` drops every such pin: only those the source\n"
	"says are gone, none while it does not answer (then an error).\n"
	"Root or the daemon's user only.  Prints one line: what was done.\n"
	"Exit status 1: some PATH was refused (why, on stderr); 2: bad\n"
	"usage.\n" KM_CTL_TIMEOUT_HELP;

static const char km_cache_pins_usage[] =
	"usage: kmirror cache pins DIR\n"
	"List the files pinned in the kmirror-cachefs mounted with the cache\n"
	"DIR, one a line: \"cached BYTES PATH\", \"absent - PATH\" when the\n"
	"file has no data in the cache now, or \"gone - PATH\" when PATH no\n"
	"longer names the file pinned (PATH: as pinned, from the mount's\n"
	"root).\n" KM_CTL_TIMEOUT_HELP;

/*
 * A verb, and the batch of files it is sent for: one request
 * "VERB-many\0PATH\0PATH\0..." of at most KC_CTL_REQ_MAX bytes, each PATH
 * from the mount's root; @shown: each as found, for messages.
 */
struct km_pin_verb {
	const char	*verb, *done;	/* "pin", "pinned" */
	int		benign;		/* an errno that is no failure */
	const char	*benign_said;	/* "already pinned" */
	unsigned long	benign_n;
	char		*req;
	size_t		len, head;	/* bytes; of "VERB-many\0" */
	char		**shown;
	size_t		n, cap;
};

/* "error N why\n..." -> "why" (the reply is cut after it). */
static const char *km_reply_message(char *reply)
{
	char *p = strchr(reply, ' ');

	reply[strcspn(reply, "\n")] = '\0';
	p = p ? strchr(p + 1, ' ') : NULL;
	return p ? p + 1 : reply;
}

/* The batch's reply lines, "0" or "ERRNO WHY", one per file. */
static void km_pin_results(struct km_ctl_walk *w, struct km_pin_verb *v,
			   const char *p)
{
	size_t i, len;
	long err;
	char *end;

	for (i = 0; i < v->n; i++, p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		err = strtol(p, &end, 10);
		w->files++;
		if (!len || (*end != ' ' && end != p + len)) {
			w->errors++;
			km_error("%s: no answer from the daemon", v->shown[i]);
		} else if (!err) {
			w->done++;
		} else if (err == v->benign) {
			v->benign_n++;
		} else {
			w->errors++;
			km_error("%s: %.*s", v->shown[i],
				 (int)(len - (end + 1 - p)), end + 1);
		}
	}
}

/* Send the batch, count what was done: 0, or the exit status to stop. */
static int km_pin_flush(struct km_ctl_walk *w, struct km_pin_verb *v)
{
	const char *rest;
	char *reply = NULL;
	size_t i;
	int ret = 0;

	if (!v->n)
		return 0;
	ret = km_ctl_request_buf(w->dir, v->req, v->len, &reply);
	if (ret) {
		ret = km_ctl_refused(w->dir, ret);
	} else if (km_ctl_status(reply, &rest)) {
		w->errors += v->n;
		km_error("%s: %s", w->dir, km_reply_message(reply));
	} else {
		km_pin_results(w, v, rest);
	}
	free(reply);
	for (i = 0; i < v->n; i++)
		free(v->shown[i]);
	v->n = 0;
	v->len = v->head;
	return ret;
}

static int km_pin_file(struct km_ctl_walk *w, const char *path,
		       const char *rel, const struct stat *st)
{
	struct km_pin_verb *v = w->priv;
	size_t len = strlen(rel) + 1, cap = v->cap ? 2 * v->cap : 256;
	char **ns;
	int ret;

	(void)st;
	/* A path (PATH_MAX at most) always fits in an empty batch. */
	if (v->len + len > KC_CTL_REQ_MAX && (ret = km_pin_flush(w, v)))
		return ret;
	if (v->n == v->cap) {
		ns = realloc(v->shown, cap * sizeof(*ns));
		if (!ns)
			return km_fail("out of memory");
		v->shown = ns;
		v->cap = cap;
	}
	v->shown[v->n] = strdup(path);
	if (!v->shown[v->n])
		return km_fail("out of memory");
	v->n++;
	memcpy(v->req + v->len, rel, len);
	v->len += len;
	return 0;
}

static int km_cache_pin_verb(int argc, char **argv, struct km_pin_verb *v)
{
	struct km_ctl_walk w = { .file = km_pin_file, .priv = v };
	int ret = km_ctl_begin(argc, argv, km_cache_pin_usage, v->verb, &w);

	if (ret >= 0)
		return ret;
	v->req = malloc(KC_CTL_REQ_MAX);
	if (!v->req)
		return km_fail("out of memory");
	v->head = v->len = snprintf(v->req, KC_CTL_REQ_MAX, "%s-many",
				    v->verb) + 1;
	ret = km_ctl_walk(&w, argv + 2, argc - 2);
	if (!ret)
		ret = km_pin_flush(&w, v);
	while (v->n)
		free(v->shown[--v->n]);
	free(v->shown);
	free(v->req);
	if (ret)
		return ret;
	printf("%s %lu file%s", v->done, w.done, w.done == 1 ? "" : "s");
	if (v->benign_n)
		printf(" (%lu %s)", v->benign_n, v->benign_said);
	if (w.errors)
		printf(", %lu refused", w.errors);
	putchar('\n');
	return w.errors ? KM_EXIT_FAIL : KM_EXIT_OK;
}

int km_cache_pin(int argc, char **argv)
{
	struct km_pin_verb v = { .verb = "pin", .done = "pinned",
				 .benign = EEXIST,
				 .benign_said = "already pinned" };

	return km_cache_pin_verb(argc, argv, &v);
}

/* unpin DIR --gone: the pins whose path no longer names their file. */
static int km_cache_unpin_gone(const char *dir)
{
	const char *rest;
	char *reply = NULL;
	int ret = km_ctl_request(dir, "unpin-gone", "", &reply);

	if (ret)
		return km_ctl_refused(dir, ret);
	ret = km_ctl_status(reply, &rest);
	if (!ret)
		printf("unpinned %ld gone pins\n", strtol(reply + 3, NULL, 10));
	else
		km_error("%s: %s", dir, km_reply_message(reply));
	free(reply);
	return ret ? KM_EXIT_FAIL : KM_EXIT_OK;
}

int km_cache_unpin(int argc, char **argv)
{
	struct km_pin_verb v = { .verb = "unpin", .done = "unpinned",
				 .benign = ENOENT,
				 .benign_said = "not pinned" };

	if (argc == 3 && !strcmp(argv[2], "--gone"))
		return km_cache_unpin_gone(argv[1]);

	return km_cache_pin_verb(argc, argv, &v);
}

int km_cache_evict(int argc, char **argv)
{
	struct km_pin_verb v = { .verb = "evict", .done = "evicted",
				 .benign = ENOENT,
				 .benign_said = "not in the cache" };

	return km_cache_pin_verb(argc, argv, &v);
}

int km_cache_pins(int argc, char **argv)
{
	const char *rest;
	char *reply = NULL;
	int ret;

	if (argc == 2 && km_is_help(argv[1])) {
		fputs(km_cache_pins_usage, stdout);
		return KM_EXIT_OK;
	}
	if (argc != 2)
		return km_error("usage: kmirror cache pins DIR (see --help)");
	ret = km_ctl_request(argv[1], "pins", "", &reply);
	if (ret)
		return km_ctl_refused(argv[1], ret);
	ret = km_ctl_status(reply, &rest);
	if (!ret)
		km_put_text_with(stdout, rest, strlen(rest), '\n', "\n");
	else
		km_error("%s: %s", argv[1], km_reply_message(reply));
	free(reply);
	return ret ? KM_EXIT_FAIL : KM_EXIT_OK;
}
