# SPDX-License-Identifier: GPL-2.0-only
# The guest is up: the kernel's version and command line.  Also the probe
# that tells whether an accelerator boots at all.
uname -a
cat /proc/cmdline
