// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: the `selfmon bench` command line. The input is argv,
 * its arguments separated by NUL bytes ("bench" comes first, as the CLI
 * passes it). The parser must return 0 or -EINVAL with a message, never
 * crash, read past an argument, or accept a value outside the documented
 * ranges.
 *
 * The CLI's sources are compiled in: the harness links with libselfmon alone,
 * whatever archive the fuzz build adds.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/bench_options.c"
#include "../../tools/cli_opts.c"
#include "../../tools/cli.c"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cli_bench cli;
	char *argv[MAX_ARGS + 2], err[256];
	char *copy = malloc(size + 1);
	int argc = 0, rc;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = "bench";
	for (size_t i = 0; i < size && argc < MAX_ARGS;) {
		argv[argc++] = copy + i;
		i += strlen(copy + i) + 1;
	}
	argv[argc] = NULL;
	err[0] = '\0';
	rc = cli_bench__parse(argc, argv, &cli, err, sizeof(err));
	if (rc && (rc != -EINVAL || !err[0]))
		abort();	/* a refusal is -EINVAL and says why */
	if (!rc) {
		/* What it accepted is within the ranges it documents. */
		if (cli.repetitions < 0 || cli.repetitions > 100000 || cli.warmup < 0 || cli.warmup > 1000 ||
		    cli.iterations > 1000000000ull || !(cli.min_time >= 0 && cli.min_time <= 3600))
			abort();
		if (cli.cpu && cli.cluster)
			abort();
		if (cli.format != CLI_FORMAT_TABLE && cli.format != CLI_FORMAT_CSV &&
		    cli.format != CLI_FORMAT_JSON)
			abort();
	}
	free(copy);
	return 0;
}
