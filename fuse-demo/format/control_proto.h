/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protocol of kmirror-cachefs's control socket DIR/kmirror.sock,
 * shared by the daemon (fuse-demo/cachefs/control.c, which serves it and
 * lists its verbs) and the CLI (userspace/cli/cache_ctl.c), as libfuse's
 * fuse_kernel.h is by both ends of /dev/fuse.
 *
 * One request a connection: the verb and its arguments, each ending in
 * '\0', at most KC_CTL_REQ_MAX bytes in all.  The reply is text, then the
 * daemon closes: "ok WHAT\n" and any data lines, or "error ERRNO WHY\n".
 * The batch verbs (pin-many, unpin-many, evict-many) take paths, one an
 * argument, and reply "ok N\n" and then one line per path, in order: "0"
 * (done), or "ERRNO WHY".
 */
#ifndef KC_CONTROL_PROTO_H
#define KC_CONTROL_PROTO_H

#define KC_CTL_REQ_MAX		(1u << 20)	/* bytes of a request */

#endif /* KC_CONTROL_PROTO_H */
