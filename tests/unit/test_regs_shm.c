/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the shared-memory register files (control/regs_shm.c): names, mode 0600,
 * exclusive creation and the message of a refused one, layout and router checks on open, one
 * object seen by two mappings and by another process running the firmware, unlink by the
 * creator, and the lockstep doorbell (dfly_regs_sleep/wake) across two processes. Every object is
 * named after the test's pid and removed even when an assertion fails (the group teardown unlinks
 * them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fw.h"
#include "regs_shm.h"

static char inst[32];

static int group_setup(void **state)
{
	(void)state;
	snprintf(inst, sizeof(inst), "test%d", (int)getpid());
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	for (uint32_t r = 0; r < 8; r++)
		dfly_regs_shm_unlink(inst, r);
	return 0;
}

static void test_names(void **state)
{
	char buf[DFLY_SHM_NAME_MAX];

	(void)state;
	assert_int_equal(dfly_regs_shm_name(buf, sizeof(buf), "lab-1_a", 17), 0);
	assert_string_equal(buf, "/dfly.lab-1_a.r17");
	assert_int_equal(dfly_regs_shm_name(buf, sizeof(buf), "", 0), -EINVAL);
	assert_int_equal(dfly_regs_shm_name(buf, sizeof(buf), "a/b", 0), -EINVAL);
	assert_int_equal(dfly_regs_shm_name(buf, sizeof(buf), "a.b", 0), -EINVAL);
	assert_int_equal(dfly_regs_shm_name(buf, sizeof(buf), NULL, 0), -EINVAL);
	assert_int_equal(
	    dfly_regs_shm_name(buf, sizeof(buf), "0123456789012345678901234567890123", 0), -EINVAL);
	assert_int_equal(dfly_regs_shm_name(buf, 8, "lab", 1234567), -EINVAL);
}

static void test_create_open(void **state)
{
	struct dfly_regs_shm a, b, c;
	char path[128];
	struct stat st;

	(void)state;
	assert_int_equal(dfly_regs_shm_create(&a, inst, 1, 12), 0);
	assert_int_equal(dfly_regs_check(a.regs), 0);
	assert_int_equal(a.regs->router, 1);
	assert_int_equal(a.regs->nports, 12);
	/* mode 0600, the size of the layout */
	snprintf(path, sizeof(path), "/dev/shm%s", a.name);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal((size_t)st.st_size, sizeof(struct dfly_regs));
	/* exclusive */
	assert_int_equal(dfly_regs_shm_create(&c, inst, 1, 12), -EEXIST);
	/* a second mapping sees the same memory */
	assert_int_equal(dfly_regs_shm_open(&b, inst, 1), 0);
	assert_int_equal(b.owner, 0);
	a.regs->port_ctr[3][DFLY_TX_PKTS] = 12345;
	assert_int_equal(b.regs->port_ctr[3][DFLY_TX_PKTS], 12345);
	b.regs->knobs.mode = DFLY_MODE_PB;
	assert_int_equal(a.regs->knobs.mode, DFLY_MODE_PB);
	/* another router's name, a missing object */
	assert_int_equal(dfly_regs_shm_open(&c, inst, 2), -ENOENT);
	dfly_regs_shm_close(&b); /* not the owner: the object stays */
	assert_int_equal(stat(path, &st), 0);
	dfly_regs_shm_close(&a); /* the owner unlinks */
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(dfly_regs_shm_open(&c, inst, 1), -ENOENT);
	dfly_regs_shm_close(&a); /* twice is harmless */
}

/* A refused creation says which file, and for one that exists, how to remove it. */
static void test_create_msg(void **state)
{
	struct dfly_regs_shm a, b;
	char msg[256], want[256];

	(void)state;
	assert_int_equal(dfly_regs_shm_create(&a, inst, 6, 12), 0);
	assert_int_equal(dfly_regs_shm_create(&b, inst, 6, 12), -EEXIST);
	dfly_regs_shm_create_msg(msg, sizeof(msg), inst, 6, -EEXIST);
	snprintf(want, sizeof(want),
		 "register file /dev/shm/dfly.%s.r6 exists: another run uses instance %s, or a "
		 "run was killed; remove it with `dfly clean --instance %s`",
		 inst, inst, inst);
	assert_string_equal(msg, want);
	dfly_regs_shm_create_msg(msg, sizeof(msg), inst, 6, -EACCES);
	snprintf(want, sizeof(want), "register file /dev/shm/dfly.%s.r6: Permission denied", inst);
	assert_string_equal(msg, want);
	dfly_regs_shm_close(&a);
}

/* An object of the right name but another layout is refused, mapped or not. */
static void test_layout_checks(void **state)
{
	struct dfly_regs_shm a, b;
	char name[DFLY_SHM_NAME_MAX];
	int fd;

	(void)state;
	/* wrong size: not even mapped */
	assert_int_equal(dfly_regs_shm_name(name, sizeof(name), inst, 3), 0);
	fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4096), 0);
	close(fd);
	assert_int_equal(dfly_regs_shm_open(&b, inst, 3), -EPROTO);
	assert_int_equal(dfly_regs_shm_unlink(inst, 3), 0);
	assert_int_equal(dfly_regs_shm_unlink(inst, 3), -ENOENT);

	/* right size, not initialised yet (magic still 0): try again later */
	fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, sizeof(struct dfly_regs)), 0);
	close(fd);
	assert_int_equal(dfly_regs_shm_open(&b, inst, 3), -EAGAIN);
	assert_int_equal(dfly_regs_shm_unlink(inst, 3), 0);

	/* right size, another version or another router */
	assert_int_equal(dfly_regs_shm_create(&a, inst, 4, 12), 0);
	a.regs->version = DFLY_REGS_VERSION + 1;
	assert_int_equal(dfly_regs_shm_open(&b, inst, 4), -EPROTO);
	a.regs->version = DFLY_REGS_VERSION;
	a.regs->router = 5;
	assert_int_equal(dfly_regs_shm_open(&b, inst, 4), -EPROTO);
	a.regs->router = 4;
	assert_int_equal(dfly_regs_shm_open(&b, inst, 4), 0);
	dfly_regs_shm_close(&b);
	dfly_regs_shm_close(&a);
}

/* Another process maps the object and runs the firmware on it: the PB table it publishes and
 * the frames it queues are what this process reads. */
static void test_firmware_in_other_process(void **state)
{
	struct dfly_topo *t = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	struct dfly_regs_shm a;
	uint32_t router = 5; /* group 1, rho 1 */
	const struct dfly_tbl_pb *tb;
	int status;
	pid_t pid;

	(void)state;
	assert_non_null(t);
	assert_int_equal(dfly_regs_shm_create(&a, inst, router, t->radix), 0);
	a.regs->nvcs[t->first_global] = 2;
	/* global port 0, VC 0 far above port 1's: with Qavg over the other channel, F = 2 */
	a.regs->vc_gauge[t->first_global][0][DFLY_VC_DOWN_OCC] = 100;
	a.regs->vc_gauge[t->first_global + 1][0][DFLY_VC_DOWN_OCC] = 10;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct dfly_regs_shm b;
		struct fw_params par;
		struct fw *fw;

		if (dfly_regs_shm_open(&b, inst, router) != 0)
			_exit(10);
		fw_params_init(&par);
		par.vc_global = 2;
		par.pb_enabled = true;
		par.pb_avg_other = true;
		fw = fw_create(t, router, b.regs, &par);
		if (fw == NULL)
			_exit(11);
		fw_tick(fw, 7);
		fw_destroy(fw);
		dfly_regs_shm_close(&b);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	/* the ASIC's view: generation 1, own row rho 1 has port 0 VC 0 saturated */
	assert_int_equal(dfly_regs_tbl_gen(a.regs, DFLY_TBL_PB), 1);
	tb = dfly_regs_tbl_acquire(a.regs, DFLY_TBL_PB);
	assert_int_equal(tb->sat[1][0], 1);
	assert_int_equal(tb->sat[1][1], 0);
	/* a-1 = 3 PB_STATE frames wait on the CPU tx ring */
	for (int i = 0; i < 3; i++) {
		assert_non_null(dfly_cpu_ring_peek(&a.regs->cpu_tx));
		dfly_cpu_ring_pop(&a.regs->cpu_tx);
	}
	assert_null(dfly_cpu_ring_peek(&a.regs->cpu_tx));
	assert_int_equal(atomic_load(&a.regs->fw.heartbeat), 8);
	dfly_regs_shm_close(&a);
	dfly_topo_destroy(t);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* dfly_regs_sleep()/wake() as dfly sim and dfly-controld use them: another process sleeps on
 * steps with a 20 s timeout and is woken by the store (it would otherwise return after 20 s);
 * a sleep whose counter is already there returns at once; one nobody wakes returns at its
 * timeout; the sleepers word is back to 0 each time. */
static void test_lockstep_doorbell(void **state)
{
	struct dfly_regs_shm a;
	uint32_t router = 6;
	double t0;
	int status;
	pid_t pid;

	(void)state;
	assert_int_equal(dfly_regs_shm_create(&a, inst, router, 8), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct dfly_regs_shm b;
		double t;

		if (dfly_regs_shm_open(&b, inst, router) != 0)
			_exit(10);
		t = now_s();
		while (atomic_load(&b.regs->steps) < 1 && now_s() - t < 20)
			dfly_regs_sleep(&b.regs->steps, 1, &b.regs->steps_sleepers, 20000000000L);
		t = now_s() - t;
		dfly_regs_shm_close(&b);
		_exit(t < 10 ? 0 : 12);
	}
	/* until the child sleeps (it may have to be scheduled first) */
	t0 = now_s();
	while (atomic_load(&a.regs->steps_sleepers) == 0 && now_s() - t0 < 10)
		usleep(1000);
	assert_int_equal(atomic_load(&a.regs->steps_sleepers), 1);
	atomic_store_explicit(&a.regs->steps, 1, memory_order_release);
	dfly_regs_wake(&a.regs->steps, &a.regs->steps_sleepers);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(atomic_load(&a.regs->steps_sleepers), 0);
	/* already there: no sleep at all (a 20 s timeout would fail the test's time) */
	t0 = now_s();
	dfly_regs_sleep(&a.regs->steps, 1, &a.regs->steps_sleepers, 20000000000L);
	assert_true(now_s() - t0 < 10);
	/* nobody wakes it: back after its 10 ms */
	t0 = now_s();
	dfly_regs_sleep(&a.regs->steps, 2, &a.regs->steps_sleepers, 10000000L);
	assert_true(now_s() - t0 >= 0.009);
	assert_int_equal(atomic_load(&a.regs->steps_sleepers), 0);
	assert_int_equal(atomic_load(&a.regs->steps), 1);
	dfly_regs_shm_close(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_create_open),
	    cmocka_unit_test(test_create_msg),
	    cmocka_unit_test(test_layout_checks),
	    cmocka_unit_test(test_firmware_in_other_process),
	    cmocka_unit_test(test_lockstep_doorbell),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
