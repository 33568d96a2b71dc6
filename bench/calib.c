// SPDX-License-Identifier: MIT
/* The calibration arithmetic of selfmon bench: pure functions. */
#include <stdint.h>

#include <selfmon/bench.h>

const char *selfmon_calib__str(enum selfmon_calib c)
{
	return c == SELFMON_CALIB_EMPTY ? "empty" : "two-length";
}

/* A count below zero is noise, never a measurement: report 0 and say so. */
static int clamp(double v, double *out)
{
	if (v < 0) {
		*out = 0;
		return 1;
	}
	*out = v;
	return 0;
}

int selfmon_calib__empty(double delta, double empty, uint64_t iters, double *per_iter)
{
	return clamp(iters ? (delta - empty) / (double)iters : delta - empty, per_iter);
}

int selfmon_calib__two_length(double d_l, double d_2l, uint64_t l, double *per_iter)
{
	return clamp(l ? (d_2l - d_l) / (double)l : 0, per_iter);
}
