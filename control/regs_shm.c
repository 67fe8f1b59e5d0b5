/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Register files in POSIX shared memory (regs_shm.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "regs_shm.h"

int dfly_regs_shm_name(char *buf, size_t len, const char *instance, uint32_t router)
{
	size_t n;
	int w;

	if (instance == NULL)
		return -EINVAL;
	n = strlen(instance);
	if (n == 0 || n > 32)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		char c = instance[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return -EINVAL;
	}
	w = snprintf(buf, len, "/dfly.%s.r%u", instance, router);
	return w < 0 || (size_t)w >= len ? -EINVAL : 0;
}

static void *map_fd(int fd)
{
	void *p = mmap(NULL, sizeof(struct dfly_regs), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

int dfly_regs_shm_create(struct dfly_regs_shm *s, const char *instance, uint32_t router,
			 uint32_t nports)
{
	int fd, rc;

	memset(s, 0, sizeof(*s));
	if (nports > DFLY_MAX_PORTS)
		return -EINVAL;
	rc = dfly_regs_shm_name(s->name, sizeof(s->name), instance, router);
	if (rc < 0)
		return rc;
	fd = shm_open(s->name, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return -errno;
	/* the umask may have narrowed the mode; never let it be wider than 0600 */
	if (fchmod(fd, 0600) < 0 || ftruncate(fd, sizeof(struct dfly_regs)) < 0) {
		rc = -errno;
		close(fd);
		shm_unlink(s->name);
		return rc;
	}
	s->regs = map_fd(fd);
	rc = s->regs == NULL ? -errno : 0;
	close(fd);
	if (rc < 0) {
		shm_unlink(s->name);
		return rc;
	}
	dfly_regs_init(s->regs, router, nports);
	s->owner = 1;
	return 0;
}

int dfly_regs_shm_open(struct dfly_regs_shm *s, const char *instance, uint32_t router)
{
	struct stat st;
	int fd, rc;

	memset(s, 0, sizeof(*s));
	rc = dfly_regs_shm_name(s->name, sizeof(s->name), instance, router);
	if (rc < 0)
		return rc;
	fd = shm_open(s->name, O_RDWR, 0);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		close(fd);
		return rc;
	}
	if ((size_t)st.st_size != sizeof(struct dfly_regs)) {
		close(fd);
		return -EPROTO; /* another layout: do not even map it */
	}
	s->regs = map_fd(fd);
	rc = s->regs == NULL ? -errno : 0;
	close(fd);
	if (rc < 0)
		return rc;
	if (*(volatile uint32_t *)&s->regs->magic == 0) {
		/* created, not initialised yet */
		munmap(s->regs, sizeof(struct dfly_regs));
		s->regs = NULL;
		return -EAGAIN;
	}
	atomic_thread_fence(memory_order_acquire);
	if (dfly_regs_check(s->regs) < 0 || s->regs->router != router) {
		munmap(s->regs, sizeof(struct dfly_regs));
		s->regs = NULL;
		return -EPROTO;
	}
	return 0;
}

void dfly_regs_shm_close(struct dfly_regs_shm *s)
{
	if (s == NULL || s->regs == NULL)
		return;
	munmap(s->regs, sizeof(struct dfly_regs));
	if (s->owner)
		shm_unlink(s->name);
	s->regs = NULL;
	s->owner = 0;
}

void dfly_regs_shm_create_msg(char *buf, size_t len, const char *instance, uint32_t router, int rc)
{
	if (rc == -EEXIST)
		snprintf(
		    buf, len,
		    "register file " DFLY_SHM_DIR "/dfly.%s.r%u exists: another run uses "
		    "instance %s, or a run was killed; remove it with `dfly clean --instance %s`",
		    instance, router, instance, instance);
	else
		snprintf(buf, len, "register file " DFLY_SHM_DIR "/dfly.%s.r%u: %s", instance,
			 router, strerror(-rc));
}

int dfly_regs_shm_unlink(const char *instance, uint32_t router)
{
	char name[DFLY_SHM_NAME_MAX];
	int rc = dfly_regs_shm_name(name, sizeof(name), instance, router);

	if (rc < 0)
		return rc;
	return shm_unlink(name) < 0 ? -errno : 0;
}
