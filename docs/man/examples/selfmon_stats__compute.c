// SPDX-License-Identifier: MIT
/* Statistics of repeated measurements, and the per-iteration cost with calibration. */
#include <stdio.h>
#include <selfmon/bench.h>

int main(void)
{
	static const double sorted[] = { 101, 102, 102, 103, 110 };
	struct selfmon_stats st;
	double per_iter;

	if (selfmon_stats__compute(sorted, 5, &st))
		return 1;
	printf("median %.1f, p90 %.1f, mad %.1f, p50 again %.1f\n", st.median, st.p90, st.mad,
	       selfmon_stats__quantile(sorted, 5, 0.5));
	/* a region of 1000 iterations read 5020, an empty one 20 */
	if (!selfmon_calib__empty(5020, 20, 1000, &per_iter))
		printf("%s: %.2f per iteration\n", selfmon_calib__str(SELFMON_CALIB_EMPTY),
		       per_iter);
	/* L iterations read 5020, 2L read 10020: the fixed cost drops out */
	if (!selfmon_calib__two_length(5020, 10020, 1000, &per_iter))
		printf("%s: %.2f per iteration\n", selfmon_calib__str(SELFMON_CALIB_TWO_LENGTH),
		       per_iter);
	return 0;
}
