// SPDX-License-Identifier: MIT
/*
 * The sampler's open against a mocked perf_event_open (ld --wrap=syscall):
 * each refusal the kernel can give becomes a message with its cause and
 * fix, and a kernel before 5.13 refusing attr.sigtrap is named as such.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include <selfmon/selfmon.h>
#include <selfmon/sampler.h>

long __wrap_syscall(long nr, ...);
long __real_syscall(long nr, ...);

static int open_errno;		/* what every perf_event_open fails with */
static int opens;
static struct perf_event_attr last_attr;

long __wrap_syscall(long nr, ...)
{
	va_list ap;
	long a[5];

	va_start(ap, nr);
	for (int i = 0; i < 5; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr != SYS_perf_event_open)
		return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4]);
	opens++;
	memcpy(&last_attr, (const void *)a[0], sizeof(last_attr));
	errno = open_errno;
	return -1;
}

static struct selfmon_sampler_opts opts(void)
{
	return (struct selfmon_sampler_opts){ .sz = sizeof(struct selfmon_sampler_opts),
					      .period = 100000 };
}

static void expect_refusal(const char *events, const struct selfmon_sampler_opts *o, int err,
			   const char *says)
{
	opens = 0;
	open_errno = err;
	assert_null(selfmon_sampler__open(events, o));
	assert_int_equal(errno, err);
	if (!strstr(selfmon_errmsg(), says))
		fail_msg("message does not say '%s': %s", says, selfmon_errmsg());
}

static void a_kernel_refusing_sigtrap_is_named_with_the_version_it_needs(void **state)
{
	struct selfmon_sampler_opts o = opts();

	(void)state;
	o.sigtrap = 1;
	o.sig_data = 42;
	expect_refusal("cpu-clock:u", &o, EINVAL, "Linux 5.13");
	assert_true(last_attr.sigtrap);
	assert_true(last_attr.remove_on_exec);
	assert_int_equal(last_attr.sig_data, 42);
	expect_refusal("cpu-clock:u", &o, E2BIG, "Linux 5.13");
}

static void an_invalid_attr_without_sigtrap_names_the_bits_and_the_rate_limit(void **state)
{
	struct selfmon_sampler_opts o = opts();

	(void)state;
	expect_refusal("cpu-clock:u", &o, EINVAL, "perf_event_max_sample_rate");
	assert_false(last_attr.sigtrap);
}

static void a_refused_kernel_level_falls_back_to_user_space_once(void **state)
{
	struct selfmon_sampler_opts o = opts();

	(void)state;
	expect_refusal("cpu-clock", &o, EACCES, "perf_event_paranoid");
	assert_int_equal(opens, 2);
	assert_true(last_attr.exclude_kernel);
	/* ":u" chose its levels: nothing to fall back to */
	expect_refusal("cpu-clock:u", &o, EACCES, "perf_event_paranoid");
	assert_int_equal(opens, 1);
}

static void the_sampling_attr_carries_period_type_and_watermark(void **state)
{
	struct selfmon_sampler_opts o = opts();

	(void)state;
	o.sideband = SELFMON_SIDEBAND_MMAP2 | SELFMON_SIDEBAND_SWITCH;
	o.ring_pages = 8;
	expect_refusal("cpu-clock:u", &o, ENOENT, "cpu-clock");
	assert_int_equal(last_attr.sample_period, 100000);
	assert_false(last_attr.freq);
	assert_int_equal(last_attr.sample_type, SELFMON_SAMPLER_DEFAULT_TYPE);
	assert_true(last_attr.disabled);
	assert_true(last_attr.mmap && last_attr.mmap2 && last_attr.context_switch);
	assert_true(last_attr.watermark);
	assert_int_equal(last_attr.wakeup_watermark, 8 * sysconf(_SC_PAGESIZE) / 4);
	o.period = 0;
	o.freq = 999;
	o.wakeup_events = 1;
	expect_refusal("cpu-clock:u", &o, ENOENT, "cpu-clock");
	assert_true(last_attr.freq);
	assert_int_equal(last_attr.sample_freq, 999);
	assert_false(last_attr.watermark);
	assert_int_equal(last_attr.wakeup_events, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_kernel_refusing_sigtrap_is_named_with_the_version_it_needs),
		cmocka_unit_test(an_invalid_attr_without_sigtrap_names_the_bits_and_the_rate_limit),
		cmocka_unit_test(a_refused_kernel_level_falls_back_to_user_space_once),
		cmocka_unit_test(the_sampling_attr_carries_period_type_and_watermark),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
