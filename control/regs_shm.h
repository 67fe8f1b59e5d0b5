/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Register files in POSIX shared memory (DESIGN.md §3): the dataplane (dfly-switch) creates one
 * object per hosted router, mode 0600, and keeps forwarding on it; the firmware daemon
 * (dfly-controld) maps the same object and runs the firmware of `dfly sim` against it. The
 * object's name is "/dfly.<instance>.r<router>", so several testbeds on one machine do not
 * collide. Opening checks the magic, the layout version, the size and the router id, so a
 * daemon built against another layout refuses to attach instead of misreading counters.
 *
 * No DPDK here: DPDK secondary processes need hugepages, which the target machines lack.
 */
#ifndef DFLY_REGS_SHM_H
#define DFLY_REGS_SHM_H

#include <stddef.h>
#include <stdint.h>

#include "dfly/regs.h"

#define DFLY_SHM_NAME_MAX 64 /**< bytes of an object name, NUL included */
/** Where Linux shows the objects as files ("/dfly.X.r0" is DFLY_SHM_DIR "/dfly.X.r0"). */
#define DFLY_SHM_DIR "/dev/shm"

/** A mapped register file. */
struct dfly_regs_shm {
	struct dfly_regs *regs; /**< the mapping */
	char name[DFLY_SHM_NAME_MAX];
	int owner; /**< 1 if this handle created the object (and unlinks it on destroy) */
};

/**
 * Name of router @p router's object for testbed instance @p instance ([A-Za-z0-9_-], 1..32
 * characters). @return 0 or -EINVAL.
 */
int dfly_regs_shm_name(char *buf, size_t len, const char *instance, uint32_t router);

/**
 * Dataplane side: create the object (O_EXCL, mode 0600), size it, map it and initialise the
 * register file (dfly_regs_init). @return 0, -EEXIST (a live or stale object of that name: see
 * dfly_regs_shm_unlink), -EINVAL or another -errno.
 */
int dfly_regs_shm_create(struct dfly_regs_shm *s, const char *instance, uint32_t router,
			 uint32_t nports);

/**
 * Firmware side: map an existing object read-write and check its layout (magic, version, size)
 * and router id. @return 0, -ENOENT, -EAGAIN (created but not initialised yet: try again),
 * -EPROTO (another layout or another router) or -errno.
 */
int dfly_regs_shm_open(struct dfly_regs_shm *s, const char *instance, uint32_t router);

/** Unmap; the creator also unlinks the object. NULL mapping is accepted. */
void dfly_regs_shm_close(struct dfly_regs_shm *s);

/**
 * The message for a dfly_regs_shm_create() of @p instance's router @p router that returned
 * @p rc, into @p buf: the file and what went wrong; for -EEXIST, that another run uses the
 * instance or a run was killed, and that `dfly clean --instance` removes what it left.
 */
void dfly_regs_shm_create_msg(char *buf, size_t len, const char *instance, uint32_t router, int rc);

/** Remove a stale object (e.g. after a crash). @return 0, -ENOENT or -errno. */
int dfly_regs_shm_unlink(const char *instance, uint32_t router);

#endif /* DFLY_REGS_SHM_H */
