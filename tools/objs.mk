# SPDX-License-Identifier: MIT
# tools/'s objects: the CLI's main (prog-y) and its internal archive,
# libselfmon-cli.a (cli-y); core/objs.mk says how to list one.
prog-y += selfmon.o
cli-y += bench.o bench_cost.o bench_options.o bench_rows.o
cli-y += cli.o cli_opts.o
cli-y += compare.o compare_load.o compare_opts.o compare_out.o compare_stats.o
cli-y += kernels.o list.o markercost.o outfile.o probe.o readcost.o record.o samplecost.o
cli-y += slowdown.o
